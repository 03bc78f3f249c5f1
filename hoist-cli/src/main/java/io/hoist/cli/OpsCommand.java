package io.hoist.cli;

import com.google.common.math.Quantiles;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.Plaintext;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.PublicKey;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.RelinearizationKey;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.cli.options.CliSupport;
import io.hoist.cli.options.EngineOptions;
import io.hoist.cli.options.KeyStorageOptions;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.report.Json;
import io.hoist.cli.run.LtRun;
import io.hoist.cli.run.LtSizes;
import io.hoist.cli.run.MemoryCheck;
import io.hoist.cli.run.RunMillis;
import io.hoist.cli.run.WarmupWait;
import io.hoist.keygen.KeyGenerator;
import io.hoist.ring.Domain;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hoist ops}: runs each scheme operation once for correctness (precision against plaintext
 * arithmetic) and repeatedly for time; prints the median, the precision and the engine's counters.
 */
@Command(
        name = "ops",
        mixinStandardHelpOptions = true,
        description =
                "Time and check the CKKS operations (encode, encrypt, mulRelin, rescale, rotate, hoisted rotations, Decompose, ModDown).")
public final class OpsCommand implements Callable<Integer> {
    @Mixin
    ParamsOptions paramsOptions;

    @Option(
            names = "--runs",
            defaultValue = "5",
            description = "timed repetitions per operation (median reported), default ${DEFAULT-VALUE}")
    int runs;

    @Option(
            names = "--warmup",
            description = "untimed repetitions per operation before timing (default: at least " + MIN_WARMUP_RUNS
                    + ", and as many more as fill " + WARMUP_MILLIS + " ms)")
    Integer warmup;

    /**
     * The default warm-up: a count alone fits one ring degree only. Two untimed runs per operation timed the JIT at the
     * default n14 (rotate 4.4–10.4 ms against 2.8 ms warm, 8 hoisted / 8 plain 0.28–0.56 against 0.64), while at
     * N = 2^16 they already took 0.3–1.8 s (docs/benchmarks.md, forty-sixth session).
     */
    static final int MIN_WARMUP_RUNS = 2;

    static final long WARMUP_MILLIS = 500;

    /**
     * Runs {@code op} untimed: {@code count} times, or with no count at least {@link #MIN_WARMUP_RUNS} times and until
     * {@code millis} have passed. Returns the runs.
     */
    static int warmUp(Integer count, long millis, Runnable op) {
        int runs = 0;
        long end = System.nanoTime() + millis * 1_000_000;
        while (count != null ? runs < count : runs < MIN_WARMUP_RUNS || System.nanoTime() - end < 0) {
            op.run();
            runs++;
        }
        return runs;
    }

    @Mixin
    KeyStorageOptions keyStorageOptions;

    @Mixin
    EngineOptions engine;

    @Spec
    CommandSpec spec;

    private record Result(String name, double micros, Double precisionBits, Map<Op, Long> counts, int warmupRuns) {}

    /**
     * The hoisting figure of issue 22's table: the time of {@code hoisted} (8 rotations sharing one Decompose) over
     * that of 8 plain rotations, each timed as the median of its runs.
     */
    static double hoistedOverPlain(double hoistedMicros, double rotateMicros) {
        return hoistedMicros / (8 * rotateMicros);
    }

