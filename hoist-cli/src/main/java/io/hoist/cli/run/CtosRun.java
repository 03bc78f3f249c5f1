package io.hoist.cli.run;

import com.google.common.math.Quantiles;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.KeySizes;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.dft.DftEvaluator;
import io.hoist.lt.dft.DftPlan;
import io.hoist.lt.dft.DftPlanner;
import io.hoist.lt.dft.DftResult;
import io.hoist.lt.dft.EncodedDft;
import io.hoist.lt.dft.HomomorphicDft;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.NttEngine;
import io.hoist.ring.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/** One CoeffsToSlots run (and optionally SlotsToCoeffs and the round trip): plan, keys, encode, evaluate, check. */
public final class CtosRun {
    private CtosRun() {}

    record Matrix(
            String kind,
            int level,
            int diagonals,
            int stride,
            String algo,
            int[] split,
            int rotationKeys,
            Map<String, Object> counts,
            Map<String, Object> expected,
            double modMulsModel) {}

    public record Precision(double minBits, double avgBits) {}

    /**
     * {@code warmupWait} and {@code evaluateWait}: how long keygen and the first evaluation waited for the kernel
     * warm-up to end (0 when they did not wait).
     */
    record Millis(
            double warmupWait,
            double evaluateWait,
            double keygen,
            double encode,
            double firstEvaluate,
            double evaluate,
            double stoc) {}

    record Memory(long keys, long seededKeys, long keysInMemory, long diagonals) {}

    public record Report(
            String params,
            boolean secure,
            String backend,
            Map<String, String> kernels,
            int threads,
            int logN,
            int logSlots,
            boolean sparse,
            int depth,
            List<Integer> merge,
            String objective,
            boolean joint,
            boolean jointExact,
            String storage,
            String keyStorage,
            List<Matrix> matrices,
            int rotationKeys,
            long keyBytes,
            Map<String, Long> totalCounts,
            boolean countsMatch,
            double modMuls,
            Precision precision,
            Millis millis,
            Memory memoryBytes,
            Precision roundTrip,
            Integer lattigoRotationKeys) {}

    /** Bytes the run holds at most: the union's keys at the top level and every matrix's encoded diagonals. */
    static long memoryEstimate(List<DftPlan> plans, int topLevel, Storage st, KeyStorage keyStorage) {
        CkksParameters params = plans.get(0).params();
        KeySizes one = KeySizes.switchingKey(params.beta(topLevel), topLevel + 1 + params.alpha(), params.n());
        long keys = MemoryCheck.mul(
                keyStorage == KeyStorage.SEEDED ? one.seededBytes() : one.fullBytes(),
                DftPlan.union(plans).size());
        return MemoryCheck.add(keys, diagonalBytes(plans, st));
    }

    /** Bytes the encoded matrices of {@code plans} take: precomputed QP limbs, or one word per coefficient when compact. */
    static long diagonalBytes(List<DftPlan> plans, Storage st) {
        CkksParameters params = plans.get(0).params();
        long diags = 0;
        for (DftPlan p : plans) {
            for (int i = 0; i < p.plans().size(); i++) {
                int level = p.dft().levels().get(i);
                long words = EncodedTransform.wordsPerDiagonal(
                        params, level, st, p.plans().get(i).algorithm());
                diags = MemoryCheck.add(
                        diags, MemoryCheck.mul(p.plans().get(i).indices().size(), words, 8L));
            }
        }
        return diags;
    }

