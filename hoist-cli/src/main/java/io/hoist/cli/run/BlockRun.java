package io.hoist.cli.run;

import com.google.common.math.Quantiles;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.BlockEvaluation;
import io.hoist.lt.BlockLinearTransform;
import io.hoist.lt.EncodedBlockTransform;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.Schedule;
import io.hoist.lt.schedule.TrafficLedger;
import io.hoist.ring.Op;
import io.hoist.ring.Parallel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One encrypted block matrix–vector product end to end ({@code hoist lt --rows R --cols C}): a
 * random dense R×C matrix generated block by block from a seed, keys for the shared plan, every
 * block encoded, the input vector encrypted as one ciphertext per block column, evaluated (first
 * and warm), checked against the plaintext product computed from the matrix entries directly.
 */
public final class BlockRun {
    public final CkksParameters params;
    public final BlockLinearTransform matrix;
    public final Plan plan;
    public final Storage storage;
    final long seed;
    public final Schedule schedule;
    public int runs = 1;
    public boolean quiet, compareDirect;

    public Cost expected;
    public Map<Op, Long> counts;
    public PrecisionStats precision;
    /** Its times: keygen, encoding, the evaluations and the waits for the kernel warm-up. */
    public final RunMillis millis = new RunMillis();
    /** Bytes allocated by all threads during the first and during the last timed evaluation (−1: not measurable). */
    public long allocatedFirst = -1, allocatedWarm = -1;

    public int rotationKeys, nonzeroBlocks;
    public long keyBytes, diagonalBytes;
    public String backend;
    /** Kernel id → form on this engine, and where the choice came from (see NttEngine#kernelForms). */
    public Map<String, String> kernels;

    public int threads;
    /** Phased schedule only: the grouping run, the ledger measured and the one predicted (closed form or dry walk). */
    public Grouping grouping;

    public TrafficLedger measuredTraffic, expectedTraffic;
    /** With {@code compareDirect}: the direct schedule on the same inputs, alternated with the phased one. */
    public Boolean bitIdenticalToDirect;

    public double directMillis = Double.NaN;
    public double[] directMillisAll;

    public BlockRun(
            CkksParameters params,
            BlockLinearTransform matrix,
            Plan plan,
            Storage storage,
            long seed,
            Schedule schedule) {
        this.params = params;
        this.matrix = matrix;
        this.plan = plan;
        this.storage = storage;
        this.seed = seed;
        this.schedule = schedule;
    }

    /** Entry (i, j) of the random test matrix (see {@link BlockLinearTransform#randomEntries}). */
    public static BlockLinearTransform.Entries randomEntries(long seed, int cols) {
        return BlockLinearTransform.randomEntries(seed, cols);
    }

