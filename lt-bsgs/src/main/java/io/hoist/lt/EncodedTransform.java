package io.hoist.lt;

import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.PolyQP;
import io.hoist.ring.RnsPoly;
import it.unimi.dsi.fastutil.ints.Int2ObjectMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectMaps;
import java.util.Set;

/**
 * A transform's diagonals encoded for one plan at one level: F̃_r = Enc(Rot_{−k(r)}(f_r)) at scale
 * Δ_pt = q_ℓ, replicated over the slots. Precomputed: QP limbs (Q limbs for BSGS) in NTT and
 * Montgomery form; a diagonal with baby step 0 multiplies (A_0, B_0) = P·(c_0, c_1), whose P limbs are
 * zero, so it keeps its Q limbs only. Compact: one word per coefficient, expanded during evaluation. Immutable.
 */
public final class EncodedTransform {
    private final CkksParameters params;
    private final Plan plan;
    private final int level;
    private final double scale;
    private final Storage storage;
    private final Int2ObjectMap<PolyQP> qp;
    private final Int2ObjectMap<RnsPoly> q;
    private final Int2ObjectMap<long[]> compact;
    private final LtProgram program;

    private final boolean rescales;

    EncodedTransform(
            CkksParameters params,
            Plan plan,
            int level,
            double scale,
            Storage storage,
            Int2ObjectMap<PolyQP> qp,
            Int2ObjectMap<RnsPoly> q,
            Int2ObjectMap<long[]> compact) {
        this(params, plan, level, scale, true, storage, qp, q, compact);
    }

    EncodedTransform(
            CkksParameters params,
            Plan plan,
            int level,
            double scale,
            boolean rescales,
            Storage storage,
            Int2ObjectMap<PolyQP> qp,
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
                q,
                compact,
                plan.algorithm() == Algorithm.BSGS
                        ? null
                        : LtProgram.compile(plan, LimbLayout.of(params, level), rescales));
    }

    /** With a program compiled once for several transforms (the blocks of a block product). */
    EncodedTransform(
            CkksParameters params,
            Plan plan,
            int level,
            double scale,
            boolean rescales,
            Storage storage,
            Int2ObjectMap<PolyQP> qp,
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
        this.qp = qp == null ? null : Int2ObjectMaps.unmodifiable(qp);
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

    PolyQP qp(int r) {
        return qp.get(r);
    }

    RnsPoly q(int r) {
        return q.get(r);
    }

    long[] compact(int r) {
        return compact.get(r);
    }

    /** Whether diagonal r is stored (a block of a block product holds only its own nonzero diagonals). */
    boolean contains(int r) {
        return compact != null ? compact.containsKey(r) : qp != null ? qp.containsKey(r) : q.containsKey(r);
    }

    /** The diagonals stored. */
    int diagonalCount() {
        return compact != null ? compact.size() : qp != null ? qp.size() : q.size();
    }

    Set<Integer> diagonalIndexSet() {
        return ImmutableSortedSet.copyOf(compact != null ? compact.keySet() : qp != null ? qp.keySet() : q.keySet());
    }

    /** Bytes held by the encoded diagonals (8 per stored word). */
    public long memoryBytes() {
        long words = 0;
        if (qp != null)
            for (PolyQP p : qp.values())
                words += (long) (p.q().limbCount() + (p.p() == null ? 0 : p.p().limbCount())) * params.n();
        if (q != null) for (RnsPoly p : q.values()) words += (long) p.limbCount() * params.n();
        if (compact != null) for (long[] c : compact.values()) words += c.length;
        return 8 * words;
    }
}
