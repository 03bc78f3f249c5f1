package io.hoist.lt.exec;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.InvalidScaleException;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.Progress;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Diagonals;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.NttTables;
import io.hoist.ring.PackedLimbs;
import io.hoist.ring.Parallel;
import io.hoist.ring.RnsPoly;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Encodes diagonals for a plan (pre-rotated by their outer step, replicated over the slots, lifted to
 * Montgomery form and transformed, or kept compact), single transforms and every block of a block
 * matrix. The encoding half of the evaluator; not for users.
 */
public final class DiagonalEncoder {
    private final CkksContext ctx;
    private final CkksParameters params;
    private final Encoder encoder;
    private final LimbKernels kernels;

    public DiagonalEncoder(CkksContext ctx) {
        this.ctx = ctx;
        this.params = ctx.params();
        this.encoder = new Encoder(ctx);
        this.kernels = ctx.engine().kernels();
    }

    public void checkEncode(int dimension, int level, double scale, boolean rescale) {
        if (params.slots() % dimension != 0) {
            throw new InvalidTransformException(
                    "transform dimension " + dimension + " does not divide the " + params.slots() + " slots");
        }
        if (level < (rescale ? 1 : 0) || level > params.maxLevel()) {
            throw new LevelMismatchException("linear transforms need a ciphertext level in [" + (rescale ? 1 : 0) + ", "
                    + params.maxLevel() + "], got " + level);
        }
        if (!(scale >= 2) || Double.isInfinite(scale))
            throw new InvalidScaleException("a transform's plaintext scale must be finite and ≥ 2, got " + scale);
    }

    /** Encodes {@code t}'s diagonals (a subset of the plan's) for {@code plan}; {@code program} is compiled when null. */
    public EncodedDiagonals encodeDiagonals(
            Diagonals t,
            Plan plan,
            int level,
            Storage storage,
            double scale,
            boolean rescale,
            Progress progress,
            LtProgram program) {
        boolean overQ = plan.algorithm() == Algorithm.BSGS;
        Int2ObjectOpenHashMap<long[][]> qp = new Int2ObjectOpenHashMap<>();
        Int2ObjectOpenHashMap<RnsPoly> q = new Int2ObjectOpenHashMap<>();
        Int2ObjectOpenHashMap<long[]> compact = new Int2ObjectOpenHashMap<>();
        int[] rs = t.diagonalIndices().stream().mapToInt(Integer::intValue).toArray();
        Object[] encoded =
                new Object[rs.length]; // each diagonal is independent: encoded over the engine's threads, one slot each
        AtomicInteger done = new AtomicInteger();
        // which limbs end packed: only precomputed diagonals of the hoisted algorithms
        boolean[] packed = overQ || storage == Storage.COMPACT
                ? new boolean[level + 1]
                : EncodedDiagonals.packedLimbs(params, level);
        // each diagonal is independent: chunks over the engine's threads, one slot each; a chunk
        // reuses one set of slot and coefficient buffers (they stay in cache instead of streaming
        // 192 KB of fresh memory per diagonal at N = 2^13)
        Parallel.forEachChunk(ctx.engine().threads(), rs.length, (from, to) -> {
            double[] re = new double[params.slots()], im = new double[params.slots()];
            long[] scratch = storage == Storage.COMPACT ? null : new long[params.n()];
            // limbs that end packed are lifted and transformed here, so only their halves are allocated
            long[][] work = new long[packed.length][];
            for (int j = 0; j < packed.length; j++) if (packed[j]) work[j] = new long[params.n()];
            for (int i = from; i < to; i++) {
                int r = rs[i], k = plan.outer(r);
                preRotated(t.diagonal(r), k, re, im);
                long[] coeffs = scratch != null ? scratch : new long[params.n()];
                encoder.encodeToIntegers(re, im, scale, coeffs);
                if (storage == Storage.COMPACT) encoded[i] = coeffs;
                else if (overQ)
                    encoded[i] = ctx.ringQ().wrap(liftMontgomery(coeffs, level, level + 1, packed, work), Domain.NTT);
                else {
                    int limbs = plan.baby(r) == 0 ? level + 1 : packed.length; // baby 0 multiplies P·c: no P limbs
                    encoded[i] = liftMontgomery(coeffs, level, limbs, packed, work);
                }
                synchronized (progress) {
                    progress.step(done.incrementAndGet(), rs.length);
                } // monotonic for the bars
            }
        });
        for (int i = 0; i < rs.length; i++) {
            switch (encoded[i]) {
                case long[] c -> compact.put(rs[i], c);
                case RnsPoly p -> q.put(rs[i], p);
                case long[][] p -> qp.put(rs[i], p);
                default -> throw new AssertionError(encoded[i]);
            }
        }
        var qpm = storage == Storage.PRECOMPUTED && !overQ ? qp : null;
        var qm = storage == Storage.PRECOMPUTED && overQ ? q : null;
        var cm = storage == Storage.COMPACT ? compact : null;
        if (program == null) return new EncodedDiagonals(params, plan, level, scale, rescale, storage, qpm, qm, cm);
        return new EncodedDiagonals(params, plan, level, scale, rescale, storage, qpm, qm, cm, program);
    }

    /**
     * Rot_{−k}(f) repeated over the slots, into {@code re} and {@code im} (the encoder's scratch) —
     * the pre-rotation f ⊙ Rot_{k+b}(x) = Rot_k(Rot_{−k}(f) ⊙ Rot_b(x)) and the replication in one pass.
     */
    void preRotated(ComplexVector f, int k, double[] re, double[] im) {
        int slots = params.slots(), n = f.length();
        for (int s = 0, src = Math.floorMod(-k, n); s < slots; s++) { // src = (s − k) mod n, without a division
            re[s] = f.re(src);
            im[s] = f.im(src);
            if (++src == n) src = 0;
        }
    }

    /**
     * Limbs [0, limbs) of level ℓ's QP basis of c·2^64 (Montgomery form), transformed: the form the
     * executors multiply with, in one vector pass per limb before its NTT (NTT(R·c) = R·NTT(c)) —
     * the same residues as lifting, transforming and converting, as the compact expansion makes. The
     * limbs that {@code packed} marks end in {@link PackedLimbs}' layout: they are lifted and
     * transformed in {@code work} (reused) and only their packed halves kept.
     */
    long[][] liftMontgomery(long[] coeffs, int level, int limbs, boolean[] packed, long[][] work) {
        long[][] out = new long[limbs][];
        NttTables[] t = new NttTables[limbs];
        for (int j = 0; j < limbs; j++) {
            t[j] = ctx.tablesQP(level, j);
            out[j] = packed[j] ? work[j] : new long[params.n()];
            kernels.liftSigned(coeffs, t[j].montgomeryR(), t[j].montgomeryRShoup(), t[j].q(), out[j]);
        }
        ctx.engine().forward(out, t, limbs);
        for (int j = 0; j < limbs; j++) if (packed[j]) out[j] = PackedLimbs.pack(out[j]);
        return out;
    }
}
