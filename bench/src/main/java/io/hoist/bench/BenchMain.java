package io.hoist.bench;

import org.openjdk.jmh.Main;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * {@code ./hoist jmh [JMH args]}: JMH's own command line over the benchmarks of this jar, except that
 * a bad option is one {@code hoist:} line (exit code 2) like every other Hoist command.
 */
public final class BenchMain {
    private BenchMain() {}

    /** The one-line error for {@code args}, or null when JMH accepts them. */
    static String refusal(String... args) {
        try {
            new CommandLineOptions(args);
            return null;
        } catch (CommandLineOptionException e) {
            return "hoist: jmh: " + e.getMessage() + "; ./hoist jmh -h lists JMH's options";
        }
    }

    public static void main(String[] args) throws Exception {
        String refused = refusal(args);
        if (refused != null) {
            System.err.println(refused);
            System.exit(2);
        }
        Main.main(args);
    }
}
