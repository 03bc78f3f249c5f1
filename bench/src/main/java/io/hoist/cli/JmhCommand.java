package io.hoist.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

import java.util.concurrent.Callable;

/** Runs the JMH benchmarks packaged in this jar; arguments go to JMH unchanged (try {@code -h}). */
@Command(name = "jmh", description = "Run the JMH benchmarks (arguments are passed to JMH, e.g. 'NttBenchmark -p logN=16').")
public final class JmhCommand implements Callable<Integer> {
    @Unmatched
    String[] args = new String[0];

    @Override
    public Integer call() throws Exception {
        org.openjdk.jmh.Main.main(args);
        return 0;
    }
}
