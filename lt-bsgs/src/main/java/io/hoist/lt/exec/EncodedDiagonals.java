package io.hoist.lt.exec;

import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.PackedLimbs;
import io.hoist.ring.RnsPoly;
import io.hoist.ring.SubringPoly;
import it.unimi.dsi.fastutil.ints.Int2ObjectMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectMaps;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import java.nio.LongBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine's data of an encoded transform ({@code io.hoist.lt.EncodedTransform} wraps it): a transform's diagonals encoded for one plan at one level: F̃_r = Enc(Rot_{−k(r)}(f_r)) at scale
 * Δ_pt = q_ℓ, replicated over the slots. Precomputed: QP limbs (Q limbs for BSGS) in NTT and
 * Montgomery form, those of primes below 2^31 in {@link PackedLimbs}' layout (half the words; not
 * for BSGS); a diagonal with baby step 0 multiplies (A_0, B_0) = P·(c_0, c_1), whose P limbs are
 * zero, so it keeps its Q limbs only. Compact: one word per coefficient, expanded during evaluation.
 * Immutable; the arrays are never handed out.
 */
public final class EncodedDiagonals {
    private final CkksParameters params;
    private final Plan plan;
    private final int level;
    private final double scale;
    private final Storage storage;
    /**
     * Per diagonal, the arrays holding its QP limbs (Q limbs only for baby step 0), packed where
     * {@link #packed} says: slabs of many limbs each ({@link DiagonalEncoder}), limb j at word
     * {@code qpOff.get(r)[j]} of the slab {@code qp.get(r)}.
     */
    private final Int2ObjectMap<long[]> qp;

    private final Int2ObjectMap<int[]> qpOff;
    /** Per QP limb of the level: whether precomputed limbs of its prime are packed. */
    private final boolean[] packed;

    private final Int2ObjectMap<RnsPoly> q;
    private final Int2ObjectMap<long[]> compact;
    /** {@link #subring}'s table, built on first use. */
    private volatile Int2ObjectMap<SubringPoly> subrings;

    private final LtProgram program;

    private final boolean rescales;

    /** The diagonal sums' term tables by group of steps, built on first use and read by every evaluation. */
    final ConcurrentHashMap<DiagonalSums.GroupKey, DiagonalSums.Tables> sumTables = new ConcurrentHashMap<>();

    EncodedDiagonals(
            CkksParameters params,
            Plan plan,
            int level,
            double scale,
            Storage storage,
            Int2ObjectMap<long[]> qp,
            Int2ObjectMap<int[]> qpOff,
            Int2ObjectMap<RnsPoly> q,
            Int2ObjectMap<long[]> compact) {
        this(params, plan, level, scale, true, storage, qp, qpOff, q, compact);
    }

    EncodedDiagonals(
            CkksParameters params,
            Plan plan,
            int level,
            double scale,
            boolean rescales,
            Storage storage,
            Int2ObjectMap<long[]> qp,
            Int2ObjectMap<int[]> qpOff,
            Int2ObjectMap<RnsPoly> q,
            Int2ObjectMap<long[]> compact) {
        this(
                params,
                plan,
                level,
                scale,
                rescales,
                storage,
                qp,
                qpOff,
                q,
                compact,
                plan.algorithm() == Algorithm.BSGS
                        ? null
                        : LtProgram.compile(plan, LimbLayout.of(params, level), rescales));
    }

    /** With a program compiled once for several transforms (the blocks of a block product). */
    EncodedDiagonals(
            CkksParameters params,
            Plan plan,
            int level,
            double scale,
            boolean rescales,
            Storage storage,
            Int2ObjectMap<long[]> qp,
            Int2ObjectMap<int[]> qpOff,
            Int2ObjectMap<RnsPoly> q,
            Int2ObjectMap<long[]> compact,
            LtProgram program) {
        this.rescales = rescales;
        this.program = program;
        this.params = params;
        this.plan = plan;
        this.level = level;
        this.scale = scale;
        this.storage = storage;
        if ((qp == null) != (qpOff == null)) throw new IllegalArgumentException("limbs and offsets go together");
        this.qp = qp == null ? null : Int2ObjectMaps.unmodifiable(qp);
        this.qpOff = qpOff == null ? null : Int2ObjectMaps.unmodifiable(qpOff);
        this.packed = packedLimbs(params, level);
        this.q = q == null ? null : Int2ObjectMaps.unmodifiable(q);
        this.compact = compact == null ? null : Int2ObjectMaps.unmodifiable(compact);
    }

    public CkksParameters params() {
        return params;
    }

    public Plan plan() {
        return plan;
    }
    /** The ciphertext level the diagonals were encoded for. */
    public int level() {
        return level;
    }
    /** Δ_pt: q_ℓ, or a share of it when several transforms share level ℓ. */
    public double scale() {
        return scale;
    }
    /** Whether the evaluation rescales by q_ℓ (the output one level down); false for all but the last transform of a shared level. */
    public boolean rescales() {
        return rescales;
    }

    public Storage storage() {
        return storage;
    }
    /** The compiled program (null for BSGS, which runs full rotations instead). */
    public LtProgram program() {
        return program;
    }

    /**
     * Per QP limb of {@code level} (Q limbs, then P limbs): whether precomputed diagonals keep it in
     * {@link PackedLimbs}' layout (its prime is below 2^31).
     */
    static boolean[] packedLimbs(CkksParameters params, int level) {
        long[] primes = params.qpPrimes(level);
        boolean[] out = new boolean[primes.length];
        for (int j = 0; j < primes.length; j++) out[j] = PackedLimbs.packs(primes[j], params.n());
        return out;
    }