    public static Report run(CtosSetup s, int depth, boolean quiet) {
        CkksParameters params = s.params();
        CkksContext ctx = CkksContext.create(params, s.backend(), s.threads());
        ctx.startKernelWarmup(); // JIT warm-up beside the DFT plans (and keygen on more than 3 processors)
        HomomorphicDft cts = s.cts(depth);
        List<HomomorphicDft> dfts = new ArrayList<>(List.of(cts));
        if (s.stocDepth() != null) dfts.add(s.stc());
        List<DftPlan> plans = s.plan(dfts, s.algorithm());
        MemoryCheck.require(
                "this run (keys and diagonals of every DFT matrix)",
                memoryEstimate(plans, s.topLevel(), s.storage(), s.keyStorage()),
                s.storage() == Storage.PRECOMPUTED ? "use --storage compact" : null);

        double warmupWaitMs = WarmupWait.onFewProcessors(ctx); // on 2–3 processors, keygen after the warm-up
        long t0 = System.nanoTime();
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        RotationKeySet keys;
        try (Bars bar = Bars.of("keygen", quiet)) {
            keys = kg.genRotationKeys(sk, s.topLevel(), DftPlan.union(plans), bar, s.keyStorage());
        }
        double keygenMs = (System.nanoTime() - t0) / 1e6;

        DftEvaluator ev = new DftEvaluator(ctx, keys, Schedule.direct());
        t0 = System.nanoTime();
        List<EncodedDft> encoded = new ArrayList<>();
        try (Bars bar = Bars.of("encode", quiet)) {
            for (DftPlan p : plans) encoded.add(ev.encode(p, s.storage(), bar));
        }
        double encodeMs = (System.nanoTime() - t0) / 1e6;

        Encoder encoder = new Encoder(ctx);
        Decryptor dec = new Decryptor(ctx, sk);
        double[] t = randomValues(cts, s.seed());
        Ciphertext in = Encryptor.withSecretKey(ctx, sk)
                .encrypt(encoder.encodeCoefficients(cts.coefficientLayout(t), s.topLevel(), params.defaultScale()));
        double evaluateWaitMs = WarmupWait.beforeTiming(ctx);
        t0 = System.nanoTime();
        DftResult r = ev.coeffsToSlots(in, encoded.get(0));
        double firstMs = (System.nanoTime() - t0) / 1e6;
        double[] warm = new double[s.runs()];
        for (int i = 0; i < warm.length; i++) {
            t0 = System.nanoTime();
            ev.coeffsToSlots(in, encoded.get(0));
            warm[i] = (System.nanoTime() - t0) / 1e6;
        }
        Precision precision = precision(cts.expectedSlots(t), r, dec, encoder);

        Precision roundTrip = null;
        double stocMs = Double.NaN;
        DftResult back = null;
        if (s.stocDepth() != null) {
            Evaluator e = new Evaluator(ctx);
            List<Ciphertext> down =
                    r.outputs().stream().map(c -> e.atLevel(c, s.stocTop())).toList();
            t0 = System.nanoTime();
            back = ev.slotsToCoeffs(down, encoded.get(1));
            stocMs = (System.nanoTime() - t0) / 1e6;
            roundTrip = coefficientPrecision(
                    cts, t, encoder.coefficients(dec.decrypt(back.outputs().get(0))));
        }

        List<Matrix> mats = new ArrayList<>();
        for (int k = 0; k < plans.size(); k++) {
            DftPlan p = plans.get(k);
            DftResult measured = k == 0 ? r : back;
            for (int i = 0; i < p.plans().size(); i++) {
                Plan pl = p.plans().get(i);
                Cost c = p.cost(i, s.storage());
                mats.add(new Matrix(
                        p.dft().kind().label(),
                        p.dft().levels().get(i),
                        pl.indices().size(),
                        p.dft().stride(i),
                        pl.algorithm().cliName(),
                        pl.split(),
                        p.galoisElements(i).size(),
                        named(measured.matrixCounts().get(i)),
                        LtRun.expectedJson(c),
                        c.modMuls()));
            }
        }
        long lattigoKeys = DftPlan.union(
                        dfts.stream().map(d -> DftPlanner.lattigo(d, params, 1)).toList())
                .size();
        return new Report(
                ParamsOptions.describe(params),
                params.secure(),
                ctx.engine().backend().name(),
                ctx.engine().kernelForms(),
                ctx.engine().threads(),
                params.logN(),
                s.logSlots(),
                cts.sparse(),
                depth,
                cts.merge(),
                s.objectiveName(),
                s.joint(),
                plans.stream().allMatch(DftPlan::exact),
                s.storage().name().toLowerCase(Locale.ROOT),
                s.keyStorage().name().toLowerCase(Locale.ROOT),
                mats,
                keys.size(),
                keys.sizes().fullBytes(),
                totals(r),
                mats.stream().allMatch(m -> m.counts().equals(m.expected())),
                CtosSetup.modMuls(plans.subList(0, 1), s.storage()),
                precision,
                new Millis(
                        warmupWaitMs,
                        evaluateWaitMs,
                        keygenMs,
                        encodeMs,
                        firstMs,
                        warm.length == 0 ? firstMs : Quantiles.median().compute(warm),
                        stocMs),
                new Memory(
                        keys.sizes().fullBytes(),
                        keys.sizes().seededBytes(),
                        keys.memoryBytes(),
                        encoded.stream().mapToLong(EncodedDft::memoryBytes).sum()),
                roundTrip,
                (int) lattigoKeys);
    }

