package io.hoist.cli;

import io.hoist.bfv.BfvParameters;
import io.hoist.cli.report.BfvRender;
import io.hoist.cli.run.BfvBench;
import io.hoist.math.Primes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * {@code hoist bfv}: the BFV client measured on one parameter set (encode + seeded encryption + save,
 * decrypt + decode, public-key encryption, SEAL's byte sizes, the noise budget after a plain multiply,
 * the client's heap), and the subcommands that exchange SEAL files with a SEAL server.
 */
@Command(
        name = "bfv",
        mixinStandardHelpOptions = true,
        description =
                "BFV client against Microsoft SEAL: time it on a parameter set, or keygen/encrypt/decrypt SEAL files.",
        subcommands = {
            BfvParamsCommand.class,
            BfvKeygenCommand.class,
            BfvEncryptCommand.class,
            BfvDecryptCommand.class,
            BfvCtCheckCommand.class
        })
public final class BfvCommand implements Callable<Integer> {
    @Option(names = "--preset", description = "seal4096 (default), seal8192, seal16384 or small4096")
    String preset;

    @Option(names = "--logN", description = "log2 N for a custom set (with --logQ and --t)")
    Integer logN;

    @Option(names = "--logQ", split = ",", description = "prime sizes in bits, the special prime last, e.g. 36,36,37")
    List<Integer> logQ;

    @Option(names = "--t", description = "plain modulus (default: the largest 20-bit batching prime)")
    Long t;

    @Option(names = "--seeded", description = "measure and size the seeded form (c0 and a seed)")
    boolean seeded;

    @Option(
            names = "--runs",
            defaultValue = "1000",
            description = "timed calls per operation, default ${DEFAULT-VALUE}")
    int runs;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    /**
     * Refuses options of {@code ./hoist bfv} itself given before a subcommand's name: picocli runs only the
     * subcommand, so they would be ignored ({@code bfv --preset seal8192 params} wrote seal4096's parameters).
     */
    static void refuseOwnOptionsBefore(CommandSpec sub) {
        CommandSpec parent = sub.parent();
        if (parent == null || parent.commandLine().getParseResult() == null) return;
        List<OptionSpec> given = parent.commandLine().getParseResult().matchedOptions();
        if (!given.isEmpty())
            throw new IllegalArgumentException(given.getFirst().longestName() + " before '" + sub.name()
                    + "' belongs to ./hoist bfv's timed run; give " + sub.name() + "'s own options after its name");
    }

    /** The set the options name: a preset, or --logN/--logQ/--t. */
    static BfvParameters params(String preset, Integer logN, List<Integer> logQ, Long t) {
        if (logN == null) {
            if (logQ != null || t != null) throw new IllegalArgumentException("--logQ and --t need --logN");
            return BfvParameters.preset(preset == null ? "seal4096" : preset);
        }
        if (preset != null) throw new IllegalArgumentException("give --preset or --logN, not both");
        if (logN < 10 || logN > 16) throw new IllegalArgumentException("--logN must be in [10, 16], got " + logN);
        if (logQ == null || logQ.size() < 2)
            throw new IllegalArgumentException("--logQ needs at least two prime sizes");
        List<Long> primes = new ArrayList<>();
        for (int b : logQ) {
            if (b < logN + 2 || b > BfvParameters.MAX_PRIME_BITS)
                throw new IllegalArgumentException("--logQ sizes must be in [" + (logN + 2) + ", 60], got " + b);
            primes.add(Primes.nttPrimes(logN, b, 1, primes).getFirst());
        }
        long tt = t != null ? t : Primes.nttPrimes(logN, 20, 1).getFirst();
        return BfvParameters.of(
                1 << logN, tt, primes.stream().mapToLong(Long::longValue).toArray());
    }

    @Override
    public Integer call() {
        if (runs < 10 || runs > 1_000_000)
            throw new IllegalArgumentException("--runs must be in [10, 10^6], got " + runs);
        BfvParameters p = params(preset, logN, logQ, t);
        String name = logN == null ? (preset == null ? "seal4096" : preset) : null;
        BfvBench.Result r = BfvBench.run(p, name, seeded, runs);
        System.out.print(json ? BfvRender.json(r) + "\n" : BfvRender.text(r));
        return r.roundTrip() ? 0 : 1;
    }
}
