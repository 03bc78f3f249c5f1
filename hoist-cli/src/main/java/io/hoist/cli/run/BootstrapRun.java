package io.hoist.cli.run;

import com.google.common.math.Quantiles;
import com.sun.management.ThreadMXBean;
import io.hoist.bootstrap.BootstrapParameters;
import io.hoist.bootstrap.BootstrapPlan;
import io.hoist.bootstrap.Bootstrapper;
import io.hoist.bootstrap.BootstrappingKeys;
import io.hoist.bootstrap.EvalModParameters;
import io.hoist.bootstrap.Messages;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.KeySizes;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.SecretKey;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.dft.DftPlan;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.Op;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** One bootstrapping run: plan, keys, encoding, then bootstraps of a random message at level 0; a result record. */
public final class BootstrapRun {
    private BootstrapRun() {}

    public record Keys(
            int rotation,
            int conjugation,
            int relinearization,
            int encapsulation,
            long bytes,
            long seededBytes,
            String storage,
            long inMemory) {}

    public record Levels(int input, int output, int ctos, int evalMod, int stoc) {}

    public record Precision(double minBits, double avgBits, double l2Bits) {}

    /**
     * Stage times, medians over the runs; {@code first} is the first bootstrap's total (it pays for the JIT's last
     * work); {@code warmupWait} and {@code firstWait}: how long keygen and the first bootstrap waited for the kernel
     * warm-up to end (0 when they did not wait).
     */
    public record Millis(
            double warmupWait,
            double firstWait,
            double keygen,
            double encode,
            double modRaise,
            double ctos,
            double evalMod,
            double stoc,
            double total,
            double first) {}

    /**
     * {@code pooled}: bytes the bootstrapper's limb pools hold after the runs; {@code allocatedWarm}: heap bytes all
     * threads allocate during one warm bootstrap (median of the runs after the first), −1 if unknown.
     */
    public record Memory(long keys, long keysInMemory, long diagonals, long pooled, long peakRss, long allocatedWarm) {}

    public record Matrix(String kind, int level, int diagonals, String algo, int[] split, int rotationKeys) {}

    public record EvalModInfo(
            int K,
            int degree,
            int doubleAngle,
            int arcsineDegree,
            double messageRatio,
            int logScale,
            double approximationBits) {}

    public record Report(
            String params,
            boolean secure,
            String backend,
            Map<String, String> kernels,
            int threads,
            int logSlots,
            boolean sparse,
            boolean encapsulation,
            String ctosAlgo,
            String stocAlgo,
            boolean joint,
            String storage,
            Keys keys,
            Levels levels,
            Precision precision,
            Millis millis,
            Memory memoryBytes,
            List<Matrix> matrices,
            Map<String, Long> counts,
            EvalModInfo evalMod,
            int runs,
            String input) {}

    /** The input, as the report states it. */
    static final String INPUT =
            "uniform [−1, 1] + i[−1, 1] per slot (sparse packing: the n values repeated over the 2n slots),"
                    + " encoded at level 0 and scale Δ, encrypted with the secret key";

