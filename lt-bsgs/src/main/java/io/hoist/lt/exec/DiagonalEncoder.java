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
import io.hoist.ring.OpCounters;
import io.hoist.ring.PackedLimbs;
import io.hoist.ring.Parallel;
import io.hoist.ring.RnsPoly;
import io.hoist.ring.SubringPoly;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
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

    /** Least words per slab when there are several (see {@link #SLAB_WORDS}). */
    private final int slabWords;

    public DiagonalEncoder(CkksContext ctx) {
        this(ctx, SLAB_WORDS);
    }

    /** With slabs of at least about {@code slabWords} words (tests: many small slabs). */
    DiagonalEncoder(CkksContext ctx, int slabWords) {
        if (slabWords < 1) throw new IllegalArgumentException("slab words must be positive: " + slabWords);
        this.slabWords = slabWords;
        this.ctx = ctx;
        this.params = ctx.params();
        this.encoder = new Encoder(ctx);
        this.kernels = ctx.engine().kernels();
    }

    public void checkEncode(int dimension, int level, double scale, boolean rescale) {
        if (dimension < 1 || params.slots() % dimension != 0) {
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
        Int2ObjectOpenHashMap<long[]> qp = new Int2ObjectOpenHashMap<>();
        Int2ObjectOpenHashMap<int[]> qpOff = new Int2ObjectOpenHashMap<>();
        Int2ObjectOpenHashMap<RnsPoly> q = new Int2ObjectOpenHashMap<>();
        Int2ObjectOpenHashMap<long[]> compact = new Int2ObjectOpenHashMap<>();
        int[] rs = t.diagonalIndices().stream().mapToInt(Integer::intValue).toArray();
        Object[] encoded =
                new Object[rs.length]; // each diagonal is independent: encoded over the engine's threads, one slot each
        AtomicInteger done = new AtomicInteger();
        boolean slabbed = storage == Storage.PRECOMPUTED && !overQ;
        // which limbs end packed: only precomputed diagonals of the hoisted algorithms
        boolean[] packed = slabbed ? EncodedDiagonals.packedLimbs(params, level) : new boolean[level + 1];
        Slabs slabs = slabbed
                ? Slabs.layOut(
                        rs,
                        plan,
                        level,
                        packed,
                        params.n(),
                        slabWords,
                        ctx.engine().threads())
                : null;
        // a transform smaller than the slots repeats over them: each diagonal is encoded from one period
        // (an FFT of that size, the same integers); it lies in a subring whose limbs transform at that size
        int period = periodOf(t.dimension());
        // each diagonal is independent: chunks over the engine's threads, one slot each; a chunk
        // reuses one set of slot and coefficient buffers (they stay in cache instead of streaming
        // 192 KB of fresh memory per diagonal at N = 2^13)
        Parallel.forEachChunk(ctx.engine().threads(), rs.length, (from, to) -> {
            double[] re = new double[period], im = new double[period];
            long[] scratch = storage == Storage.COMPACT ? null : new long[params.n()];
            long[][] row = {slabbed ? new long[params.n()] : null};
            for (int i = from; i < to; i++) {
                int r = rs[i], k = plan.outer(r);
                preRotated(t.diagonal(r), k, re, im);
                long[] coeffs = scratch != null ? scratch : new long[params.n()];
                encoder.encodeToIntegersPeriodic(re, im, scale, coeffs); // period = slots: encodeToIntegers
                if (storage == Storage.COMPACT) encoded[i] = coeffs;
                else if (overQ) encoded[i] = ctx.ringQ().wrap(liftMontgomery(coeffs, level, level + 1), Domain.NTT);
                else liftMontgomeryInto(coeffs, level, packed, row, slabs.array(i), slabs.offsets[i]);
                synchronized (progress) {
                    progress.step(done.incrementAndGet(), rs.length);
                } // monotonic for the bars
            }
        });
        for (int i = 0; i < rs.length; i++) {
            if (slabbed) {
                qp.put(rs[i], slabs.array(i));
                qpOff.put(rs[i], slabs.offsets[i]);
                continue;
            }
            switch (encoded[i]) {
                case long[] c -> compact.put(rs[i], c);
                case RnsPoly p -> q.put(rs[i], p);
                default -> throw new AssertionError(encoded[i]);
            }
        }
        var qpm = slabbed ? qp : null;
        var qpo = slabbed ? qpOff : null;
        var qm = storage == Storage.PRECOMPUTED && overQ ? q : null;
        var cm = storage == Storage.COMPACT ? compact : null;
        if (program == null)
            return new EncodedDiagonals(params, plan, level, scale, rescale, storage, qpm, qpo, qm, cm);
        return new EncodedDiagonals(params, plan, level, scale, rescale, storage, qpm, qpo, qm, cm, program);
    }

    /**
     * Where the precomputed diagonals' limbs go: each diagonal's limbs contiguous in one slab, the slabs
     * allocated before encoding starts. Limb-sized arrays that live as long as the transform were each
     * copied once out of the young generation, at collections that stop every encoding thread (0.5–0.7 s
     * per encoding of the demo's 1.07 GB). A transform of at least {@link #SLAB_WORDS} words gets
     * slabs of 1–2 × that size, larger than the launcher's eden, which the JVM allocates in the old
     * generation, never to be copied; a smaller one (and each block of a block product) gets one slab,
     * which may start in eden and is then copied once, as one array.
     */
    private static final class Slabs {
        final long[][] slabs;
        final int[] slabOf;
        /** Per diagonal, the word of each of its limbs in its slab. */
        final int[][] offsets;

        private Slabs(long[][] slabs, int[] slabOf, int[][] offsets) {
            this.slabs = slabs;
            this.slabOf = slabOf;
            this.offsets = offsets;
        }

        long[] array(int i) {
            return slabs[slabOf[i]];
        }

        static Slabs layOut(int[] rs, Plan plan, int level, boolean[] packed, int n, int slabWords, int threads) {
            int[] slabOf = new int[rs.length], limbs = new int[rs.length];
            long[] words = new long[rs.length];
            long total = 0;
            for (int i = 0; i < rs.length; i++) {
                limbs[i] = plan.baby(rs[i]) == 0 ? level + 1 : packed.length; // baby 0 multiplies P·c: no P limbs
                for (int j = 0; j < limbs[i]; j++) words[i] += packed[j] ? n / 2 : n;
                total += words[i];
            }
            // floor(total / slabWords) slabs (at least one) of about equal size: each at least about
            // slabWords, so above eden; diagonal i goes to the slab its first word falls in
            long count = Math.max(1, total / slabWords);
            int[][] offsets = new int[rs.length][];
            LongArrayList sizes = new LongArrayList();
            long start = 0, used = 0;
            for (int i = 0; i < rs.length; i++) {
                int s = (int) Math.min(count - 1, start * count / total);
                if (sizes.isEmpty() || s > sizes.size() - 1) {
                    if (!sizes.isEmpty()) sizes.set(sizes.size() - 1, used);
                    sizes.add(0);
                    used = 0;
                }
                if (used + words[i] > Integer.MAX_VALUE - 8)
                    throw new InvalidTransformException(
                            "diagonals of " + (used + words[i]) + " words do not fit one array");
                slabOf[i] = sizes.size() - 1;
                offsets[i] = new int[limbs[i]];
                for (int j = 0, off = (int) used; j < limbs[i]; off += packed[j] ? n / 2 : n, j++) offsets[i][j] = off;
                used += words[i];
                start += words[i];
            }
            if (!sizes.isEmpty()) sizes.set(sizes.size() - 1, used);
            // allocated over the threads: the JVM zeroes each slab in the thread that allocates it
            // (the demo's 4 slabs of 256 MB: 130–150 ms in one thread, 70–80 ms in two, more on first touch)
            long[][] slabs = new long[sizes.size()][];
            Parallel.forEach(threads, slabs.length, s -> slabs[s] = new long[(int) sizes.getLong(s)]);
            return new Slabs(slabs, slabOf, offsets);
        }
    }

    /** Least words per slab when there are several: 256 MB, above the launcher's eden (171 MB of its 256 MB young generation). */
    static final int SLAB_WORDS = 1 << 25;

    /** The slots when n is not a power of two below them; else n, the period of every replicated vector. */
    private int periodOf(int n) {
        int slots = params.slots();
        return n < slots && Integer.bitCount(n) == 1 ? n : slots;
    }

    /**
     * Rot_{−k}(f) repeated over re.length values (the slots, or one period of them), into {@code re} and
     * {@code im} (the encoder's scratch) — the pre-rotation f ⊙ Rot_{k+b}(x) = Rot_k(Rot_{−k}(f) ⊙ Rot_b(x))
     * and the replication in one pass.
     */
    void preRotated(ComplexVector f, int k, double[] re, double[] im) {
        int slots = re.length, n = f.length();
        for (int s = 0, src = Math.floorMod(-k, n); s < slots; s++) { // src = (s − k) mod n, without a division
            re[s] = f.re(src);
            im[s] = f.im(src);
            if (++src == n) src = 0;
        }
    }

    /**
     * Limbs [0, limbs) of level ℓ's QP basis of c·2^64 (Montgomery form), transformed: the form the
     * executors multiply with, in one vector pass per limb before its NTT (NTT(R·c) = R·NTT(c)) —
     * the same residues as lifting, transforming and converting, as the compact expansion makes.
     */
    long[][] liftMontgomery(long[] coeffs, int level, int limbs) {
        OpCounters c = ctx.engine().counters();
        int n = ctx.params().n();
        long[][] out = new long[limbs][];
        NttTables[] t = new NttTables[limbs];
        SubringPoly sub = SubringPoly.of(coeffs);
        for (int j = 0; j < limbs; j++) {
            t[j] = ctx.tablesQP(level, j);
            out[j] = new long[n];
            liftLimb(ctx, sub, coeffs, t[j], c, out[j]);
        }
        if (sub == null) ctx.engine().forward(out, t, limbs, c);
        return out;
    }

    /**
     * Limb out of coeffs modulo t's prime in Montgomery form: transformed when {@code sub} (coeffs in a
     * subring) is not null, by one NTT of size N/g counted in c; else only lifted (the caller transforms it,
     * batched). The encoder's limbs and the compact expansions (the diagonal sums', BSGS's) alike.
     */
    static void liftLimb(CkksContext ctx, SubringPoly sub, long[] coeffs, NttTables t, OpCounters c, long[] out) {
        LimbKernels k = ctx.engine().kernels();
        if (sub != null) sub.liftForward(t.montgomeryR(), t.montgomeryRShoup(), t, ctx.engine(), k, c, out);
        else k.liftSigned(coeffs, t.montgomeryR(), t.montgomeryRShoup(), t.q(), out);
    }

    /**
     * {@link #liftMontgomery}'s limbs [0, offsets.length) written into {@code slab} at {@code offsets}, each lifted and
     * transformed in {@code row} (one reused limb, so it stays in cache) and copied, or packed in
     * {@link PackedLimbs}' layout where {@code packed} says.
     */
    void liftMontgomeryInto(long[] coeffs, int level, boolean[] packed, long[][] row, long[] slab, int[] offsets) {
        NttTables[] t = new NttTables[1];
        SubringPoly sub = SubringPoly.of(coeffs);
        for (int j = 0; j < offsets.length; j++) {
            t[0] = ctx.tablesQP(level, j);
            liftLimb(ctx, sub, coeffs, t[0], ctx.engine().counters(), row[0]);
            if (sub == null) ctx.engine().forward(row, t, 1);
            if (packed[j]) PackedLimbs.pack(row[0], slab, offsets[j]);
            else System.arraycopy(row[0], 0, slab, offsets[j], params.n());
        }
    }
}
