package io.hoist.lt;

import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.InvalidScaleException;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.ScaleMismatchException;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.ring.Domain;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
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

    BlockRowPartial(
            CkksParameters params,
            Plan plan,
            int level,
            int blockRow,
            double scale,
            ImmutableSortedSet<Integer> columns,
            PolyQP[] sums) {
        this.params = params;
        this.plan = plan;
        this.level = level;
        this.blockRow = blockRow;
        this.scale = scale;
        this.columns = columns;
        this.sums = sums;
    }

    public CkksParameters params() {
        return params;
    }
    /** The plan of the block product (one for every block). */
    public Plan plan() {
        return plan;
    }
    /** The level of the input ciphertexts (the output is one below). */
    public int level() {
        return level;
    }

    public int blockRow() {
        return blockRow;
    }
    /** The scale the row's output ciphertext will have: Δ_in·Δ_pt/q_ℓ. */
    public double scale() {
        return scale;
    }
    /** The block columns summed in. */
    public SortedSet<Integer> columns() {
        return columns;
    }

    /** Polynomials held (each over QP, or Q only where the program keeps Q limbs only). */
    public int polynomialCount() {
        return sums.length;
    }

    /** Bytes of the residues held. */
    public long memoryBytes() {
        long limbs = 0;
        for (PolyQP p : sums) limbs += p.limbCount();
        return limbs * params.n() * 8L;
    }

    /** Partial polynomial i (U_{0,k}, U_{1,k} per giant step, in program order), a copy. */
    public PolyQP sum(int i) {
        if (i < 0 || i >= sums.length)
            throw new InvalidTransformException("no polynomial " + i + " in a partial of " + sums.length);
        PolyQP p = sums[i];
        return p.copy();
    }

    /** The sums, live: for the engine's finishing phases only. */
    List<PolyQP> sumsView() {
        return Arrays.asList(sums);
    }

    /**
     * A block row's partial from its parts (a reader's or a distributed task's): the plan of a
     * hoisted algorithm, {@code level} in [1, L], a positive finite output scale, at least one block
     * column, and one polynomial per sum buffer of the plan's program at that level, each over Q_ℓ
     * (and P where the program keeps P limbs) in the NTT domain. The polynomials are copied.
     *
     * @throws InvalidTransformException if a part does not fit the plan
     */
    public static BlockRowPartial of(
            CkksParameters params,
            Plan plan,
            int level,
            int blockRow,
            double scale,
            SortedSet<Integer> columns,
            List<PolyQP> sums) {
        Objects.requireNonNull(params, "params is null");
        Objects.requireNonNull(plan, "plan is null");
        Objects.requireNonNull(columns, "columns is null");
        Objects.requireNonNull(sums, "sums is null");
        if (plan.algorithm() == Algorithm.BSGS)
            throw new InvalidTransformException("block products have no bsgs partials");
        if (level < 1 || level > params.maxLevel())
            throw new LevelMismatchException("partial at level " + level + " outside [1, " + params.maxLevel() + "]");
        if (!(scale > 0) || Double.isInfinite(scale)) throw new InvalidScaleException("partial with scale " + scale);
        if (blockRow < 0 || columns.isEmpty() || columns.first() < 0)
            throw new InvalidTransformException("partial of block row " + blockRow + " over columns " + columns);
        LtProgram prog = LtProgram.compile(plan, LimbLayout.of(params, level));
        List<Integer> ids = prog.sumBuffers();
        if (sums.size() != ids.size())
            throw new InvalidTransformException(
                    "partial with " + sums.size() + " polynomials, its plan sums into " + ids.size());
        PolyQP[] copy = new PolyQP[sums.size()];
        for (int i = 0; i < copy.length; i++) {
            PolyQP u = Objects.requireNonNull(sums.get(i), "sum " + i);
            boolean qOnly = prog.buffer(ids.get(i)).qOnly();
            if (u.domain() != Domain.NTT
                    || u.q().limbCount() != level + 1
                    || (u.isQOnly()) != qOnly
                    || (!u.isQOnly() && u.p().limbCount() != params.alpha()))
                throw new InvalidTransformException(
                        "partial polynomial " + i + " does not have the shape of the plan's sums");
            // residues modulo other primes would finish into a wrong ciphertext, not an error
            if (!params.isRingQ(u.q().ring()) || (!u.isQOnly() && !params.isRingP(u.p().ring())))
                throw new ParameterMismatchException(
                        "partial polynomial " + i + " belongs to another ring than the partial's parameters");
            copy[i] = u.copy();
        }
        return new BlockRowPartial(params, plan, level, blockRow, scale, ImmutableSortedSet.copyOf(columns), copy);
    }

    /**
     * The partial over the columns of both, residue by residue mod each prime. Refuses partials of
     * other rows, parameters, plans, levels or scales, and overlapping columns: a column counted
     * twice would be a wrong answer.
     */
    public BlockRowPartial plus(BlockRowPartial o, CkksContext ctx) {
        return sum(List.of(this, o), ctx);
    }

    /**
     * The sum of partials of one row (at least one), in the order given — the result does not
     * depend on it. One accumulator: the partials are read one at a time, so {@code parts} may
     * produce them lazily (parsed from bytes as the iteration reaches them).
     */
    public static BlockRowPartial sum(Iterable<BlockRowPartial> parts, CkksContext ctx) {
        Iterator<BlockRowPartial> it = parts.iterator();
        InvalidTransformException.check(it.hasNext(), "no partials to sum");
        BlockRowPartial first = it.next();
        TreeSet<Integer> cols = new TreeSet<>(first.columns);
        PolyQP[] acc = new PolyQP[first.sums.length];
        for (int i = 0; i < acc.length; i++) {
            PolyQP a = first.sums[i];
            acc[i] = a.copy();
        }
        while (it.hasNext()) {
            BlockRowPartial o = it.next();
            first.checkCompatible(o);
            for (int c : o.columns) {
                if (!cols.add(c))
                    throw new InvalidTransformException("block row " + first.blockRow + ": column " + c
                            + " is in two partials (it would be counted twice)");
            }
            for (int i = 0; i < acc.length; i++) {
                PolyQP b = o.sums[i];
                ctx.ringQ().add(acc[i].q(), b.q(), acc[i].q());
                if (!acc[i].isQOnly()) ctx.ringP().add(acc[i].p(), b.p(), acc[i].p());
            }
        }
        return new BlockRowPartial(
                first.params,
                first.plan,
                first.level,
                first.blockRow,
                first.scale,
                ImmutableSortedSet.copyOf(cols),
                acc);
    }

    private void checkCompatible(BlockRowPartial o) {
        if (!o.params.equals(params)) throw new ParameterMismatchException("partials made under other parameters");
        if (o.blockRow != blockRow)
            throw new InvalidTransformException(
                    "partials of block rows " + blockRow + " and " + o.blockRow + " do not add up");
        if (!o.plan.equals(plan) || o.level != level) {
            throw new InvalidTransformException(
                    "block row " + blockRow + ": partials of other plans or levels (" + plan.describe() + " at level "
                            + level + " vs " + o.plan.describe() + " at level " + o.level + ")");
        }
        if (o.scale != scale)
            throw new ScaleMismatchException(
                    "block row " + blockRow + ": partials with scales " + scale + " and " + o.scale);
        if (o.sums.length != sums.length)
            throw new InvalidTransformException(
                    "partials with " + sums.length + " and " + o.sums.length + " polynomials");
        for (int i = 0; i < sums.length; i++) {
            if ((o.sums[i].isQOnly()) != (sums[i].isQOnly()) || o.sums[i].domain() != sums[i].domain()) {
                throw new InvalidTransformException("block row " + blockRow + ": polynomial " + i
                        + " has another shape or domain in the two partials");
            }
        }
    }

    @Override
    public String toString() {
        return "BlockRowPartial[row " + blockRow + ", columns " + columns + ", " + plan.describe() + ", level " + level
                + "]";
    }
}
