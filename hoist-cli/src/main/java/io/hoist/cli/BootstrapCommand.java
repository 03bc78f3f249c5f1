package io.hoist.cli;

import io.hoist.bootstrap.BootstrapParameters;
import io.hoist.bootstrap.BootstrapPlan;
import io.hoist.bootstrap.EvalModParameters;
import io.hoist.ckks.KeyStorage;
import io.hoist.cli.options.CliSupport;
import io.hoist.cli.options.DiagonalStorageOptions;
import io.hoist.cli.options.EngineOptions;
import io.hoist.cli.options.KeyStorageOptions;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.options.Parsers;
import io.hoist.cli.report.BootstrapRender;
import io.hoist.cli.report.Json;
import io.hoist.cli.report.Plots;
import io.hoist.cli.run.BootstrapRun;
import io.hoist.cli.run.BootstrapSweep;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Storage;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hoist bootstrap}: full CKKS bootstrapping of a random message at level 0 — ScaleDown,
 * ModRaise (with the sparse-secret encapsulation), CoeffsToSlots, EvalMod, SlotsToCoeffs — with any
 * algorithm per DFT and one joint key set; precision, keys, levels, stage times, memory.
 */
@Command(
        name = "bootstrap",
        mixinStandardHelpOptions = true,
        description =
                "Full CKKS bootstrapping (ModRaise, CoeffsToSlots, EvalMod, SlotsToCoeffs) with TH-BSGS or any algorithm per DFT; "
                        + "keys, levels, precision, stage times; --sweep tabulates CtS depths × algorithms.")
public final class BootstrapCommand implements Callable<Integer> {
    @Mixin
    EngineOptions engine;

    @Option(
            names = "--preset",
            defaultValue = "boot14",
            description =
                    "boot16 (Lattigo's N16QP1546H192H32), boot15 (secure, N = 2^15) or boot14 (quick, NOT secure) (default ${DEFAULT-VALUE})")
    String preset;

    @Option(names = "--logN", description = "run the preset's chain on a smaller ring (insecure, labelled so)")
    Integer logN;

    @Option(names = "--logSlots", description = "message slots 2^S (default logN − 1; fewer is sparse packing)")
    Integer logSlots;

    @Option(names = "--ctos-depth", description = "CoeffsToSlots levels (default: the preset's)")
    Integer ctosDepth;

    @Option(names = "--stoc-depth", description = "SlotsToCoeffs levels (default: the preset's)")
    Integer stocDepth;

    @Option(names = "--algo", description = "diagonal, bsgs, dh-bsgs, th-bsgs or any, for both DFTs (default th-bsgs)")
    String algo;

    @Option(names = "--ctos-algo", description = "the CoeffsToSlots algorithm (with --stoc-algo)")
    String ctosAlgo;

    @Option(names = "--stoc-algo", description = "the SlotsToCoeffs algorithm (with --ctos-algo)")
    String stocAlgo;

    @Option(
            names = "--objective",
            defaultValue = "fewest-keys",
            description =
                    "fewest-keys, fewest-mults, budget (with --key-budget) or lattigo (DH-BSGS, Lattigo's ratio rule) (default ${DEFAULT-VALUE})")
    String objective;

    @Option(
            names = "--key-budget",
            description =
                    "with --objective budget: most Galois keys per matrix, or in each joint plan's union with --joint (the report gives the real total)")
    Integer keyBudget;

    @Option(names = "--joint", description = "plan both DFTs' matrices together so that they share one key set")
    boolean joint;

    @Option(
            names = "--no-encapsulation",
            description = "ModRaise under the main secret: K doubles (and the degree to 2K − 2) unless --K is given")
    boolean noEncapsulation;

    @Option(names = "--K", description = "EvalMod interval bound K (default: the preset's)")
    Integer k;

    @Option(names = "--degree", description = "EvalMod cosine degree, at least 2K − 2 (default: the preset's)")
    Integer degree;

    @Option(names = "--double-angle", description = "EvalMod double-angle steps (default: the preset's)")
    Integer doubleAngle;

    @Option(names = "--arcsine", description = "EvalMod arcsine degree, 0 or odd (default: the preset's)")
    Integer arcsine;

    @Mixin
    DiagonalStorageOptions diagonalStorage;

    @Mixin
    KeyStorageOptions keyStorageOptions;

    @Option(
            names = "--runs",
            defaultValue = "1",
            description = "bootstraps timed; medians reported (default ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the random message (default ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--sweep", description = "CtS depths × the four algorithms: keys, key GB, time, precision")
    boolean sweep;

    @Option(
            names = "--sweep-depths",
            defaultValue = "2..5",
            description = "with --sweep: CtS depths LO..HI (default ${DEFAULT-VALUE})")
    String sweepDepths;

    @Option(names = "--sweep-count-only", description = "with --sweep: plan and count keys only, run nothing")
    boolean countOnly;

