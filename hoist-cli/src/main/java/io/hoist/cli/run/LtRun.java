package io.hoist.cli.run;

import com.google.common.math.Quantiles;
import com.sun.management.ThreadMXBean;
import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.io.KeyFiles;
import io.hoist.ckks.io.KeyStore;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.Evaluation;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.LtProgram.Buffer;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.LedgerKind;
import io.hoist.lt.schedule.Schedule;
import io.hoist.lt.schedule.ScheduleCompiler;
import io.hoist.lt.schedule.TrafficLedger;
import io.hoist.ring.Op;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One encrypted matrix–vector product end to end: keys for exactly the plan, encode, encrypt,
 * evaluate twice (first and warm) by the chosen schedule, check against plaintext; optionally the
 * direct executor on the same ciphertext for bit-identity.
 */
public final class LtRun {
    public final CkksParameters params;
    public final Plan plan;
    public final Storage storage;
    public final Schedule schedule;
    public Cost expected;
    Map<Op, Long> counts;
    public PrecisionStats precision;
    /** Its times: keygen, encoding, the evaluations and the waits for the kernel warm-up. */
    public final RunMillis millis = new RunMillis();

    public int rotationKeys;
    public long keyBytes, seededKeyBytes, keyMemoryBytes, diagonalBytes;
    /** How the rotation keys are held in memory (seeded: a parts regenerated in each key inner product). */
    public KeyStorage keyStorage = KeyStorage.FULL;

    public long allocatedFirst = -1, allocatedWarm = -1, pooledBytes;
    public String backend;
    /** Kernel id → form on this engine, and where the choice came from (see NttEngine#kernelForms). */
    public Map<String, String> kernels;

    public int threads;
    public Grouping grouping;
    public TrafficLedger measuredTraffic, expectedTraffic;
    public Boolean bitIdenticalToDirect;
    public int warmup = 0, runs = 1;
    public Path keyStore, secretFile;
    public int keysLoaded = -1, keysInStore = -1;
    public boolean quiet;
    public double[] directMillisAll;
    public double directMillis = Double.NaN;

    public LtRun(CkksParameters params, Plan plan, Storage storage, Schedule schedule) {
        this.params = params;
        this.plan = plan;
        this.storage = storage;
        this.schedule = schedule;
    }

    /** A random n×n transform with all n diagonals (dense) or {@code sparse} random ones; entries in [−1, 1]/√(#diagonals). */
    public static LinearTransform randomTransform(SplittableRandom r, int n, int sparse) {
        Map<Integer, ComplexVector> diags = new HashMap<>();
        int count = sparse > 0 ? Math.min(sparse, n) : n;
        double s = 1 / Math.sqrt(count);
        if (sparse <= 0)
            for (int i = 0; i < n; i++) diags.put(i, ComplexVector.random(r, n).scale(s));
        else
            while (diags.size() < count)
                diags.put(r.nextInt(n), ComplexVector.random(r, n).scale(s));
        return LinearTransform.fromDiagonals(n, diags);
    }

    /**
     * Refuses a key store and a secret-key file that were not written as one pair, before anything
     * is generated, encoded or decrypted (reads the store's header and index and the secret's file).
     */
    public static void checkKeyPair(CkksContext ctx, Path keyStore, Path secretFile) {
        try (KeyStore store = KeyStore.open(keyStore, ctx, false)) {
            KeyFiles.readSecretKeyFor(store, keyStore, secretFile, ctx, InsecureSecretKeyAccess.get());
        }
    }

    /** Bytes this thread has allocated so far (HotSpot's per-thread counter), or −1 where unavailable. */
    static long allocatedBytes() {
        if (ManagementFactory.getThreadMXBean() instanceof ThreadMXBean tb && tb.isThreadAllocatedMemorySupported()) {
            return tb.getCurrentThreadAllocatedBytes();
        }
        return -1;
    }

