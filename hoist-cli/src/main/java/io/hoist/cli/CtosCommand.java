package io.hoist.cli;

import io.hoist.ckks.CkksParameters;
import io.hoist.cli.options.CliSupport;
import io.hoist.cli.options.DiagonalStorageOptions;
import io.hoist.cli.options.EngineOptions;
import io.hoist.cli.options.KeyStorageOptions;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.options.Parsers;
import io.hoist.cli.report.CtosSweepRender;
import io.hoist.cli.report.Json;
import io.hoist.cli.report.Plots;
import io.hoist.cli.run.CtosRun;
import io.hoist.cli.run.CtosSetup;
import io.hoist.cli.run.CtosSweep;
import io.hoist.cli.run.LtRun;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Objective;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hoist ctos}: CoeffsToSlots (and with {@code --stoc} SlotsToCoeffs and the round trip) of a
 * random coefficient vector, each matrix through the chosen algorithm and split, the splits chosen per
 * matrix or jointly for the fewest keys in the union. {@code --sweep} tabulates depths × algorithms.
 */
@Command(
        name = "ctos",
        mixinStandardHelpOptions = true,
        description =
                "CoeffsToSlots (homomorphic DFT of bootstrapping) with any LT algorithm per matrix; keys, counts, precision, time; "
                        + "--stoc adds SlotsToCoeffs and the round trip, --joint shares keys across matrices, --sweep tabulates depths × algorithms.")
public final class CtosCommand implements Callable<Integer> {
    @Mixin
    ParamsOptions paramsOptions;

    @Mixin
    EngineOptions engine;

    @Option(names = "--depth", description = "CoeffsToSlots matrices (levels), 1 … logSlots (default min(4, logSlots))")
    Integer depth;

    @Option(
            names = "--matrices-per-level",
            split = ",",
            description =
                    "CoeffsToSlots matrices on each level from the first, e.g. 2,1,1 (Lattigo's Levels: the k matrices of a level at scale q^(1/k), one rescale); depth is the sum")
    int[] perLevel;

    @Option(names = "--stoc-matrices-per-level", split = ",", description = "the same for SlotsToCoeffs")
    int[] stocPerLevel;

    @Option(names = "--stoc-depth", description = "SlotsToCoeffs matrices (default min(3, logSlots))")
    Integer stocDepth;

    @Option(names = "--level", description = "level of the first CoeffsToSlots matrix (default: the top)")
    Integer level;

    @Option(
            names = "--stoc-level",
            description =
                    "level of the first SlotsToCoeffs matrix (default: 12 for boot16, the 39-bit primes; else the lowest that fits)")
    Integer stocLevel;

    @Option(
            names = "--algo",
            defaultValue = "th-bsgs",
            description = "diagonal, bsgs, dh-bsgs, th-bsgs or any (default ${DEFAULT-VALUE})")
    String algo;

    @Option(
            names = "--objective",
            defaultValue = "fewest-keys",
            description =
                    "fewest-keys, fewest-mults, budget (with --key-budget) or lattigo (DH-BSGS with Lattigo's BSGS ratio) (default ${DEFAULT-VALUE})")
    String objective;

    @Option(
            names = "--key-budget",
            description = "with --objective budget: most rotation keys (per matrix, or in the union with --joint)")
    Integer keyBudget;

    @Option(
            names = "--joint",
            description =
                    "choose all matrices' splits together: fewest keys in the union (conjugation included), or fewest multiplications within --key-budget")
    boolean joint;

    @Option(
            names = "--stoc",
            description = "also run SlotsToCoeffs on the output and report the round trip's precision")
    boolean stoc;

    @Mixin
    DiagonalStorageOptions diagonalStorage;

    @Mixin
    KeyStorageOptions keyStorageOptions;

    @Option(
            names = "--runs",
            defaultValue = "1",
            description = "warm evaluations after the first; the median is reported (default ${DEFAULT-VALUE})")
    int runs;

