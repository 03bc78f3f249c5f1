package io.hoist.cli;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.KeyStorage;
import io.hoist.cli.options.BlockOptions;
import io.hoist.cli.options.CliSupport;
import io.hoist.cli.options.EngineOptions;
import io.hoist.cli.options.KeyStorageOptions;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.options.Parsers;
import io.hoist.cli.options.PlanOptions;
import io.hoist.cli.report.BlockRender;
import io.hoist.cli.report.LtReport;
import io.hoist.cli.run.BlockRun;
import io.hoist.cli.run.LtRun;
import io.hoist.cli.run.LtSizes;
import io.hoist.cli.run.MemoryCheck;
import io.hoist.lt.BlockLinearTransform;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import io.hoist.lt.schedule.ScheduleCompiler;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hoist lt}: one encrypted matrix–vector product with a chosen algorithm, split and storage. */
@Command(
        name = "lt",
        mixinStandardHelpOptions = true,
        description =
                "Evaluate a random n×n matrix on an encrypted vector with diagonal, bsgs, dh-bsgs or th-bsgs; report keys, counts (measured and closed-form), precision and time.")
public final class LtCommand implements Callable<Integer> {
    @Mixin
    ParamsOptions paramsOptions;

    @Mixin
    PlanOptions planOptions;

    @Option(
            names = "--objective",
            defaultValue = "fewest-keys",
            description = "split chosen automatically: fewest-keys or fewest-mults (default ${DEFAULT-VALUE})")
    String objective;

    @Option(names = "--sparse", description = "use K random nonzero diagonals instead of a dense matrix")
    Integer sparse;

    @Option(
            names = "--storage",
            description =
                    "precomputed or compact diagonals (default: precomputed; for block matrices compact when precomputed ones would not fit the heap). Compact diagonals of a matrix smaller than the slots expand at the matrix's size, about as fast as precomputed ones")
    String storage;

    @Mixin
    KeyStorageOptions keyStorageOptions;

    @Mixin
    BlockOptions blockOptions;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the random matrix and vector (test data only)")
    long seed;

    @Option(
            names = "--schedule",
            defaultValue = "direct",
            description =
                    "direct (step by step, whole polynomials) or phased (the six-phase memory-aware schedule) (default ${DEFAULT-VALUE})")
    String scheduleName;

    @Option(
            names = "--onchip-mb",
            description =
                    "phased: working-set budget in MB of 10^6 bytes (default: 64, or the smallest feasible working set if larger)")
    Double onchipMb;

    @Option(
            names = "--warmup",
            defaultValue = "0",
            description = "untimed evaluations after the first one (default ${DEFAULT-VALUE})")
    int warmup;

    @Option(
            names = "--runs",
            defaultValue = "1",
            description = "timed warm evaluations; the median is reported (default ${DEFAULT-VALUE})")
    int runs;

    @Option(
            names = "--compare-direct",
            description = "phased: also run the direct executor on the same ciphertext and report bitIdenticalToDirect")
    boolean compareDirect;

    @Option(
            names = "--keys",
            description = "use the rotation keys of this key store (made by hoist keygen) instead of generating them")
    Path keys;

    @Option(names = "--secret", description = "with --keys: the secret-key file made with the store")
    Path secret;

    @Mixin
    EngineOptions engine;

    @Spec
    CommandSpec spec;

