package io.hoist.cli;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.lt.Algorithm;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.Objective;
import io.hoist.lt.Plan;
import io.hoist.lt.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/** {@code hoist lt}: one encrypted matrix–vector product with a chosen algorithm, split and storage. */
@Command(name = "lt", mixinStandardHelpOptions = true,
        description = "Evaluate a random n×n matrix on an encrypted vector with diagonal, bsgs, dh-bsgs or th-bsgs; report keys, counts (measured and closed-form), precision and time.")
public final class LtCommand implements Callable<Integer> {
    @Mixin
    ParamsOptions paramsOptions;

    @Option(names = "--algo", defaultValue = "th-bsgs", description = "diagonal, bsgs, dh-bsgs or th-bsgs (default ${DEFAULT-VALUE})")
    String algo;

    @Option(names = "--n", description = "matrix dimension (default: the slot count)")
    Integer n;

    @Option(names = "--split", split = ",", description = "split factors, e.g. 16,16,16 (default: the fewest-keys split)")
    int[] split;

    @Option(names = "--objective", defaultValue = "fewest-keys", description = "split chosen automatically: fewest-keys or fewest-mults (default ${DEFAULT-VALUE})")
    String objective;

    @Option(names = "--sparse", description = "use K random nonzero diagonals instead of a dense matrix")
    Integer sparse;

    @Option(names = "--storage", defaultValue = "precomputed", description = "precomputed or compact diagonals (default ${DEFAULT-VALUE})")
    String storage;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the random matrix and vector (test data only)")
    long seed;

    @Mixin
    EngineOptions engine;

    @Override
    public Integer call() {
        CkksParameters params = paramsOptions.build("n13");
        Algorithm a = Algorithm.parse(algo);
        int dim = n != null ? n : params.slots();
        Storage st = Storage.valueOf(storage.toUpperCase(Locale.ROOT));
        SplittableRandom r = new SplittableRandom(seed);
        LinearTransform t = LtRun.randomTransform(r, dim, sparse == null ? 0 : sparse);
        Objective obj = switch (objective.toLowerCase(Locale.ROOT)) {
            case "fewest-keys" -> Objective.FEWEST_KEYS;
            case "fewest-mults" -> Objective.FEWEST_MULTS;
            default -> throw new IllegalArgumentException("--objective must be fewest-keys or fewest-mults");
        };
        Plan plan = split != null ? Plan.of(t, a, split) : Plan.auto(t, params, params.maxLevel(), a, obj, Integer.MAX_VALUE);
        CkksContext ctx = CkksContext.create(params, engine.backend);
        LtRun run = new LtRun(params, plan, st);
        run.run(ctx, t, r);
        if (engine.json) {
            System.out.println(toJson(run, t).toString());
        } else {
            print(run, t);
        }
        return run.countsMatch() ? 0 : 3;
    }

    static Json.Obj toJson(LtRun run, LinearTransform t) {
        Map<String, Object> precision = new LinkedHashMap<>();
        precision.put("minBits", run.precision.minBits());
        precision.put("avgBits", run.precision.avgBits());
        Map<String, Object> millis = new LinkedHashMap<>();
        millis.put("keygen", run.keygenMillis);
        millis.put("encode", run.encodeMillis);
        millis.put("evaluate", run.evaluateMillis);
        millis.put("firstEvaluate", run.firstEvaluateMillis);
        Map<String, Object> memory = new LinkedHashMap<>();
        memory.put("keys", run.keyBytes);
        memory.put("keysSeeded", run.seededKeyBytes);
        memory.put("diagonals", run.diagonalBytes);
        return Json.obj()
                .put("algo", run.plan.algorithm().cliName())
                .put("preset", run.params.name())
                .put("logN", run.params.logN())
                .put("n", t.dimension())
                .put("diagonals", t.diagonalCount())
                .put("split", run.plan.split())
                .put("storage", run.storage.name().toLowerCase(Locale.ROOT))
                .put("backend", run.backend)
                .put("secure", run.params.secure())
                .put("rotationKeys", run.rotationKeys)
                .put("keyBytes", run.keyBytes)
                .put("counts", run.measuredJson())
                .put("expected", LtRun.expectedJson(run.expected))
                .put("countsMatch", run.countsMatch())
                .put("modMulsModel", run.expected.modMuls())
                .put("precision", precision)
                .put("millis", millis)
                .put("memoryBytes", memory);
    }

    static void print(LtRun run, LinearTransform t) {
        System.out.println("lt: " + ParamsOptions.describe(run.params));
        System.out.printf(Locale.ROOT, "  %s on a %d×%d matrix (%d nonzero diagonals), %s diagonals, backend %s%n",
                run.plan.describe(), t.dimension(), t.dimension(), t.diagonalCount(), run.storage.name().toLowerCase(Locale.ROOT), run.backend);
        System.out.printf(Locale.ROOT, "  precision: %.2f bits worst slot, %.2f bits average (L2 error against M·x)%n",
                run.precision.minBits(), run.precision.avgBits());
        System.out.printf(Locale.ROOT, "  rotation keys: %d, %.1f MB (%.1f MB stored as seeds + b parts)%n",
                run.rotationKeys, run.keyBytes / 1e6, run.seededKeyBytes / 1e6);
        System.out.printf(Locale.ROOT, "  diagonals in memory: %.1f MB%n", run.diagonalBytes / 1e6);
        System.out.println("  counts         measured   closed form");
        var m = run.measuredJson();
        var e = LtRun.expectedJson(run.expected);
        for (String k : m.keySet()) System.out.printf(Locale.ROOT, "    %-22s %8d   %8d%n", k, (Long) m.get(k), (Long) e.get(k));
        System.out.printf(Locale.ROOT, "  modular multiplications (§6.2 model): %.4e%n", run.expected.modMuls());
        System.out.printf(Locale.ROOT, "  time: keygen %.0f ms, encode %.0f ms, evaluate %.0f ms (first evaluation, with JIT warm-up: %.0f ms)%n",
                run.keygenMillis, run.encodeMillis, run.evaluateMillis, run.firstEvaluateMillis);
        System.out.println(run.countsMatch() ? "  counts match the closed forms" : "  COUNTS DIFFER FROM THE CLOSED FORMS (a bug)");
    }
}
