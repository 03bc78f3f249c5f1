package io.hoist.lt;

import com.google.common.base.Preconditions;
import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.ScaleMismatchException;
import io.hoist.ring.RnsPoly;

import java.util.List;
import java.util.TreeSet;

/**
 * The diagonal sums of one block row over some of its block columns: the U buffers of a block
 * product after phase 4 (Algorithm 2 lines 12–14, over QP, before the outer layer and the final
 * ModDown). Partials of the same row over disjoint columns {@link #plus add up} exactly (mod each
 * prime), in any order, to the partial over their union; once every column of the row is in,
 * {@link LinearTransformEvaluator#finishBlockRow} runs phases 5–6 and gives the row's output
 * ciphertext, bit-identical to {@link LinearTransformEvaluator#evaluate(List, EncodedBlockTransform)}.
 * This is how a block product is split across machines. Immutable.
 */
public final class BlockRowPartial {
    private final CkksParameters params;
    private final Plan plan;
    private final int level, blockRow;
    private final double scale;
    private final ImmutableSortedSet<Integer> columns;
    /** The phase-4 outputs in program order (U_{0,k}, U_{1,k} per giant step); never handed out. */
    private final PolyQP[] sums;

    BlockRowPartial(CkksParameters params, Plan plan, int level, int blockRow, double scale, ImmutableSortedSet<Integer> columns, PolyQP[] sums) {
        this.params = params;
        this.plan = plan;
        this.level = level;
        this.blockRow = blockRow;
        this.scale = scale;
        this.columns = columns;
        this.sums = sums;
    }

    public CkksParameters params() { return params; }
    /** The plan of the block product (one for every block). */
    public Plan plan() { return plan; }
    /** The level of the input ciphertexts (the output is one below). */
    public int level() { return level; }
    public int blockRow() { return blockRow; }
    /** The scale the row's output ciphertext will have: Δ_in·Δ_pt/q_ℓ. */
    public double scale() { return scale; }
    /** The block columns summed in. */
    public ImmutableSortedSet<Integer> columns() { return columns; }

    /** Polynomials held (each over QP, or Q only where the program keeps Q limbs only). */
    public int polynomialCount() { return sums.length; }

    /** Bytes of the residues held. */
    public long memoryBytes() {
        long limbs = 0;
        for (PolyQP p : sums) limbs += p.limbCount();
        return limbs * params.n() * 8L;
    }

    PolyQP sum(int i) {
        return sums[i];
    }

    /**
     * The partial over the columns of both, residue by residue mod each prime. Refuses partials of
     * other rows, parameters, plans, levels or scales, and overlapping columns: a column counted
     * twice would be a wrong answer.
     */
    public BlockRowPartial plus(BlockRowPartial o, CkksContext ctx) {
        checkCompatible(o);
        TreeSet<Integer> both = new TreeSet<>(columns);
        for (int c : o.columns) {
            if (!both.add(c)) throw new IllegalArgumentException("block row " + blockRow + ": column " + c + " is in both partials (it would be counted twice)");
        }
        PolyQP[] out = new PolyQP[sums.length];
        for (int i = 0; i < sums.length; i++) {
            PolyQP a = sums[i], b = o.sums[i];
            RnsPoly q = ctx.ringQ().newPoly(a.q().level(), a.q().domain());
            ctx.ringQ().add(a.q(), b.q(), q);
            RnsPoly p = null;
            if (a.p() != null) {
                p = ctx.ringP().newPoly(a.p().level(), a.p().domain());
                ctx.ringP().add(a.p(), b.p(), p);
            }
            out[i] = new PolyQP(q, p);
        }
        return new BlockRowPartial(params, plan, level, blockRow, scale, ImmutableSortedSet.copyOf(both), out);
    }

    /** The sum of partials of one row (at least one), in the order given: the result does not depend on it. */
    public static BlockRowPartial sum(List<BlockRowPartial> parts, CkksContext ctx) {
        Preconditions.checkArgument(!parts.isEmpty(), "no partials to sum");
        BlockRowPartial s = parts.get(0);
        for (int i = 1; i < parts.size(); i++) s = s.plus(parts.get(i), ctx);
        return s;
    }

    private void checkCompatible(BlockRowPartial o) {
        if (!o.params.equals(params)) throw new ParameterMismatchException("partials made under other parameters");
        if (o.blockRow != blockRow) throw new IllegalArgumentException("partials of block rows " + blockRow + " and " + o.blockRow + " do not add up");
        if (!o.plan.equals(plan) || o.level != level) {
            throw new IllegalArgumentException("block row " + blockRow + ": partials of other plans or levels (" + plan.describe() + " at level " + level + " vs " + o.plan.describe() + " at level " + o.level + ")");
        }
        if (o.scale != scale) throw new ScaleMismatchException("block row " + blockRow + ": partials with scales " + scale + " and " + o.scale);
        if (o.sums.length != sums.length) throw new IllegalArgumentException("partials with " + sums.length + " and " + o.sums.length + " polynomials");
    }

    @Override
    public String toString() {
        return "BlockRowPartial[row " + blockRow + ", columns " + columns + ", " + plan.describe() + ", level " + level + "]";
    }
}
