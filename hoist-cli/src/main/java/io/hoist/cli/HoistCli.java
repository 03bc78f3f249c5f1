package io.hoist.cli;

import io.hoist.cli.options.CliSupport;
import io.hoist.ring.KernelChoice;
import java.io.Console;
import java.util.Arrays;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hoist} command-line tool. */
@Command(
        name = "hoist",
        mixinStandardHelpOptions = true,
        version = "hoist 0.1.0",
        description = "Homomorphic linear transforms over RNS-CKKS: benchmarks and demos.",
        subcommands = {
            DemoCommand.class,
            LtCommand.class,
            ScheduleCommand.class,
            CtosCommand.class,
            BootstrapCommand.class,
            TradeoffCommand.class,
            KeygenCommand.class,
            InspectCommand.class,
            OpsCommand.class,
            NttCommand.class,
            OffloadCommand.class,
            BfvCommand.class,
            HelpCommand.class
        })
public final class HoistCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The configured command line: errors, parse errors included, become one "hoist: …" line and exit code 2. */
    public static CommandLine commandLine() {
        return CliSupport.configure(new CommandLine(new HoistCli()), CliSupport::message);
    }

    /** Commands that run the kernels, so the first one on a machine calibrates them. */
    private static final Set<String> COMPUTING = Set.of("demo", "lt", "ops", "ctos", "ntt", "tradeoff", "offload");

    public static void main(String[] args) {
        Console console = System.console();
        boolean quiet = Arrays.asList(args).contains("--json") || console == null || !console.isTerminal();
        if (!quiet && args.length > 0 && COMPUTING.contains(args[0]) && KernelChoice.calibrationPending()) {
            System.err.println("hoist: measuring which kernel forms are fastest on this machine (once, about 6 s)…");
        }
        System.exit(CliSupport.execute(commandLine(), args));
    }
}