    /** Most warm-up and timed evaluations a run takes. */
    @Override
    public Integer call() {
        CkksParameters params = paramsOptions.build("n13");
        Algorithm a = Algorithm.parse(planOptions.algo);
        CliSupport.bounded("--warmup", warmup, 0, LtSizes.MAX_RUNS);
        CliSupport.bounded("--runs", runs, 1, LtSizes.MAX_RUNS);
        CliSupport.requireCompanion(spec, "--block", blockOptions.given(), "--rows or --cols");
        CliSupport.requireCompanion(
                spec, "--objective", planOptions.split == null, "no --split (a given split is not searched)");
        if (keys != null && CliSupport.given(spec, "--objective"))
            throw new IllegalArgumentException(
                    "--keys runs keygen's split for the same --algo (or the --split given, as given to keygen); --objective would"
                            + " search another: drop it");
        if (blockOptions.given()) return callBlocks(params, a);
        int dim = planOptions.n != null ? planOptions.n : params.slots();
        LtSizes.checkDimension(dim, params);
        if (sparse != null && (sparse < 1 || sparse > dim))
            throw new IllegalArgumentException("--sparse must be in [1, " + dim + "] (the dimension), got " + sparse);
        if ((keys == null) != (secret == null)) throw new IllegalArgumentException("--keys and --secret go together");
        Storage st = Parsers.storage(storage == null ? "precomputed" : storage);
        boolean phased = phasedRequested();
        if (phased && keyStorageOptions.storage() != KeyStorage.FULL)
            throw new IllegalArgumentException(
                    "--schedule phased counts both parts of every key in its traffic ledger: use --key-storage full");
        // before the test matrix exists: the matrix itself and its encoded diagonals (the plan, and so the keys, need
        // the matrix)
        long matrix = LtSizes.testMatrixBytes(dim, sparse == null ? dim : sparse);
        MemoryCheck.require(
                "this run (the random test matrix and its diagonals, before keys)",
                MemoryCheck.add(matrix, LtSizes.diagonalBytes(params, sparse == null ? dim : sparse, st, a)),
                st == Storage.PRECOMPUTED ? "use --storage compact or a smaller --n" : "use a smaller --n");
        CkksContext ctx = CkksContext.create(params, engine.backend, engine.threads());
        if (keys != null) LtRun.checkKeyPair(ctx, keys, secret);
        ctx.startKernelWarmup(); // beside the random matrix and the plan search, not only keygen and encoding
        SplittableRandom r = new SplittableRandom(seed);
        LinearTransform t = LtRun.randomTransform(r, dim, sparse == null ? 0 : sparse);
        Objective obj = objective();
        // a store holds the keys of keygen's plan for the padded dimension: its split serves this matrix too (a search
        // over this matrix alone, sparse or by another objective, may pick a split whose keys the store lacks)
        Plan plan = planOptions.split != null
                ? Plan.of(t, a, planOptions.split)
                : keys != null
                        ? Plan.of(t, a, LtSizes.storePlan(params, dim, a, null).split())
                        : Plan.auto(t, params, params.maxLevel(), a, obj, Integer.MAX_VALUE);
        Schedule sched = phased ? phased(plan, params, st) : Schedule.direct();
        MemoryCheck.require(
                "this run (keys, diagonals, buffers and the test matrix)",
                MemoryCheck.add(LtRun.memoryEstimate(params, plan, st, keyStorageOptions.storage()), matrix),
                st == Storage.PRECOMPUTED ? "use --storage compact or a smaller --n" : "use a smaller --n");
        LtRun run = new LtRun(params, plan, st, sched);
        run.warmup = warmup;
        run.quiet = engine.json;
        run.runs = runs;
        run.keyStore = keys;
        run.secretFile = secret;
        run.keyStorage = keyStorageOptions.storage();
        run.run(ctx, t, r, compareDirect);
        if (engine.json) {
            System.out.println(LtReport.toJson(run, t).toString());
        } else {
            LtReport.print(run, t);
        }
        return run.status();
    }

    private Objective objective() {
        return Parsers.objective(objective);
    }

