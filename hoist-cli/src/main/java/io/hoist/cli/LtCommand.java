package io.hoist.cli;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.lt.BlockLinearTransform;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.Schedule;
import io.hoist.lt.schedule.ScheduleCompiler;
import io.hoist.lt.schedule.TrafficLedger;
import it.unimi.dsi.fastutil.ints.IntAVLTreeSet;
import it.unimi.dsi.fastutil.ints.IntSortedSet;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
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
                    "precomputed or compact diagonals (default: precomputed; for block matrices compact when precomputed ones would not fit the heap)")
    String storage;

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

    /** Refuses a dimension the slots cannot hold before anything is built (a power of two is padded to). */
    static void checkDimension(int dim, CkksParameters params) {
        if (dim < 1 || dim > params.slots()) {
            throw new IllegalArgumentException(
                    "--n must be in [1, " + params.slots() + "] (the slot count), got " + dim);
        }
        int padded = Integer.highestOneBit(dim) == dim ? dim : Integer.highestOneBit(dim) << 1;
        if (params.slots() % padded != 0)
            throw new IllegalArgumentException(
                    "--n " + dim + " pads to " + padded + ", which does not divide the " + params.slots() + " slots");
    }

    /** 0 … n−1, the diagonals of a dense matrix. */
    static IntSortedSet allIndices(int n) {
        IntAVLTreeSet s = new IntAVLTreeSet();
        for (int i = 0; i < n; i++) s.add(i);
        return s;
    }

    @Spec
    CommandSpec spec;

    /** Most warm-up and timed evaluations a run takes. */
    static final int MAX_RUNS = 1000;

    @Override
    public Integer call() {
        CkksParameters params = paramsOptions.build("n13");
        Algorithm a = Algorithm.parse(planOptions.algo);
        CliSupport.bounded("--warmup", warmup, 0, MAX_RUNS);
        CliSupport.bounded("--runs", runs, 1, MAX_RUNS);
        if (blockOptions.given()) return callBlocks(params, a);
        int dim = planOptions.n != null ? planOptions.n : params.slots();
        checkDimension(dim, params);
        if (sparse != null && (sparse < 1 || sparse > dim))
            throw new IllegalArgumentException("--sparse must be in [1, " + dim + "] (the dimension), got " + sparse);
        if ((keys == null) != (secret == null)) throw new IllegalArgumentException("--keys and --secret go together");
        Storage st = ScheduleCommand.parseStorage(storage == null ? "precomputed" : storage);
        boolean phased = phasedRequested();
        // before the test matrix exists: the matrix itself and its encoded diagonals (the plan, and so the keys, need
        // the matrix)
        long matrix = testMatrixBytes(dim, sparse == null ? dim : sparse);
        MemoryCheck.require(
                "this run (the random test matrix and its diagonals, before keys)",
                MemoryCheck.add(matrix, diagonalBytes(params, sparse == null ? dim : sparse, st)),
                st == Storage.PRECOMPUTED ? "use --storage compact or a smaller --n" : "use a smaller --n");
        CkksContext ctx = CkksContext.create(params, engine.backend, engine.threads());
        if (keys != null) LtRun.checkKeyPair(ctx, keys, secret);
        SplittableRandom r = new SplittableRandom(seed);
        LinearTransform t = LtRun.randomTransform(r, dim, sparse == null ? 0 : sparse);
        Objective obj = objective();
        Plan plan = planOptions.split != null
                ? Plan.of(t, a, planOptions.split)
                : Plan.auto(t, params, params.maxLevel(), a, obj, Integer.MAX_VALUE);
        Schedule sched = phased ? phased(plan, params, st) : Schedule.direct();
        MemoryCheck.require(
                "this run (keys, diagonals, buffers and the test matrix)",
                MemoryCheck.add(LtRun.memoryEstimate(params, plan, st), matrix),
                st == Storage.PRECOMPUTED ? "use --storage compact or a smaller --n" : "use a smaller --n");
        LtRun run = new LtRun(params, plan, st, sched);
        run.warmup = warmup;
        run.quiet = engine.json;
        run.runs = runs;
        run.keyStore = keys;
        run.secretFile = secret;
        run.run(ctx, t, r, compareDirect);
        if (engine.json) {
            System.out.println(toJson(run, t).toString());
        } else {
            print(run, t);
        }
        return run.status();
    }

    /** Bytes of the random test matrix: {@code diagonals} complex vectors of {@code dim} doubles pairs. */
    static long testMatrixBytes(int dim, int diagonals) {
        return MemoryCheck.mul(16L, LinearTransform.paddedDimension(dim), diagonals);
    }

    /** Bytes of {@code count} encoded diagonals at the top level: D limbs each precomputed, one word per coefficient compact. */
    static long diagonalBytes(CkksParameters params, long count, Storage st) {
        long limbs = st == Storage.COMPACT
                ? 1
                : LimbLayout.of(params, params.maxLevel()).d();
        return MemoryCheck.mul(count, limbs, 8L, params.n());
    }

    private Objective objective() {
        return parseObjective(objective);
    }

    public static Objective parseObjective(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "fewest-keys" -> Objective.FEWEST_KEYS;
            case "fewest-mults" -> Objective.FEWEST_MULTS;
            default -> throw new IllegalArgumentException("--objective must be fewest-keys or fewest-mults");
        };
    }

    /** The plan of a dense block product with blocks of b: the split given, or the best one for {@code obj}. */
    public static Plan blockPlan(CkksParameters params, int b, Algorithm a, int[] split, Objective obj) {
        if (a == Algorithm.BSGS)
            throw new IllegalArgumentException(
                    "block matrices need a hoisted algorithm (diagonal, dh-bsgs, th-bsgs), not bsgs");
        return split != null
                ? Plan.dense(b, a, split)
                : Plan.autoForIndices(b, allIndices(b), params, params.maxLevel(), a, obj, Integer.MAX_VALUE);
    }

    /** {@code --rows/--cols}: a random dense block matrix, on the direct or the six-phase schedule. */
    private Integer callBlocks(CkksParameters params, Algorithm a) {
        int m = blockOptions.rows(), n = blockOptions.cols();
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
        Plan plan =
                blockPlan(params, b, a, planOptions.split, objective()); // needs b only, so it comes before the matrix
        long diagonals = MemoryCheck.mul(blocks, plan.indices().size());
        Storage st = storage != null
                ? ScheduleCommand.parseStorage(storage)
                : diagonalBytes(params, diagonals, Storage.PRECOMPUTED) <= MemoryCheck.heap() / 2
                        ? Storage.PRECOMPUTED
                        : Storage.COMPACT;
        long ciphertext = MemoryCheck.mul(2L * (level + 1), 8L, params.n());
        long vectors = MemoryCheck.mul(32L, (long) m + n); // x, M·x and the decrypted output, complex doubles
        long need = MemoryCheck.add(
                plan.cost(params, level, st).keyBytes(),
                diagonalBytes(params, diagonals, st),
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

    static Json.Obj toJson(LtRun run, LinearTransform t) {
        Map<String, Object> precision = LtRun.precisionJson(run.precision);
        Map<String, Object> millis = LtRun.millisJson(
                run.keygenMillis, run.encodeMillis, run.evaluateMillis, run.firstEvaluateMillis, run.evaluateMillisAll);
        if (run.directMillisAll != null) {
            millis.put("directEvaluate", run.directMillis);
            millis.put("directEvaluateRuns", run.directMillisAll);
        }
        Map<String, Object> memory = new LinkedHashMap<>();
        memory.put("keys", run.keyBytes);
        memory.put("keysSeeded", run.seededKeyBytes);
        memory.put("diagonals", run.diagonalBytes);
        memory.put("pooled", run.pooledBytes);
        memory.put("peakWorkingSet", run.measuredTraffic == null ? null : run.measuredTraffic.peakResidentBytes());
        memory.put("allocatedPerEvaluate", run.allocatedWarm);
        memory.put("allocatedFirstEvaluate", run.allocatedFirst);
        Json.Obj o = Json.obj()
                .put("algo", run.plan.algorithm().cliName())
                .put("preset", run.params.name())
                .put("logN", run.params.logN())
                .put("n", t.dimension())
                .put("diagonals", t.diagonalCount())
                .put("split", run.plan.split())
                .put("storage", run.storage.name().toLowerCase(Locale.ROOT))
                .put("backend", run.backend)
                .put("threads", run.threads)
                .put("secure", run.params.secure())
                .put("rotationKeys", run.rotationKeys)
                .put("keyBytes", run.keyBytes)
                .put("counts", run.measuredJson())
                .put("expected", LtRun.expectedJson(run.expected))
                .put("countsMatch", run.countsMatch())
                .put("modMulsModel", run.expected.modMuls())
                .put("precision", precision)
                .put("millis", millis)
                .put("memoryBytes", memory)
                .put("schedule", run.schedule instanceof Schedule.Phased ? "phased" : "direct");
        if (t.originalDimension() != t.dimension())
            o.put("paddedFrom", t.originalDimension()); // --n 100 runs a 128×128 matrix: say so
        putPhased(o, run.schedule, run.grouping, run.measuredTraffic, run.expectedTraffic, run.bitIdenticalToDirect);
        if (run.keysLoaded >= 0)
            o.put("keyStore", Json.obj().put("keysInStore", run.keysInStore).put("keysLoaded", run.keysLoaded));
        return o;
    }

    /** The phased schedule's part of a JSON report (budget, grouping, traffic measured and expected), and the comparison with direct. */
    static void putPhased(
            Json.Obj o,
            Schedule schedule,
            Grouping g,
            TrafficLedger measured,
            TrafficLedger expected,
            Boolean bitIdenticalToDirect) {
        if (schedule instanceof Schedule.Phased ph) {
            o.put("onchipBudgetBytes", ph.budgetBytes());
            o.put("grouping", g == null ? null : g.asMap());
            Map<String, Object> traffic = new LinkedHashMap<>();
            traffic.put("measured", LtRun.trafficJson(measured));
            traffic.put("expected", LtRun.trafficJson(expected));
            traffic.put("match", measured.equals(expected));
            o.put("traffic", traffic);
        }
        if (bitIdenticalToDirect != null) o.put("bitIdenticalToDirect", bitIdenticalToDirect);
    }

    /** The phased schedule's part of a table report; {@code note} follows the working set (e.g. "(one block's)"). */
    static void printPhased(
            Grouping g,
            TrafficLedger measured,
            boolean matches,
            String note,
            Boolean bitIdenticalToDirect,
            double phasedMillis,
            double directMillis) {
        if (measured != null) {
            System.out.printf(
                    Locale.ROOT,
                    "  phased schedule, grouping %s: working set %.1f MB%s, off-chip %s%n",
                    g,
                    measured.peakResidentBytes() / 1e6,
                    note,
                    ScheduleCommand.gib(measured.offchipBytes()));
            for (TrafficLedger.PhaseTraffic p : measured.phases()) {
                System.out.printf(
                        Locale.ROOT,
                        "    phase %d (%s): read %s, written %s, %d iterations, working set %.1f MB%n",
                        p.phase(),
                        p.lines(),
                        ScheduleCommand.gib(p.read()),
                        ScheduleCommand.gib(p.write()),
                        p.iterations(),
                        p.peakResidentBytes() / 1e6);
            }
            System.out.println(
                    matches
                            ? "  measured traffic equals the expected ledger (closed forms; a walk without data for sparse plans or blocks)"
                            : "  TRAFFIC DIFFERS FROM THE EXPECTED LEDGER (a bug)");
        }
        if (bitIdenticalToDirect != null) {
            System.out.println(
                    bitIdenticalToDirect
                            ? "  bit-identical to the direct executor"
                            : "  DIFFERS FROM THE DIRECT EXECUTOR (a bug)");
            System.out.printf(
                    Locale.ROOT,
                    "  side by side (alternating, medians): phased %.0f ms, direct %.0f ms%n",
                    phasedMillis,
                    directMillis);
        }
    }

    static void print(LtRun run, LinearTransform t) {
        System.out.println("lt: " + ParamsOptions.describe(run.params));
        System.out.printf(
                Locale.ROOT,
                "  %s on a %d×%d matrix%s (%d nonzero diagonals), %s diagonals, backend %s, %d thread(s)%n",
                run.plan.describe(),
                t.dimension(),
                t.dimension(),
                t.originalDimension() != t.dimension()
                        ? " (padded from " + t.originalDimension() + "×" + t.originalDimension() + ")"
                        : "",
                t.diagonalCount(),
                run.storage.name().toLowerCase(Locale.ROOT),
                run.backend,
                run.threads);
        System.out.printf(
                Locale.ROOT,
                "  precision: %.2f bits worst slot, %.2f bits average (L2 error against M·x)%n",
                run.precision.minBits(),
                run.precision.avgBits());
        System.out.printf(
                Locale.ROOT,
                "  rotation keys: %d, %.1f MB (%.1f MB stored as seeds + b parts)%n",
                run.rotationKeys,
                run.keyBytes / 1e6,
                run.seededKeyBytes / 1e6);
        System.out.printf(Locale.ROOT, "  diagonals in memory: %.1f MB%n", run.diagonalBytes / 1e6);
        System.out.println("  counts         measured   closed form");
        var m = run.measuredJson();
        var e = LtRun.expectedJson(run.expected);
        for (String k : m.keySet())
            System.out.printf(Locale.ROOT, "    %-22s %8d   %8d%n", k, (Long) m.get(k), (Long) e.get(k));
        System.out.printf(Locale.ROOT, "  modular multiplications (§6.2 model): %.4e%n", run.expected.modMuls());
        System.out.printf(
                Locale.ROOT,
                "  time: keygen %.0f ms, encode %.0f ms, evaluate %.0f ms (first evaluation, with JIT warm-up: %.0f ms)%n",
                run.keygenMillis,
                run.encodeMillis,
                run.evaluateMillis,
                run.firstEvaluateMillis);
        System.out.println(
                run.countsMatch()
                        ? "  counts match the closed forms"
                        : "  COUNTS DIFFER FROM THE CLOSED FORMS (a bug)");
        if (run.precision.minBits() < LtRun.PRECISION_FLOOR_BITS) {
            System.out.printf(
                    Locale.ROOT,
                    "  PRECISION BELOW THE SANITY FLOOR (%.1f bits < %.0f): the result is noise; check the scale%n",
                    run.precision.minBits(),
                    LtRun.PRECISION_FLOOR_BITS);
        }
        if (run.allocatedWarm >= 0) {
            System.out.printf(
                    Locale.ROOT,
                    "  memory: %.1f MB allocated by the first evaluation, %.1f MB by a warm one; pool holds %.1f MB%n",
                    run.allocatedFirst / 1e6,
                    run.allocatedWarm / 1e6,
                    run.pooledBytes / 1e6);
        }
        printPhased(
                run.grouping,
                run.measuredTraffic,
                run.trafficMatches(),
                "",
                run.bitIdenticalToDirect,
                run.evaluateMillis,
                run.directMillis);
    }
}