    static double[] randomValues(HomomorphicDft dft, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] t = new double[2 * dft.dftSize()];
        for (int k = 0; k < t.length; k++) t[k] = 2 * rnd.nextDouble() - 1;
        return t;
    }

    static Precision precision(List<ComplexVector> want, DftResult r, Decryptor dec, Encoder encoder) {
        double min = Double.POSITIVE_INFINITY, avg = 0;
        for (int i = 0; i < want.size(); i++) {
            PrecisionStats p = PrecisionStats.of(
                    want.get(i), dec.decryptAndDecode(r.outputs().get(i), encoder));
            min = Math.min(min, p.minBits());
            avg += p.avgBits() / want.size();
        }
        return new Precision(min, avg);
    }

    /** log2 precision of the coefficients read back after SlotsToCoeffs, worst and mean. */
    static Precision coefficientPrecision(HomomorphicDft dft, double[] t, double[] coefficients) {
        double[] got = dft.valuesOf(coefficients);
        double worst = 0, sumBits = 0;
        for (int k = 0; k < t.length; k++) {
            double err = Math.max(Math.abs(got[k] - t[k]), 0x1p-60);
            worst = Math.max(worst, err);
            sumBits += -Math.log(err) / Math.log(2);
        }
        return new Precision(-Math.log(worst) / Math.log(2), sumBits / t.length);
    }

    /** Measured counts under the names of {@link LtRun#expectedJson}, so that the two objects compare equal. */
    private static Map<String, Object> named(Map<Op, Long> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("decompose", m.getOrDefault(Op.DECOMPOSE, 0L));
        out.put("modDown", m.getOrDefault(Op.MOD_DOWN, 0L));
        out.put("keySwitchInnerProducts", m.getOrDefault(Op.KS_INNER_PRODUCT, 0L));
        out.put("ptMuls", m.getOrDefault(Op.PT_MUL, 0L));
        out.put("ntt", m.getOrDefault(Op.NTT_LIMBS, 0L) + m.getOrDefault(Op.INTT_LIMBS, 0L));
        return out;
    }

    private static Map<String, Long> totals(DftResult r) {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("decompose", r.total(Op.DECOMPOSE));
        out.put("modDown", r.total(Op.MOD_DOWN));
        out.put("ksInnerProducts", r.total(Op.KS_INNER_PRODUCT));
        out.put("ptMuls", r.total(Op.PT_MUL));
        return out;
    }

    public static void print(Report r) {
        System.out.printf(
                Locale.ROOT,
                "CoeffsToSlots, %s%n  logSlots %d (%s packing), depth %d, merge %s, objective %s%s, diagonals %s%n",
                r.params(),
                r.logSlots(),
                r.sparse() ? "sparse" : "dense",
                r.depth(),
                r.merge(),
                r.objective(),
                r.joint() ? " (joint" + (r.jointExact() ? ", optimal)" : ", not proven optimal)") : "",
                r.storage());
        System.out.println("  kernels: " + NttEngine.summarize(r.kernels()));
        System.out.printf(
                Locale.ROOT,
                "  %-14s %5s %6s %7s %-10s %-18s %5s %4s %4s %5s %5s%n",
                "matrix",
                "level",
                "diags",
                "stride",
                "algo",
                "split",
                "keys",
                "Dec",
                "MD",
                "KSIP",
                "PtMul");
        for (Matrix m : r.matrices()) {
            Map<String, Object> e = m.expected();
            System.out.printf(
                    Locale.ROOT,
                    "  %-14s %5d %6d %7d %-10s %-18s %5d %4s %4s %5s %5s%s%n",
                    m.kind(),
                    m.level(),
                    m.diagonals(),
                    m.stride(),
                    m.algo(),
                    String.join(
                            "·",
                            Arrays.stream(m.split()).mapToObj(Integer::toString).toList()),
                    m.rotationKeys(),
                    e.get("decompose"),
                    e.get("modDown"),
                    e.get("keySwitchInnerProducts"),
                    e.get("ptMuls"),
                    m.counts().equals(e) ? "" : "   measured " + m.counts());
        }
        System.out.printf(
                Locale.ROOT,
                "  rotation keys: %d in the union, conjugation included (%.2f GB; seeded %.2f GB; held %s: %.2f GB); Lattigo's rule needs %d%n",
                r.rotationKeys(),
                r.keyBytes() / 1e9,
                r.memoryBytes().seededKeys() / 1e9,
                r.keyStorage(),
                r.memoryBytes().keysInMemory() / 1e9,
                r.lattigoRotationKeys());
        System.out.printf(
                Locale.ROOT,
                "  precision: worst slot %.1f bits, mean %.1f bits%s%n",
                r.precision().minBits(),
                r.precision().avgBits(),
                r.roundTrip() == null
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                "; round trip SlotsToCoeffs(CoeffsToSlots(t)): worst %.1f, mean %.1f bits",
                                r.roundTrip().minBits(),
                                r.roundTrip().avgBits()));
        System.out.printf(
                Locale.ROOT,
                "  time: keygen %.0f ms, encode %.0f ms, evaluate %.0f ms (first %.0f ms)%s; diagonals %.1f MB%n",
                r.millis().keygen(),
                r.millis().encode(),
                r.millis().evaluate(),
                r.millis().firstEvaluate(),
                Double.isNaN(r.millis().stoc())
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                ", SlotsToCoeffs %.0f ms",
                                r.millis().stoc()),
                r.memoryBytes().diagonals() / 1e6);
        for (String line :
                RunMillis.waitLines(r.millis().warmupWait(), r.millis().evaluateWait(), "CoeffsToSlots"))
            System.out.println(line);
    }
}