    /** {@code --rows/--cols}: a random dense block matrix, on the direct or the six-phase schedule. */
    private Integer callBlocks(CkksParameters params, Algorithm a) {
        int m = blockOptions.rows(), n = blockOptions.cols();
        if (keyStorageOptions.storage() != KeyStorage.FULL)
            throw new IllegalArgumentException(
                    "--key-storage seeded is not available for --rows/--cols block products");
        if (planOptions.n != null || sparse != null || keys != null || secret != null) {
            throw new IllegalArgumentException(
                    "--rows/--cols (block matrices) run a dense random matrix: drop --n, --sparse, --keys and --secret");
        }
        CliSupport.requireCompanion(
                spec, "--warmup", false, "a single matrix (--n); block products time --runs warm evaluations");
        boolean phased = phasedRequested();
        int b = blockOptions.blockDimension(params);
        long blocks = blockOptions.blockCount(b);
        int level = params.maxLevel();
        Plan plan = LtSizes.blockPlan(
                params, b, a, planOptions.split, objective()); // needs b only, so it comes before the matrix
        long diagonals = MemoryCheck.mul(blocks, plan.indices().size());
        Storage st = storage != null
                ? Parsers.storage(storage)
                : LtSizes.diagonalBytes(params, diagonals, Storage.PRECOMPUTED, a) <= MemoryCheck.heap() / 2
                        ? Storage.PRECOMPUTED
                        : Storage.COMPACT;
        long ciphertext = MemoryCheck.mul(2L * (level + 1), 8L, params.n());
        long vectors = MemoryCheck.mul(32L, (long) m + n); // x, M·x and the decrypted output, complex doubles
        long need = MemoryCheck.add(
                plan.cost(params, level, st).keyBytes(),
                LtSizes.diagonalBytes(params, diagonals, st, a),
                MemoryCheck.mul(ciphertext, Math.ceilDiv((long) m, b) + Math.ceilDiv((long) n, b)),
                vectors);
        MemoryCheck.require(
                String.format(
                        Locale.ROOT,
                        "the keys, %s diagonals and ciphertexts of %d blocks",
                        st.name().toLowerCase(Locale.ROOT),
                        blocks),
                need,
                st == Storage.PRECOMPUTED ? "use --storage compact" : null);
        var matrix = BlockLinearTransform.fromEntries(m, n, b, BlockRun.randomEntries(seed, n), null);
        Schedule sched =
                phased ? phased(plan, params, st) : Schedule.direct(); // one block's working set is the product's
        BlockRun run = new BlockRun(params, matrix, plan, st, seed, sched);
        run.compareDirect = compareDirect;
        run.runs = runs;
        run.quiet = engine.json;
        run.run(CkksContext.create(params, engine.backend, engine.threads()));
        if (engine.json) System.out.println(BlockRender.json(run).toString());
        else BlockRender.print(run);
        return run.status();
    }

    /** Checks --schedule, --onchip-mb and --compare-direct together; whether the phased schedule was asked for. */
    private boolean phasedRequested() {
        String name = scheduleName.toLowerCase(Locale.ROOT);
        if (!name.equals("direct") && !name.equals("phased"))
            throw new IllegalArgumentException("--schedule must be direct or phased, got '" + scheduleName + "'");
        if (onchipMb != null && !(onchipMb > 0)) throw new IllegalArgumentException("--onchip-mb must be positive");
        if (onchipMb != null && !name.equals("phased"))
            throw new IllegalArgumentException("--onchip-mb needs --schedule phased");
        if (compareDirect && !name.equals("phased"))
            throw new IllegalArgumentException("--compare-direct needs --schedule phased");
        return name.equals("phased");
    }

    /** The phased schedule, checked before any key is made: the budget given, or 64 MB raised to the smallest feasible one. */
    private Schedule phased(Plan plan, CkksParameters params, Storage st) {
        if (plan.algorithm() == Algorithm.BSGS)
            throw new IllegalArgumentException(
                    "bsgs runs full rotations and has no phased schedule; use --schedule direct");
        LtProgram prog = LtProgram.compile(plan, LimbLayout.of(params, params.maxLevel()));
        long budget = onchipMb != null
                ? (long) (onchipMb * 1e6)
                : Math.max(64_000_000L, ScheduleCompiler.minimalBudget(prog, st));
        return Schedule.phased(ScheduleCompiler.bestGrouping(prog, st, budget), budget);
    }
}
