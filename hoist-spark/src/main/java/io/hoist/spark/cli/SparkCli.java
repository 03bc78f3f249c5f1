package io.hoist.spark.cli;

import io.hoist.cli.HelpCommand;
import io.hoist.cli.options.CliSupport;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The main class of the hoist-spark jar ({@code ./hoist spark-lt}, or {@code spark-submit}): the
 * Spark commands, apart from the rest of the CLI so that only they need Spark on the class path.
 */
@Command(
        name = "hoist",
        mixinStandardHelpOptions = true,
        subcommands = {SparkLtCommand.class, HelpCommand.class},
        description = "Hoist on Apache Spark (the other commands are in hoist.jar: ./hoist --help).")
public final class SparkCli implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The configured Spark command line: one "hoist: …" line for every error, a failed Spark job's included. */
    public static CommandLine commandLine() {
        return CliSupport.configure(new CommandLine(new SparkCli()), SparkLtRun::describe);
    }

    public static void main(String[] args) {
        System.exit(CliSupport.execute(commandLine(), args));
    }
}