    public void run(CkksContext ctx, LinearTransform t, SplittableRandom r, boolean compareDirect) {
        ctx.startKernelWarmup(); // JIT warm-up overlapping keygen and encoding
        backend = ctx.engine().backend().name();
        kernels = ctx.engine().kernelForms();
        threads = ctx.engine().threads();
        int level = params.maxLevel();
        millis.keygenWait = WarmupWait.onFewProcessors(ctx);
        long t0 = System.nanoTime();
        SecretKey sk;
        RotationKeySet keys;
        if (keyStore != null) {
            try (KeyStore store = KeyStore.open(keyStore, ctx, true)) {
                sk = KeyFiles.readSecretKeyFor(store, keyStore, secretFile, ctx, InsecureSecretKeyAccess.get());
                if (store.level() < level)
                    throw new LevelMismatchException("the key store holds keys at level " + store.level()
                            + ", the transform runs at level " + level);
                keys = store.load(plan.rotationKeys(params), keyStorage);
                keysLoaded = store.keysLoaded();
                keysInStore = store.size();
            }
        } else {
            KeyGenerator kg = new KeyGenerator(ctx);
            sk = kg.genSecretKey();
            try (Bars bar = Bars.of("keygen", quiet)) {
                keys = kg.genRotationKeys(sk, level, plan.rotationKeys(params), bar, keyStorage);
            }
        }
        millis.keygen = (System.nanoTime() - t0) / 1e6;
        rotationKeys = keys.size();
        keyBytes = keys.sizes().fullBytes();
        seededKeyBytes = keys.sizes().seededBytes();
        keyMemoryBytes = keys.memoryBytes();

        LinearTransformEvaluator lte = new LinearTransformEvaluator(ctx, keys, schedule);
        t0 = System.nanoTime();
        EncodedTransform et;
        try (Bars bar = Bars.of("encode", quiet)) {
            et = lte.encode(t, plan, level, storage, bar);
        }
        millis.encode = (System.nanoTime() - t0) / 1e6;
        diagonalBytes = et.memoryBytes();

        Encoder encoder = new Encoder(ctx);
        ComplexVector x = ComplexVector.random(r, t.originalDimension());
        Ciphertext ct = Encryptor.withSecretKey(ctx, sk)
                .encrypt(encoder.encode(t.replicate(x, params.slots()), level, params.defaultScale()));
        millis.evaluateWait = WarmupWait.beforeTiming(ctx);
        long a0 = allocatedBytes();
        t0 = System.nanoTime();
        lte.evaluate(ct, et, schedule); // the first evaluation also pays the JIT's warm-up; reported separately
        millis.firstEvaluate = (System.nanoTime() - t0) / 1e6;
        long a1 = allocatedBytes(); // the first evaluation's own, before the warm-up's evaluations add theirs
        for (int i = 0; i < warmup; i++) lte.evaluate(ct, et, schedule);
        long aw = allocatedBytes();
        t0 = System.nanoTime();
        Evaluation ev = lte.evaluate(ct, et, schedule);
        millis.evaluateRuns = new double[runs];
        millis.evaluateRuns[0] = (System.nanoTime() - t0) / 1e6;
        long a2 = allocatedBytes();
        // the least over the timed runs: a short warm-up leaves code in the interpreter or C1, where every vector
        // operation allocates (116 MB for one 64×64 evaluation at N = 2^11 after one warm-up run, 48 KB after 20)
        long least = a2 - aw;
        for (int i = 1; i < runs; i++) {
            long b0 = allocatedBytes();
            t0 = System.nanoTime();
            lte.evaluate(ct, et, schedule);
            millis.evaluateRuns[i] = (System.nanoTime() - t0) / 1e6;
            least = Math.min(least, allocatedBytes() - b0);
        }
        millis.evaluate = Quantiles.median().compute(millis.evaluateRuns);
        if (a0 >= 0) {
            allocatedFirst = a1 - a0;
            allocatedWarm = least;
        }
        pooledBytes = lte.pooledBytes();
        counts = ev.counts();
        expected = plan.cost(params, level, storage);
        if (ev.traffic().isPresent()) {
            grouping = ev.grouping().orElseThrow();
            measuredTraffic = ev.traffic().get();
            expectedTraffic = ScheduleCompiler.ledger(et.program(), storage, grouping);
        }
        if (compareDirect) {
            // the direct executor on the same ciphertext: bit-identity, and its time side by side (alternating, after
            // its own warm-up)
            bitIdenticalToDirect =
                    lte.evaluate(ct, et, Schedule.direct()).result().equals(ev.result());
            for (int i = 0; i < warmup; i++) lte.evaluate(ct, et, Schedule.direct());
            directMillisAll = new double[runs];
            for (int i = 0; i < runs; i++) {
                t0 = System.nanoTime();
                lte.evaluate(ct, et, Schedule.direct());
                directMillisAll[i] = (System.nanoTime() - t0) / 1e6;
                t0 = System.nanoTime();
                lte.evaluate(ct, et, schedule);
                millis.evaluateRuns[i] = (System.nanoTime() - t0) / 1e6;
            }
            directMillis = Quantiles.median().compute(directMillisAll);
            millis.evaluate = Quantiles.median().compute(millis.evaluateRuns);
        }
        ComplexVector got = new Decryptor(ctx, sk).decryptAndDecode(ev.result(), encoder);
        precision = PrecisionStats.of(t.replicate(t.apply(x), params.slots()), got);
    }

    long measuredNtt() {
        return counts.get(Op.NTT_LIMBS) + counts.get(Op.INTT_LIMBS);
    }

    public boolean countsMatch() {
        return countsMatch(counts, expected);
    }