    /**
     * Words one diagonal of a plan with {@code algorithm} holds at {@code level} (an upper bound:
     * diagonals of baby step 0 keep their Q limbs only): N when compact; precomputed, N per Q limb for
     * BSGS, and for the hoisted algorithms N per QP limb and N/2 per packed one. What size estimates
     * use before anything is encoded.
     */
    public static long wordsPerDiagonal(CkksParameters params, int level, Storage storage, Algorithm algorithm) {
        params.checkLevel(level);
        if (storage == Storage.COMPACT) return params.n();
        if (algorithm == Algorithm.BSGS) return (long) (level + 1) * params.n();
        long words = 0;
        for (boolean p : packedLimbs(params, level)) words += p ? params.n() / 2 : params.n();
        return words;
    }

    /**
     * The array holding precomputed diagonal r's QP limbs, limb j (in {@link PackedLimbs}' layout when
     * {@link #packed(int)}) from word {@link #offsets}{@code (r)[j]}; for the kernels.
     */
    long[] slab(int r) {
        return qp.get(r);
    }

    /** The words where precomputed diagonal r's QP limbs start in {@link #slab}, by limb (the live array: for the kernels' drivers only). */
    int[] offsets(int r) {
        return qpOff.get(r);
    }

    /** Whether precomputed QP limb j is packed. */
    boolean packed(int j) {
        return packed[j];
    }

    /** Diagonal r's BSGS polynomial itself, shared (package-private: the executors read it, nobody writes it). */
    RnsPoly q(int r) {
        return q.get(r);
    }

    long[] compact(int r) {
        return compact.get(r);
    }

    /**
     * Compact diagonal r in its subring (null: in none), for BSGS's expansion: built for every diagonal on
     * first use and kept, so that an evaluation neither scans the words for the stride nor copies them.
     */
    SubringPoly subring(int r) {
        Int2ObjectMap<SubringPoly> s = subrings;
        if (s == null) {
            synchronized (this) {
                if (subrings == null) {
                    Int2ObjectOpenHashMap<SubringPoly> m = new Int2ObjectOpenHashMap<>();
                    for (var e : compact.int2ObjectEntrySet()) {
                        SubringPoly p = SubringPoly.of(e.getValue());
                        if (p != null) m.put(e.getIntKey(), p);
                    }
                    subrings = m;
                }
                s = subrings;
            }
        }
        return s.get(r);
    }

    /** Compact diagonal r's words (N signed integers) appended to {@code out}. */
    public void compactInto(int r, LongBuffer out) {
        long[] words = compact.get(r);
        if (out.remaining() < words.length)
            throw new InvalidTransformException(
                    "a compact diagonal has " + words.length + " words, the buffer room for " + out.remaining());
        out.put(words);
    }

    /**
     * A compact transform from its words: for each diagonal of {@code plan} in index order, N signed
     * integers below 2^62 in magnitude, read from {@code words}; its program compiled here. What a
     * reader of the stored form makes.
     */
    public static EncodedDiagonals ofCompact(
            CkksParameters params, Plan plan, int level, double scale, LongBuffer words) {
        if (plan.algorithm() == Algorithm.BSGS)
            throw new InvalidTransformException("compact transforms of bsgs plans are not stored");
        if (level < 1 || level > params.maxLevel())
            throw new LevelMismatchException("transform level " + level + " outside [1, " + params.maxLevel() + "]");
        if (params.slots() % plan.dimension() != 0)
            throw new InvalidTransformException(
                    "plan dimension " + plan.dimension() + " does not divide the " + params.slots() + " slots");
        long need = (long) plan.indices().size() * params.n();
        if (words.remaining() < need)
            throw new InvalidTransformException(
                    words.remaining() + " words for " + plan.indices().size() + " diagonals of N = " + params.n());
        Int2ObjectOpenHashMap<long[]> compact = new Int2ObjectOpenHashMap<>();
        for (int r : plan.indices()) {
            long[] w = new long[params.n()];
            words.get(w);
            for (long x : w)
                if (x >= (1L << 62) || x <= -(1L << 62))
                    throw new InvalidTransformException(
                            "compact word " + x + " of diagonal " + r + " is not below 2^62 in magnitude");
            compact.put(r, w);
        }
        return new EncodedDiagonals(params, plan, level, scale, Storage.COMPACT, null, null, null, compact);
    }

    /** Whether diagonal r is stored (a block of a block product holds only its own nonzero diagonals). */
    /** The first block of a grid [blockRow][blockCol] that is not all zero (every block carries the one program), or null. */
    public static EncodedDiagonals firstOf(EncodedDiagonals[][] grid) {
        for (EncodedDiagonals[] row : grid) for (EncodedDiagonals b : row) if (b != null) return b;
        return null;
    }

    public boolean contains(int r) {
        return compact != null ? compact.containsKey(r) : qp != null ? qp.containsKey(r) : q.containsKey(r);
    }

    /** The diagonals stored. */
    public int diagonalCount() {
        return compact != null ? compact.size() : qp != null ? qp.size() : q.size();
    }

    public Set<Integer> diagonalIndexSet() {
        return ImmutableSortedSet.copyOf(compact != null ? compact.keySet() : qp != null ? qp.keySet() : q.keySet());
    }

    /** Bytes held by the encoded diagonals (8 per stored word). */
    public long memoryBytes() {
        long words = 0;
        if (qpOff != null)
            for (int[] d : qpOff.values())
                for (int j = 0; j < d.length; j++) words += packed[j] ? params.n() / 2 : params.n();
        if (q != null) for (RnsPoly p : q.values()) words += (long) p.limbCount() * params.n();
        if (compact != null) for (long[] c : compact.values()) words += c.length;
        return 8 * words;
    }
}