    public void run(CkksContext ctx) {
        ctx.startKernelWarmup(); // JIT warm-up overlapping keygen and encoding
        backend = ctx.engine().backend().name();
        kernels = ctx.engine().kernelForms();
        threads = ctx.engine().threads();
        int level = params.maxLevel();
        millis.keygenWait = WarmupWait.onFewProcessors(ctx);
        Keys made = keygen(ctx, plan, level, quiet);
        SecretKey sk = made.secret();
        RotationKeySet keys = made.rotations();
        millis.keygen = made.millis();
        rotationKeys = keys.size();
        keyBytes = keys.sizes().fullBytes();

        LinearTransformEvaluator lte = new LinearTransformEvaluator(ctx, keys, schedule);
        long t0 = System.nanoTime();
        EncodedBlockTransform ebt;
        try (Bars bar = Bars.of("encode blocks", quiet)) {
            ebt = lte.encode(matrix, plan, level, storage, bar);
        }
        millis.encode = (System.nanoTime() - t0) / 1e6;
        diagonalBytes = ebt.memoryBytes();
        nonzeroBlocks = ebt.nonzeroBlocks();
        expected = ebt.cost();

        Encoder encoder = new Encoder(ctx);
        Encryptor enc = Encryptor.withSecretKey(ctx, sk);
        ComplexVector x = ComplexVector.random(new SplittableRandom(seed + 1), matrix.cols());
        List<Ciphertext> in = encryptColumns(params, matrix, x, enc, encoder, level);

        millis.evaluateWait = WarmupWait.beforeTiming(ctx);
        long a0 = BootstrapRun.allocatedAllThreads();
        t0 = System.nanoTime();
        BlockEvaluation ev = lte.evaluate(in, ebt); // pays the JIT's warm-up: reported apart
        millis.firstEvaluate = (System.nanoTime() - t0) / 1e6;
        if (a0 >= 0) allocatedFirst = BootstrapRun.allocatedAllThreads() - a0;
        millis.evaluateRuns = new double[runs];
        if (compareDirect) {
            bitIdenticalToDirect =
                    lte.evaluate(in, ebt, Schedule.direct()).outputs().equals(ev.outputs());
            directMillisAll = new double[runs];
        }
        for (int i = 0; i < runs; i++) { // with compareDirect the two schedules alternate, so drift hits both alike
            a0 = BootstrapRun.allocatedAllThreads();
            t0 = System.nanoTime();
            ev = lte.evaluate(in, ebt);
            millis.evaluateRuns[i] = (System.nanoTime() - t0) / 1e6;
            if (a0 >= 0) allocatedWarm = BootstrapRun.allocatedAllThreads() - a0;
            if (compareDirect) {
                t0 = System.nanoTime();
                lte.evaluate(in, ebt, Schedule.direct());
                directMillisAll[i] = (System.nanoTime() - t0) / 1e6;
            }
        }
        millis.evaluate = Quantiles.median().compute(millis.evaluateRuns);
        if (compareDirect) directMillis = Quantiles.median().compute(directMillisAll);
        counts = ev.counts();
        if (ev.traffic().isPresent()) {
            grouping = ev.grouping().orElse(null);
            measuredTraffic = ev.traffic().get();
            expectedTraffic = ebt.traffic(
                    grouping == null
                            ? Grouping.minimal()
                            : grouping); // null only for an all-zero matrix: empty either way
        }

        Decryptor dec = new Decryptor(ctx, sk);
        List<ComplexVector> parts = new ArrayList<>();
        for (Ciphertext c : ev.outputs()) parts.add(dec.decryptAndDecode(c, encoder));
        precision = PrecisionStats.of(reference(x), matrix.joinOutput(parts));
    }

    /** A fresh secret key and exactly {@code plan}'s rotation keys at {@code level}, with the time it took. */
    public record Keys(SecretKey secret, RotationKeySet rotations, double millis) {}

    public static Keys keygen(CkksContext ctx, Plan plan, int level, boolean quiet) {
        long t0 = System.nanoTime();
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        try (Bars bar = Bars.of("keygen", quiet)) {
            RotationKeySet keys = kg.genRotationKeys(sk, level, plan.rotationKeys(ctx.params()), bar);
            return new Keys(sk, keys, (System.nanoTime() - t0) / 1e6);
        }
    }

    /** x cut into the matrix's block columns, each part replicated over the slots and encrypted at {@code level} with the default scale. */
    public static List<Ciphertext> encryptColumns(
            CkksParameters p, BlockLinearTransform matrix, ComplexVector x, Encryptor enc, Encoder encoder, int level) {
        List<Ciphertext> in = new ArrayList<>();
        for (ComplexVector part : matrix.splitInput(x))
            in.add(enc.encrypt(encoder.encode(matrix.replicate(part, p.slots()), level, p.defaultScale())));
        return in;
    }

    /** M·x straight from the entries (row by row), independent of the block and diagonal machinery. */
    private ComplexVector reference(ComplexVector x) {
        return reference(randomEntries(seed, matrix.cols()), matrix.rows(), matrix.cols(), x, threads);
    }

    /** M·x for the m×n matrix of {@code e}, rows spread over {@code threads}. */
    public static ComplexVector reference(BlockLinearTransform.Entries e, int m, int n, ComplexVector x, int threads) {
        double[] re = new double[m], im = new double[m];
        Parallel.forEach(Math.max(1, threads), m, i -> {
            double a = 0, b = 0;
            for (int j = 0; j < n; j++) {
                double v = e.at(i, j);
                a += v * x.re(j);
                b += v * x.im(j);
            }
            re[i] = a;
            im[i] = b;
        });
        return new ComplexVector(re, im);
    }

    public boolean countsMatch() {
        return LtRun.countsMatch(counts, expected);
    }

    public boolean trafficMatches() {
        return measuredTraffic == null || measuredTraffic.equals(expectedTraffic);
    }

    public int status() {
        if (!countsMatch() || !trafficMatches() || Boolean.FALSE.equals(bitIdenticalToDirect)) return 3;
        return precision.minBits() < LtRun.PRECISION_FLOOR_BITS ? 4 : 0;
    }
}