    /** Whether measured counts equal the closed form (Decompose, ModDown, KS-IP, PtMul, limb NTTs). */
    public static boolean countsMatch(Map<Op, Long> counts, Cost expected) {
        return counts.get(Op.DECOMPOSE) == expected.decompose()
                && counts.get(Op.MOD_DOWN) == expected.modDown()
                && counts.get(Op.KS_INNER_PRODUCT) == expected.keySwitchInnerProducts()
                && counts.get(Op.PT_MUL) == expected.ptMuls()
                && counts.get(Op.NTT_LIMBS) + counts.get(Op.INTT_LIMBS) == expected.ntt();
    }

    public boolean trafficMatches() {
        return measuredTraffic == null || measuredTraffic.equals(expectedTraffic);
    }

    /** Worst-slot precision below which a result is garbage, whatever the parameters (exit code 4). */
    public static final double PRECISION_FLOOR_BITS = 2;

    /** Exit status: 0; 3 when a count, the traffic or the bit-identity check disagrees; 4 when the precision is below the floor. */
    public int status() {
        if (!countsMatch() || !trafficMatches() || Boolean.FALSE.equals(bitIdenticalToDirect)) return 3;
        return precision.minBits() < PRECISION_FLOOR_BITS ? 4 : 0;
    }

    /**
     * Bytes this run will hold at most: the keys, the encoded diagonals, and every buffer of the
     * program as if none were ever released (an upper bound on the pool).
     */
    public static long memoryEstimate(CkksParameters params, Plan plan, Storage storage) {
        return memoryEstimate(params, plan, storage, KeyStorage.FULL);
    }

    /** {@link #memoryEstimate(CkksParameters, Plan, Storage)} with the keys held as {@code keyStorage}. */
    public static long memoryEstimate(CkksParameters params, Plan plan, Storage storage, KeyStorage keyStorage) {
        int level = params.maxLevel();
        LimbLayout lay = LimbLayout.of(params, level);
        long limb = 8L * params.n();
        long keys = plan.cost(params, level, storage).keyBytes();
        if (keyStorage == KeyStorage.SEEDED) keys = (keys + 1) / 2;
        long diags = LtSizes.diagonalBytes(params, plan.indices().size(), storage, plan.algorithm());
        long buffers = 0;
        if (plan.algorithm() != Algorithm.BSGS) {
            for (Buffer b : LtProgram.compile(plan, lay).buffers()) {
                buffers = MemoryCheck.add(
                        buffers,
                        MemoryCheck.mul(
                                b.digits() ? (long) lay.beta() * lay.d() : b.qOnly() ? lay.lq() : lay.d(), limb));
            }
        } else {
            buffers = MemoryCheck.mul(plan.innerRotations().size() + 4L, 2L * lay.lq(), limb);
        }
        return MemoryCheck.add(keys, diags, buffers);
    }

    public Map<String, Object> measuredJson() {
        return countsJson(counts);
    }

    /** Measured counts in the JSON reports' names and order (the {@code expected} object's keys). */
    public static Map<String, Object> countsJson(Map<Op, Long> counts) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("decompose", counts.get(Op.DECOMPOSE));
        m.put("modDown", counts.get(Op.MOD_DOWN));
        m.put("keySwitchInnerProducts", counts.get(Op.KS_INNER_PRODUCT));
        m.put("ptMuls", counts.get(Op.PT_MUL));
        m.put("ntt", counts.get(Op.NTT_LIMBS) + counts.get(Op.INTT_LIMBS));
        return m;
    }

    public static Map<String, Object> precisionJson(PrecisionStats p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("minBits", p.minBits());
        m.put("avgBits", p.avgBits());
        return m;
    }

    public static Map<String, Object> expectedJson(Cost c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("decompose", c.decompose());
        m.put("modDown", c.modDown());
        m.put("keySwitchInnerProducts", c.keySwitchInnerProducts());
        m.put("ptMuls", c.ptMuls());
        m.put("ntt", c.ntt());
        return m;
    }

    /** A ledger as {"1": {lines, readBytes, writeBytes, iterations, residentBytes, byKind…}, …}. */
    public static Map<String, Object> trafficJson(TrafficLedger l) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (TrafficLedger.PhaseTraffic p : l.phases()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("lines", p.lines());
            row.put("readBytes", p.read());
            row.put("writeBytes", p.write());
            row.put("iterations", p.iterations());
            row.put("residentBytes", p.peakResidentBytes());
            Map<String, Long> rd = new LinkedHashMap<>(), wr = new LinkedHashMap<>();
            for (LedgerKind k : LedgerKind.values()) {
                rd.put(k.jsonName(), p.readBytes().get(k));
                wr.put(k.jsonName(), p.writeBytes().get(k));
            }
            row.put("readByKind", rd);
            row.put("writeByKind", wr);
            m.put(Integer.toString(p.phase()), row);
        }
        m.put("offchipBytes", l.offchipBytes());
        return m;
    }
}
