package io.hoist.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code hoist help [CMD]}: the usage of the tool or of one subcommand; anything else is an error, not a silent usage page. */
@Command(name = "help", description = "Print the usage of the tool, or of the subcommand named.")
public final class HelpCommand implements Runnable {
    @Parameters(arity = "0..1", paramLabel = "CMD", description = "the subcommand")
    String command;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        CommandLine parent = spec.commandLine().getParent();
        if (command == null) {
            parent.usage(System.out);
            return;
        }
        CommandLine sub = parent.getSubcommands().get(command);
        if (sub == null || sub == spec.commandLine()) {
            throw new IllegalArgumentException("no subcommand '" + command + "'; the subcommands are "
                    + String.join(", ", parent.getSubcommands().keySet()));
        }
        sub.usage(System.out);
    }
}