    @Option(names = "--plot", description = "with --sweep: keys and precision against depth to FILE.svg|png")
    Path plot;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (runs < 1 || runs > 1000) throw new IllegalArgumentException("--runs must be in [1, 1000], got " + runs);
        CliSupport.requireCompanion(spec, "--key-budget", "budget".equalsIgnoreCase(objective), "--objective budget");
        for (String o : new String[] {"--sweep-depths", "--sweep-count-only", "--plot"})
            CliSupport.requireCompanion(spec, o, sweep, "--sweep");
        if ((ctosAlgo == null) != (stocAlgo == null))
            throw new IllegalArgumentException("--ctos-algo and --stoc-algo go together");
        if (algo != null && ctosAlgo != null)
            throw new IllegalArgumentException("--algo or --ctos-algo/--stoc-algo, not both");
        if (objective.equalsIgnoreCase("lattigo") && (algo != null || ctosAlgo != null || sweep))
            throw new IllegalArgumentException(
                    "--objective lattigo is Lattigo's DH-BSGS rule on every matrix; it takes no --algo and no --sweep");
        if (sweep)
            for (String o : new String[] {"--runs", "--ctos-depth", "--algo", "--ctos-algo", "--stoc-algo"})
                if (CliSupport.given(spec, o))
                    throw new IllegalArgumentException(
                            o + " does not combine with --sweep (the sweep sets it per point)");
        if (sweep && keyStorageOptions.storage() != KeyStorage.FULL)
            throw new IllegalArgumentException(
                    "--key-storage seeded does not combine with --sweep (its points hold full keys)");
        BootstrapParameters bp = parameters();
        Storage st = diagonalStorage.storage();
        if (sweep) {
            // the default range ends at the slots' depth when there are fewer than 2^5 slots; a given one is checked
            String depths = CliSupport.given(spec, "--sweep-depths")
                    ? sweepDepths
                    : "2.." + Math.max(2, Math.min(5, bp.logSlots()));
            int[] d = ParamsOptions.parseRange(depths, "--sweep-depths", 1, bp.logSlots());
            Plots.requireTarget(plot); // before the sweep, not after it
            BootstrapSweep.Report r = BootstrapSweep.run(
                    bp,
                    d[0],
                    d[1],
                    this::plan,
                    engine.backend(),
                    engine.threads(),
                    st,
                    seed,
                    !countOnly,
                    engine.json());
            if (plot != null) BootstrapRender.plot(r, plot);
            if (engine.json()) System.out.println(Json.write(r));
            else BootstrapRender.print(r);
            return r.points().stream().allMatch(p -> p.error() != null) ? 1 : 0; // every point failed: not a success
        }
        BootstrapRun.Report r = BootstrapRun.run(
                bp,
                plan(bp),
                engine.backend(),
                engine.threads(),
                st,
                keyStorageOptions.storage(),
                runs,
                seed,
                engine.json());
        if (engine.json()) System.out.println(Json.write(r));
        else BootstrapRender.print(r);
        return 0;
    }

    BootstrapParameters parameters() {
        BootstrapParameters bp = BootstrapParameters.preset(preset);
        if (logN != null) bp = bp.withLogN(logN);
        EvalModParameters em = bp.evalMod();
        int kk = k != null ? k : em.k();
        if (noEncapsulation && k == null)
            kk = 2 * em.k(); // without the sparse secret |I| grows with √h: twice K (degree 4K − 2)
        int deg = degree != null ? degree : Math.min(Math.max(em.degree(), 2 * kk - 2), 4 * kk - 2);
        int da = doubleAngle != null ? doubleAngle : em.doubleAngle();
        EvalModParameters em2 = new EvalModParameters(
                kk, deg, da, em.logMessageRatio(), arcsine != null ? arcsine : em.arcsineDegree(), em.logScale());
        if (!em2.equals(em)) bp = bp.withEvalMod(em2, logN != null);
        if (noEncapsulation) bp = bp.withEphemeralWeight(0);
        if (logSlots != null) bp = bp.withLogSlots(logSlots);
        if (ctosDepth != null || stocDepth != null)
            bp = bp.withDepths(
                    ctosDepth != null ? ctosDepth : bp.ctsDepth(),
                    stocDepth != null ? stocDepth : bp.stcDepth(),
                    logN != null);
        return bp;
    }

    BootstrapPlan plan(BootstrapParameters bp) {
        return plan(bp, algorithm(ctosAlgo != null ? ctosAlgo : algo), algorithm(stocAlgo != null ? stocAlgo : algo));
    }

    /** Plans a sweep point with {@code a} on both DFTs and this command's objective and --joint. */
    BootstrapPlan plan(BootstrapParameters bp, Algorithm a) {
        return plan(bp, a, a);
    }

    private BootstrapPlan plan(BootstrapParameters bp, Algorithm cts, Algorithm stc) {
        int budget = keyBudget == null ? 0 : keyBudget;
        Objective o = Parsers.dftObjective(objective, budget, joint);
        if (objective.equalsIgnoreCase("lattigo")) return BootstrapPlan.lattigo(bp);
        return BootstrapPlan.of(bp, cts, stc, o, joint, budget);
    }

    private static Algorithm algorithm(String s) {
        if (s == null) return Algorithm.TH_BSGS;
        if (s.toLowerCase(Locale.ROOT).equals("any")) return null;
        return Algorithm.parse(s);
    }
}
