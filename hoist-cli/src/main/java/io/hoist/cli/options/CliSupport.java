package io.hoist.cli.options;

import java.util.function.Function;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What every Hoist command line shares (the main tool and the Spark one): numbers in ASCII digits
 * only, one line for every error ({@code hoist: <what is wrong>}, exit code 2; a parse error adds
 * where the usage is), and the check that an option is not given without the one it belongs to.
 */
public final class CliSupport {
    private CliSupport() {}

    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]{1,19}");
    private static final Pattern DECIMAL =
            Pattern.compile("[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?");

    /** Converters, and the two error handlers; {@code describe} turns a command's exception into its line. */
    public static CommandLine configure(CommandLine cl, Function<Exception, String> describe) {
        CommandLine.ITypeConverter<Integer> toInt = CliSupport::int32;
        CommandLine.ITypeConverter<Long> toLong = s -> Long.valueOf(integer(s, "an integer"));
        CommandLine.ITypeConverter<Double> toDouble = CliSupport::decimal;
        cl.registerConverter(Integer.class, toInt).registerConverter(int.class, toInt);
        cl.registerConverter(Long.class, toLong).registerConverter(long.class, toLong);
        cl.registerConverter(Double.class, toDouble).registerConverter(double.class, toDouble);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine where = ex.getCommandLine();
            String name = where.getCommandSpec().qualifiedName(" ").replaceFirst("^hoist", "./hoist");
            // picocli reports a missing required option before an unknown one; the unknown one is the likelier mistake
            String unknown = ex instanceof CommandLine.UnmatchedArgumentException
                            || where.getUnmatchedArguments().isEmpty()
                    ? ""
                    : "unknown option " + String.join(", ", where.getUnmatchedArguments()) + "; ";
            where.getErr().println("hoist: " + unknown + oneLine(ex.getMessage()) + "; see " + name + " --help");
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            cmd.getErr().println("hoist: " + oneLine(describe.apply(ex)));
            return 2;
        });
        return cl;
    }

    /** Runs {@code cl} on {@code args}; an out-of-memory error is one line too. Returns the exit code. */
    public static int execute(CommandLine cl, String[] args) {
        try {
            return cl.execute(args);
        } catch (OutOfMemoryError e) {
            System.err.println("hoist: out of memory (" + e.getMessage()
                    + "); raise the heap with HOIST_JVM_OPTS=-Xmx… or choose smaller parameters");
            return 2;
        }
    }

    /** An exception's message, or its class when it has none (a bug's, not a user's error). */
    public static String message(Exception ex) {
        return ex.getMessage() == null || ex.getMessage().isBlank()
                ? ex.getClass().getSimpleName()
                : ex.getMessage();
    }

    static String oneLine(String s) {
        return s == null ? "" : s.strip().replaceAll("\\s*\\R\\s*", "; ");
    }

    /** An int option's value: ASCII digits within the int range (a long beyond it is out of range, not a leak). */
    private static Integer int32(String s) {
        long v = Long.parseLong(integer(s, "an integer"));
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)
            throw new CommandLine.TypeConversionException("'" + s + "' is out of range");
        return (int) v;
    }

    /** A list element given as a string ({@code --logN 10,11}): ASCII digits within the int range. */
    public static int parseInt(String s, String option) {
        try {
            return int32(s);
        } catch (CommandLine.TypeConversionException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }

    private static String integer(String s, String what) {
        String t = s.strip();
        if (!INTEGER.matcher(t).matches())
            throw new CommandLine.TypeConversionException("'" + s + "' is not " + what + " (ASCII digits)");
        try {
            Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + s + "' is out of range");
        }
        return t;
    }

    private static Double decimal(String s) {
        String t = s.strip();
        if (!DECIMAL.matcher(t).matches())
            throw new CommandLine.TypeConversionException("'" + s + "' is not a finite decimal number (ASCII digits)");
        double v = Double.parseDouble(t);
        if (!Double.isFinite(v)) throw new CommandLine.TypeConversionException("'" + s + "' is out of range");
        return v;
    }

    /**
     * Refuses {@code option} when it was given but {@code companionPresent} is false: an option that
     * means nothing without another is an error, not silently ignored.
     */
    public static void requireCompanion(CommandSpec spec, String option, boolean companionPresent, String companion) {
        if (!companionPresent && given(spec, option)) {
            throw new IllegalArgumentException(
                    option + " goes with " + companion + "; without it the option would be ignored");
        }
    }

    /** Whether {@code option} was given on the command line (not only defaulted). */
    public static boolean given(CommandSpec spec, String option) {
        return spec != null
                && spec.commandLine().getParseResult() != null
                && spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    /** {@code value} checked in [lo, hi], the bound named in the message. */
    public static int bounded(String option, int value, int lo, int hi) {
        if (value < lo || value > hi)
            throw new IllegalArgumentException(option + " must be in [" + lo + ", " + hi + "], got " + value);
        return value;
    }
}
