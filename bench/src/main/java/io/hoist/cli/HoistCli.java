package io.hoist.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hoist} command-line tool. */
@Command(name = "hoist", mixinStandardHelpOptions = true, version = "hoist 0.1.0",
        description = "Homomorphic linear transforms over RNS-CKKS: benchmarks and demos.",
        subcommands = {DemoCommand.class, LtCommand.class, OpsCommand.class, NttCommand.class, OffloadCommand.class, JmhCommand.class, CommandLine.HelpCommand.class})
public final class HoistCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        int code = new CommandLine(new HoistCli())
                .setExecutionExceptionHandler((ex, cmd, parsed) -> {
                    cmd.getErr().println("hoist: " + ex.getMessage());
                    return 2;
                })
                .execute(args);
        System.exit(code);
    }
}