    public static Report run(
            BootstrapParameters bp,
            BootstrapPlan plan,
            String backend,
            int threads,
            Storage storage,
            KeyStorage keyStorage,
            int runs,
            long seed,
            boolean quiet) {
        CkksParameters params = bp.ckks();
        MemoryCheck.require(
                "this bootstrapping (keys and encoded DFT matrices)",
                MemoryCheck.add(
                        keyStorage == KeyStorage.SEEDED
                                ? plan.keySizes().seededBytes()
                                : plan.keySizes().fullBytes(),
                        CtosRun.diagonalBytes(List.of(plan.coeffsToSlotsPlan(), plan.slotsToCoeffsPlan()), storage)),
                storage == Storage.PRECOMPUTED ? "use --storage compact" : null);
        CkksContext ctx = CkksContext.create(params, backend, threads);
        ctx.startKernelWarmup(plan.keySwitchLevels()); // every digit count the bootstrap's key switches take
        double warmupWaitMs = WarmupWait.onFewProcessors(ctx); // on 2–3 processors, keygen after the warm-up
        long t0 = System.nanoTime();
        SecretKey sk = new KeyGenerator(ctx).genSecretKey();
        BootstrappingKeys keys;
        try (Bars bar = Bars.of("keygen", quiet)) {
            keys = BootstrappingKeys.generate(ctx, sk, plan, bar, keyStorage);
        }
        double keygenMs = ms(t0);
        t0 = System.nanoTime();
        Bootstrapper boot;
        try (Bars bar = Bars.of("encode", quiet)) {
            boot = new Bootstrapper(ctx, plan, keys, storage, bar);
        }
        double encodeMs = ms(t0);

        Encoder encoder = new Encoder(ctx);
        Decryptor dec = new Decryptor(ctx, sk);
        ComplexVector z = Messages.uniform(bp, seed);
        Ciphertext in = Encryptor.withSecretKey(ctx, sk).encrypt(encoder.encode(z, 0, params.defaultScale()));
        List<Bootstrapper.Result> results = new ArrayList<>();
        List<Long> allocated = new ArrayList<>();
        double firstWaitMs = WarmupWait.beforeTiming(ctx);
        try (Bars bar = Bars.of("bootstrap", quiet)) {
            for (int i = 0; i < runs; i++) {
                long a0 = allocatedAllThreads();
                results.add(boot.bootstrap(in));
                long a1 = allocatedAllThreads();
                if (i > 0 && a0 >= 0) allocated.add(a1 - a0);
                bar.step(i + 1, runs);
            }
        }
        Bootstrapper.Result last = results.get(results.size() - 1);
        Precision precision = precision(z, dec.decryptAndDecode(last.output(), encoder));

        List<Matrix> mats = new ArrayList<>();
        for (DftPlan p : List.of(plan.coeffsToSlotsPlan(), plan.slotsToCoeffsPlan())) {
            for (int i = 0; i < p.plans().size(); i++) {
                Plan pl = p.plans().get(i);
                mats.add(new Matrix(
                        p.dft().kind().label(),
                        p.dft().levels().get(i),
                        pl.indices().size(),
                        pl.algorithm().cliName(),
                        pl.split(),
                        p.galoisElements(i).size()));
            }
        }
        KeySizes ks = keys.sizes();
        boolean conj = plan.galoisElements().contains(params.galoisElementForConjugation());
        EvalModParameters em = bp.evalMod();
        return new Report(
                ParamsOptions.describe(params),
                params.secure(),
                ctx.engine().backend().name(),
                ctx.engine().kernelForms(),
                ctx.engine().threads(),
                bp.logSlots(),
                bp.sparse(),
                bp.encapsulation(),
                plan.ctsAlgorithm(),
                plan.stcAlgorithm(),
                plan.joint(),
                storage.name().toLowerCase(Locale.ROOT),
                new Keys(
                        plan.rotationKeys(),
                        conj ? 1 : 0,
                        1,
                        bp.encapsulation() ? 2 : 0,
                        ks.fullBytes(),
                        ks.seededBytes(),
                        keyStorage.name().toLowerCase(Locale.ROOT),
                        keys.memoryBytes()),
                new Levels(0, last.output().level(), plan.ctsLevel(), plan.evalModLevel(), plan.stcLevel()),
                precision,
                new Millis(
                        warmupWaitMs,
                        firstWaitMs,
                        keygenMs,
                        encodeMs,
                        median(results, r -> r.millis().scaleDown() + r.millis().modRaise()),
                        median(results, r -> r.millis().cts()),
                        median(results, r -> r.millis().evalMod()),
                        median(results, r -> r.millis().stc()),
                        median(results, r -> r.millis().total()),
                        results.get(0).millis().total()),
                new Memory(
                        ks.fullBytes(),
                        keys.memoryBytes(),
                        boot.diagonalBytes(),
                        boot.pooledBytes(),
                        peakRss(),
                        allocated.isEmpty() ? -1 : (long) Quantiles.median().compute(allocated)),
                mats,
                counts(last.counts()),
                new EvalModInfo(
                        em.k(),
                        em.degree(),
                        em.doubleAngle(),
                        em.arcsineDegree(),
                        em.messageRatio(),
                        em.logScale(),
                        -Math.log(em.approximationError()) / Math.log(2)),
                runs,
                INPUT);
    }

    interface Stage {
        double of(Bootstrapper.Result r);
    }

    private static double median(List<Bootstrapper.Result> rs, Stage s) {
        double[] v = rs.stream().mapToDouble(s::of).toArray();
        return v.length == 1 ? v[0] : Quantiles.median().compute(v);
    }

    private static double ms(long t0) {
        return (System.nanoTime() - t0) / 1e6;
    }

    /** Worst slot and mean of −log2|e| (complex error per slot), and −log2 of the RMS error. */
    static Precision precision(ComplexVector want, ComplexVector got) {
        double worst = 0, sumBits = 0, sumSq = 0;
        // each accessor hands out a copy: taken once, not per slot (32 GB of copies at boot16's 2^15 slots)
        double[] wr = want.re(), wi = want.im(), gr = got.re(), gi = got.im();
        int n = wr.length;
        for (int i = 0; i < n; i++) {
            double e = Math.max(Math.hypot(gr[i] - wr[i], gi[i] - wi[i]), 0x1p-60);
            worst = Math.max(worst, e);
            sumBits += -Math.log(e) / Math.log(2);
            sumSq += e * e;
        }
        return new Precision(
                -Math.log(worst) / Math.log(2), sumBits / n, -Math.log(Math.sqrt(sumSq / n)) / Math.log(2));
    }

    static Map<String, Long> counts(Map<Op, Long> m) {
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("ctMuls", m.getOrDefault(Op.CT_MUL, 0L));
        out.put("relinearizations", m.getOrDefault(Op.RELINEARIZE, 0L));
        out.put("rescales", m.getOrDefault(Op.RESCALE, 0L));
        out.put("constMuls", m.getOrDefault(Op.CONST_MUL, 0L));
        out.put("ptMuls", m.getOrDefault(Op.PT_MUL, 0L));
        out.put("decompose", m.getOrDefault(Op.DECOMPOSE, 0L));
        out.put("modDown", m.getOrDefault(Op.MOD_DOWN, 0L));
        out.put("ksInnerProducts", m.getOrDefault(Op.KS_INNER_PRODUCT, 0L));
        out.put("ntt", m.getOrDefault(Op.NTT_LIMBS, 0L) + m.getOrDefault(Op.INTT_LIMBS, 0L));
        return out;
    }

    /** Heap bytes every thread of the process has allocated so far (HotSpot's counter), or −1 where unavailable. */
    static long allocatedAllThreads() {
        if (ManagementFactory.getThreadMXBean() instanceof ThreadMXBean tb && tb.isThreadAllocatedMemorySupported())
            return tb.getTotalThreadAllocatedBytes();
        return -1;
    }

    /** The process's peak resident set (VmHWM), or −1 where /proc is not there. */
    static long peakRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    String[] f = line.trim().split("\\s+");
                    return Long.parseLong(f[1]) * 1024L;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