    @Override
    public Integer call() {
        CliSupport.bounded("--runs", runs, 1, LtSizes.MAX_RUNS);
        if (warmup != null) CliSupport.bounded("--warmup", warmup, 0, LtSizes.MAX_RUNS);
        CkksParameters params = paramsOptions.build("n14");
        // rotations by 1 … 8 and their hoisted form need 8 distinct steps: with fewer slots they would collapse
        if (params.slots() <= 8)
            throw new IllegalArgumentException("ops rotates by 1 … 8 and needs more than 8 slots; --logSlots "
                    + params.logSlots() + " gives " + params.slots());
        MemoryCheck.require(
                "ops at these parameters (10 switching keys and working ciphertexts)",
                MemoryCheck.keysAndCiphertexts(params, 10, 64),
                "choose smaller parameters");
        CkksContext ctx = CkksContext.create(params, engine.backend, engine.threads());
        if (!engine.json) {
            System.out.println("ops: " + ParamsOptions.describe(params));
            System.out.println("backend " + ctx.engine().backend().name() + "; kernels: "
                    + ctx.engine().kernelSummary() + "; generating keys…");
        }
        // the kernels compiled with complete profiles before anything is timed, as lt's and ctos's evaluations are
        // (without it, and with 0.5 s of untimed runs, ops at n14 still timed mulRelin at 6.5–18 ms against 3.0 warm)
        ctx.startKernelWarmup();
        double keygenWait = WarmupWait.onFewProcessors(ctx); // keygen after it on 2–3 processors
        SplittableRandom rnd = new SplittableRandom(7);
        long t0 = System.nanoTime();
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        PublicKey pk = kg.genPublicKey(sk);
        KeyStorage held = keyStorageOptions.storage();
        RelinearizationKey rlk =
                new RelinearizationKey(kg.genRelinearizationKey(sk).key().withStorage(held));
        int[] steps = {1, 2, 3, 4, 5, 6, 7, 8};
        RotationKeySet rot =
                kg.genRotationKeysForSteps(sk, params.maxLevel(), steps, false).withStorage(held);
        double keygenMillis = (System.nanoTime() - t0) / 1e6;
        Encoder enc = new Encoder(ctx);
        Encryptor encryptor = Encryptor.withPublicKey(ctx, pk);
        Decryptor dec = new Decryptor(ctx, sk);
        Evaluator ev = new Evaluator(ctx, rlk, rot);
        OpCounters counters = ctx.counters();

        ComplexVector x = ComplexVector.random(rnd, params.slots()), y = ComplexVector.random(rnd, params.slots());
        int top = params.maxLevel();
        double scale = params.defaultScale();
        Plaintext px = enc.encode(x, top, scale);
        Ciphertext cx = encryptor.encrypt(px), cy = encryptor.encrypt(enc.encode(y, top, scale));
        Ciphertext prod = ev.mulRelin(cx, cy);
        PolyQP[] digits = ev.decompose(cx);

        double timingWait = WarmupWait.beforeTiming(ctx);
        List<Result> results = new ArrayList<>();
        results.add(measure(
                "encode", counters, () -> enc.encode(x, top, scale), pt -> PrecisionStats.of(x, enc.decode(pt))));
        results.add(measure(
                "encrypt",
                counters,
                () -> encryptor.encrypt(px),
                ct -> PrecisionStats.of(x, dec.decryptAndDecode(ct, enc))));
        results.add(measure("decrypt", counters, () -> dec.decrypt(cx), pt -> PrecisionStats.of(x, enc.decode(pt))));
        results.add(measure(
                "add",
                counters,
                () -> ev.add(cx, cy),
                ct -> PrecisionStats.of(x.add(y), dec.decryptAndDecode(ct, enc))));
        results.add(measure(
                "mulRelin",
                counters,
                () -> ev.mulRelin(cx, cy),
                ct -> PrecisionStats.of(x.mul(y), dec.decryptAndDecode(ct, enc))));
        results.add(measure(
                "rescale",
                counters,
                () -> ev.rescale(prod),
                ct -> PrecisionStats.of(x.mul(y), dec.decryptAndDecode(ct, enc))));
        results.add(measure(
                "rotate",
                counters,
                () -> ev.rotate(cx, 1),
                ct -> PrecisionStats.of(x.rotate(1), dec.decryptAndDecode(ct, enc))));
        Function<Map<Integer, Ciphertext>, PrecisionStats> worstRotation = m -> {
            PrecisionStats worst = null;
            for (int k : steps) {
                PrecisionStats p = PrecisionStats.of(x.rotate(k), dec.decryptAndDecode(m.get(k), enc));
                if (worst == null || p.minBits() < worst.minBits()) worst = p;
            }
            return worst;
        };
        results.add(measure("rotateHoisted8", counters, () -> ev.rotateHoisted(cx, steps), worstRotation));
        // the same rotations handed out one at a time and dropped: what a caller that consumes each
        // one holds, and what the plain rotations above hold (a young collection copies only one)
        results.add(measure(
                "rotateHoisted8Each",
                counters,
                () -> {
                    Ciphertext[] last = new Ciphertext[1];
                    ev.rotateHoisted(cx, steps, (ct, k) -> last[0] = ct);
                    return last[0];
                },
                unused -> { // checked on the handed-out rotations, all kept for the check only
                    Map<Integer, Ciphertext> handed = new HashMap<>();
                    ev.rotateHoisted(cx, steps, (ct, k) -> handed.put(k, ct));
                    return worstRotation.apply(handed);
                }));
        // the key-switching steps are checked through what they feed: a rotation built from these digits,
        // these inner products, and ModDown(P·c) = c
        var ks = ev.keySwitcher();
        var key1 = rot.get(params.galoisElementForRotation(1), "rotation by 1");
        results.add(measure(
                "decompose",
                counters,
                () -> ev.decompose(cx),
                d -> PrecisionStats.of(
                        x.rotate(1), dec.decryptAndDecode(ev.modDown(ev.rotateHoistedLazy(cx, d, 1)), enc))));
        results.add(measure("innerProduct", counters, () -> ks.innerProduct(digits, key1.key()), t -> {
            // rotation = (φ_g(c0 + ModDown(T0)), φ_g(ModDown(T1)))
            var rq = ctx.ringQ();
            var u0 = ks.modDown(t[0]);
            rq.add(u0, cx.poly(0, RawAccess.get()), u0);
            var c0 = rq.newPoly(cx.level(), Domain.NTT);
            var c1 = rq.newPoly(cx.level(), Domain.NTT);
            rq.automorphism(u0, key1.galoisElement(), c0);
            rq.automorphism(ks.modDown(t[1]), key1.galoisElement(), c1);
            return PrecisionStats.of(
                    x.rotate(1),
                    dec.decryptAndDecode(Ciphertext.wrap(RawAccess.get(), params, cx.scale(), c0, c1), enc));
        }));
        PolyQP pc0 = ks.timesP(cx.poly(0, RawAccess.get())), pc1 = ks.timesP(cx.poly(1, RawAccess.get()));
        results.add(measure(
                "modDown",
                counters,
                () -> ks.modDown(pc0),
                p -> PrecisionStats.of(
                        x,
                        dec.decryptAndDecode(
                                Ciphertext.wrap(RawAccess.get(), params, cx.scale(), p, ks.modDown(pc1)), enc))));

        Map<String, Double> micros = new LinkedHashMap<>();
        for (Result r : results) micros.put(r.name(), r.micros());
        double heldRatio = hoistedOverPlain(micros.get("rotateHoisted8"), micros.get("rotate"));
        double eachRatio = hoistedOverPlain(micros.get("rotateHoisted8Each"), micros.get("rotate"));
        if (engine.json) {
            Map<String, Object> ops = new LinkedHashMap<>();
            for (Result r : results) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("micros", r.micros());
                o.put("precisionBits", r.precisionBits());
                o.put("counts", countsJson(r.counts()));
                o.put("warmupRuns", r.warmupRuns());
                ops.put(r.name(), o);
            }
            System.out.println(Json.obj()
                    .put("preset", params.name())
                    .put("logN", params.logN())
                    .put("levels", params.qCount())
                    .put("alpha", params.alpha())
                    .put("beta", params.beta())
                    .put("logQP", params.logQP())
                    .put("secure", params.secure())
                    .put("backend", ctx.engine().backend().name())
                    .put("kernels", ctx.engine().kernelForms())
                    .put("threads", ctx.engine().threads())
                    .put("keyStorage", held.name().toLowerCase(Locale.ROOT))
                    .put("keyMemoryBytes", rot.memoryBytes() + rlk.key().memoryBytes())
                    .put("warmupWaitMillis", keygenWait) // as the other commands' warmupWait and evaluateWait
                    .put("timingWaitMillis", timingWait)
                    .put("keygenMillis", keygenMillis)
                    .put("ops", ops)
                    .put("hoistedOverPlain", Json.obj().put("held", heldRatio).put("each", eachRatio)));
        } else {
            System.out.printf(
                    Locale.ROOT,
                    "keys (sk, pk, rlk, 8 rotation keys) in %.0f ms; rotation keys: %s%n",
                    keygenMillis,
                    rot.sizes());
            // as wide as the longest name ("rotateHoisted8Each" overran a fixed 15)
            int width = results.stream().mapToInt(r -> r.name().length()).max().orElse(0);
            String nameColumn = "%-" + Math.max(width, "operation".length()) + "s";
            System.out.printf(
                    Locale.ROOT,
                    nameColumn + " %12s %10s   %s%n",
                    "operation",
                    "median µs",
                    "prec bits",
                    "counts (one run)");
            for (Result r : results) {
                String line = String.format(
                        Locale.ROOT,
                        nameColumn + " %12.1f %10s   %s",
                        r.name(),
                        r.micros(),
                        r.precisionBits() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.precisionBits()),
                        countsText(r.counts()));
                System.out.println(line.stripTrailing()); // a row without counts (add) ends at its precision
            }
            System.out.println(
                    "precision = worst slot, −log2 of the L2 error against plaintext arithmetic (key-switching steps: through the");
            System.out.println("rotation / ciphertext they produce)");
            System.out.printf(
                    Locale.ROOT,
                    "8 hoisted rotations / 8 plain rotations: %.2f (held at once), %.2f (handed out one at a time)%n",
                    heldRatio,
                    eachRatio);
            RunMillis.waitLines(keygenWait, timingWait, "timed operation").forEach(System.out::println);
        }
        for (Result r : results) {
            if (r.precisionBits() != null && r.precisionBits() < LtRun.PRECISION_FLOOR_BITS) {
                spec.commandLine()
                        .getErr()
                        .printf(
                                Locale.ROOT,
                                "hoist: %s has %.1f bits of precision, below the sanity floor of %.0f bits: check the scale%n",
                                r.name(),
                                r.precisionBits(),
                                LtRun.PRECISION_FLOOR_BITS);
                return 4;
            }
        }
        return 0;
    }

    private <T> Result measure(String name, OpCounters counters, Supplier<T> op, Function<T, PrecisionStats> check) {
        var before = counters.snapshot();
        T first = op.get();
        Map<Op, Long> counts = counters.since(before);
        PrecisionStats p = check.apply(first);
        first = null; // no result outlives its run: a kept one would add its size to the peak RSS measured here
        int warmed = warmUp(warmup, WARMUP_MILLIS, () -> Objects.requireNonNull(op.get(), name));
        long[] times = new long[runs];
        for (int i = 0; i < runs; i++) {
            long s = System.nanoTime();
            T r = op.get();
            times[i] = System.nanoTime() - s;
            Objects.requireNonNull(r, name); // the results are used, so no run can be optimised away
        }
        return new Result(
                name, Quantiles.median().compute(times) / 1e3, p == null ? null : p.minBits(), counts, warmed);
    }

    static Map<String, Long> countsJson(Map<Op, Long> counts) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (var e : counts.entrySet()) if (e.getValue() != 0) m.put(camel(e.getKey()), e.getValue());
        return m;
    }

    private static String countsText(Map<Op, Long> counts) {
        StringBuilder sb = new StringBuilder();
        for (Op op : new Op[] {
            Op.DECOMPOSE, Op.MOD_DOWN, Op.KS_INNER_PRODUCT, Op.NTT_LIMBS, Op.INTT_LIMBS, Op.BCONV, Op.MOD_MULS
        }) {
            long v = counts.get(op);
            if (v != 0) sb.append(camel(op)).append('=').append(v).append(' ');
        }
        return sb.toString().trim();
    }

    static String camel(Op op) {
        String[] parts = op.name().toLowerCase(Locale.ROOT).split("_");
        StringBuilder sb = new StringBuilder(parts[0]);
        for (int i = 1; i < parts.length; i++)
            sb.append(Character.toUpperCase(parts[i].charAt(0))).append(parts[i].substring(1));
        return sb.toString();
    }
}
