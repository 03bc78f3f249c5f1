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
        try {
            new org.openjdk.jmh.runner.options.CommandLineOptions(args);   // JMH's own parser, so a bad option is one hoist: line, not JMH's exit
        } catch (org.openjdk.jmh.runner.options.CommandLineOptionException e) {
            throw new IllegalArgumentException("jmh: " + e.getMessage() + " (./hoist jmh -h lists JMH's options)");
        }
        org.openjdk.jmh.Main.main(args);
        return 0;
    }
}