    @Option(
            names = "--seed",
            defaultValue = "1",
            description = "seed of the random coefficients (default ${DEFAULT-VALUE})")
    long seed;

    @Option(
            names = "--sweep",
            description =
                    "table over depths 1 … logSlots and the four algorithms: keys, key bytes, multiplications, time, precision")
    boolean sweep;

    @Option(
            names = "--sweep-max-mb",
            defaultValue = "6000",
            description =
                    "with --sweep: run only points whose keys and diagonals fit in this many MB (others are counted, not run) (default ${DEFAULT-VALUE})")
    long sweepMaxMb;

    @Option(
            names = "--sweep-run-depths",
            description = "with --sweep: run only these depths, as LO..HI (others are counted, not run) (default: all)")
    String sweepRunDepths;

    @Option(
            names = "--plot",
            description =
                    "with --sweep: write keys against depth to FILE.svg|png and time against depth to FILE-time.svg|png")
    Path plot;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        CtosSetup s = setup();
        if (sweep) {
            if (sweepMaxMb < 1 || sweepMaxMb > 10_000_000)
                throw new IllegalArgumentException("--sweep-max-mb must be in [1, 10000000], got " + sweepMaxMb);
            int[] runDepths = runDepths(s.logSlots());
            for (String o : new String[] {"--stoc", "--algo", "--depth"})
                if (CliSupport.given(spec, o))
                    throw new IllegalArgumentException(
                            o + " does not combine with --sweep (the sweep runs every algorithm and depth)");
            Plots.requireTarget(plot); // before the sweep, not after it
            CtosSweep.Report r = CtosSweep.run(s, sweepMaxMb * 1_000_000L, runDepths[0], runDepths[1], engine.json);
            if (plot != null) {
                CtosSweepRender.plot(r, plot);
                r = CtosSweepRender.withPlots(r, plot);
            }
            if (engine.json) System.out.println(Json.write(r));
            else CtosSweepRender.print(r);
            return 0;
        }
        if (plot != null) throw new IllegalArgumentException("--plot goes with --sweep");
        CliSupport.requireCompanion(spec, "--sweep-max-mb", false, "--sweep");
        CliSupport.requireCompanion(spec, "--sweep-run-depths", false, "--sweep");
        CtosRun.Report r = CtosRun.run(s, s.depth(), engine.json);
        if (engine.json) System.out.println(Json.write(r));
        else CtosRun.print(r);
        return r.precision().minBits() < LtRun.PRECISION_FLOOR_BITS ? 4 : 0;
    }

    private int[] runDepths(int logSlots) {
        return sweepRunDepths == null
                ? new int[] {1, logSlots}
                : ParamsOptions.parseRange(sweepRunDepths, "--sweep-run-depths", 1, logSlots);
    }

    CtosSetup setup() {
        for (String o : new String[] {"--stoc-depth", "--stoc-level", "--stoc-matrices-per-level"})
            CliSupport.requireCompanion(spec, o, stoc, "--stoc");
        CliSupport.requireCompanion(spec, "--key-budget", "budget".equalsIgnoreCase(objective), "--objective budget");
        int keyBudget = this.keyBudget == null ? 0 : this.keyBudget;
        Integer dftLogSlots = paramsOptions.logSlots; // here the DFT size; the ciphertext's slot count follows from it
        paramsOptions.logSlots = null;
        int logN = paramsOptions.build("boot14").logN();
        int s = dftLogSlots != null ? dftLogSlots : logN - 1;
        if (s < 1 || s > logN - 1)
            throw new IllegalArgumentException("--logSlots must be in [1, logN − 1 = " + (logN - 1) + "], got " + s);
        paramsOptions.logSlots = s == logN - 1 ? s : s + 1; // sparse packing carries [Re | Im] in 2^(s+1) slots
        CkksParameters params = paramsOptions.build("boot14");
        if (perLevel != null && sweep)
            throw new IllegalArgumentException(
                    "--matrices-per-level does not combine with --sweep (the sweep puts one matrix per level)");
        int shared = perLevel == null ? 0 : sumPositive("--matrices-per-level", perLevel);
        if (perLevel != null && depth != null && depth != shared)
            throw new IllegalArgumentException(
                    "--depth " + depth + " differs from the sum " + shared + " of --matrices-per-level");
        int d = perLevel != null ? shared : depth != null ? depth : Math.min(4, s);
        if (d < 1 || d > s)
            throw new IllegalArgumentException("--depth must be in [1, logSlots = " + s + "], got " + d);
        int levelsUsed = perLevel != null ? perLevel.length : d;
        int top = level != null ? level : params.maxLevel();
        if (top < 1 || top > params.maxLevel())
            throw new IllegalArgumentException("--level must be in [1, " + params.maxLevel() + "], got " + top);
        if (!sweep && top - levelsUsed < 0)
            throw new IllegalArgumentException("depth " + d + " from level " + top + " needs " + levelsUsed
                    + " levels above 0; the parameters have " + top);
        Integer sd = null;
        int stop = 0;
        if (stoc) {
            int stocShared = stocPerLevel == null ? 0 : sumPositive("--stoc-matrices-per-level", stocPerLevel);
            if (stocPerLevel != null && stocDepth != null && stocDepth != stocShared) {
                throw new IllegalArgumentException("--stoc-depth " + stocDepth + " differs from the sum " + stocShared
                        + " of --stoc-matrices-per-level");
            }
            sd = stocPerLevel != null ? stocShared : stocDepth != null ? stocDepth : Math.min(3, s);
            if (sd < 1 || sd > s)
                throw new IllegalArgumentException("--stoc-depth must be in [1, logSlots = " + s + "], got " + sd);
            int stocLevels = stocPerLevel != null ? stocPerLevel.length : sd;
            stop = stocLevel != null ? stocLevel : "boot16".equals(params.name()) ? 12 : stocLevels;
            if (stop - stocLevels < 0 || stop > params.maxLevel())
                throw new IllegalArgumentException("SlotsToCoeffs of depth " + sd + " cannot start at level " + stop);
            if (!sweep && stop > top - levelsUsed)
                throw new IllegalArgumentException("SlotsToCoeffs starts at level " + stop
                        + ", above the CoeffsToSlots output level " + (top - levelsUsed));
        }
        Algorithm a = algo.equalsIgnoreCase("any") ? null : Algorithm.parse(algo);
        String on = objective.toLowerCase(Locale.ROOT);
        Objective o = Parsers.dftObjective(objective, keyBudget, joint);
        if (on.equals("lattigo") && CliSupport.given(spec, "--algo") && a != Algorithm.DH_BSGS)
            throw new IllegalArgumentException(
                    "--objective lattigo is Lattigo's DH-BSGS rule; it takes no --algo " + algo);
        if (on.equals("lattigo")) a = Algorithm.DH_BSGS;
        if (runs < 0 || runs > 100) throw new IllegalArgumentException("--runs must be in [0, 100]");
        return new CtosSetup(
                params,
                engine.backend,
                s,
                d,
                top,
                sd,
                stop,
                a,
                on,
                o,
                keyBudget,
                joint,
                diagonalStorage.storage(),
                runs,
                seed,
                perLevel == null ? null : perLevel.clone(),
                stocPerLevel == null ? null : stocPerLevel.clone(),
                engine.threads(),
                keyStorageOptions.storage());
    }

    private static int sumPositive(String option, int[] counts) {
        int sum = 0;
        for (int k : counts) {
            if (k < 1 || k > 64)
                throw new IllegalArgumentException(option + " wants counts in [1, 64], got " + Arrays.toString(counts));
            sum += k;
        }
        return sum;
    }
}
