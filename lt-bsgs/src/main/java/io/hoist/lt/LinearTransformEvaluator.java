package io.hoist.lt;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.ScaleMismatchException;
import io.hoist.ckks.Scratch;
import io.hoist.ckks.WrongOperandException;
import io.hoist.lt.exec.DiagonalEncoder;
import io.hoist.lt.exec.EncodedDiagonals;
import io.hoist.lt.exec.Engine;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import io.hoist.lt.schedule.WorkingSetTooSmallException;
import io.hoist.ring.Ring;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;

/**
 * Encodes and evaluates linear transforms by a {@link Plan}. The hoisted algorithms (diagonal,
 * DH-BSGS, TH-BSGS) compile to one {@link LtProgram} (Algorithm 2 of spec §5.2 with block sizes
 * b1 | b2) that a {@link Schedule} executes: {@link Schedule#direct()} step by step, or
 * {@link Schedule#phased} by the six-phase memory-aware schedule of §7 with a traffic ledger.
 * BSGS runs full rotations with products over Q (§4.2).
 *
 * <p>Limb buffers come from this evaluator's pool and go back after each evaluation, so a warm
 * evaluation allocates little more than its output. Counts belong to each evaluation
 * ({@link Evaluation#counts()}), and also add up in the context's counters. Thread-safe.
 */
public final class LinearTransformEvaluator {
    private final CkksParameters params;
    private final Ring ringQ;
    private final Schedule schedule;
    private final DiagonalEncoder diagonals;
    private final Engine engine;

    public LinearTransformEvaluator(CkksContext ctx, RotationKeySet keys) {
        Objects.requireNonNull(ctx, "ctx is null");
        Objects.requireNonNull(keys, "keys is null");
        this(ctx, keys, Schedule.direct());
    }

    /**
     * An evaluator whose {@link #evaluate(Ciphertext, EncodedTransform)} runs {@code schedule}.
     * Constructing one starts nothing: a program that wants the kernels' JIT warm-up in the
     * background, overlapping key generation and encoding, calls {@link CkksContext#startKernelWarmup} itself
     * (the CLI does).
     */
    public LinearTransformEvaluator(CkksContext ctx, RotationKeySet keys, Schedule schedule) {
        Objects.requireNonNull(ctx, "ctx is null");
        Objects.requireNonNull(keys, "keys is null");
        Objects.requireNonNull(schedule, "schedule is null");
        this.params = ctx.params();
        this.ringQ = ctx.ringQ();
        if (!keys.params().equals(params))
            throw new ParameterMismatchException("rotation keys made under other parameters");
        this.schedule = schedule;
        this.diagonals = new DiagonalEncoder(ctx);
        this.engine = new Engine(ctx, keys);
    }

    public Schedule schedule() {
        return schedule;
    }

    /** Limb arrays currently lent out by this evaluator's pool (0 between evaluations). */
    public long pooledLimbsOutstanding() {
        return engine.pool().outstanding();
    }

    /** Bytes the pool holds for the next evaluation (idle and lent). */
    public long pooledBytes() {
        return engine.pool().retainedBytes();
    }

    /** Most limbs lent at once (the executors' peak live set, in limbs). */
    public long pooledLimbsPeak() {
        return engine.pool().peakOutstanding();
    }

    /** Lets the garbage collector take the idle pooled limbs. */
    public void trimPool() {
        engine.pool().trim();
    }

    // ------------------------------------------------------------------ encoding

    /**
     * Encodes the diagonals of {@code t} for {@code plan}, to be applied to ciphertexts at {@code level}.
     * On the direct schedule this also grows the evaluator's pool to the limbs the transform's program
     * holds at once (before the diagonals, so their encoding's collections move the new limbs out of the
     * young generation): the first evaluation then borrows them as later ones do, instead of allocating
     * and promoting them mid-run; and it builds the diagonal sums' term tables the direct evaluation
     * keeps, so that the first evaluation does not. On the six-phase schedule it does the same after encoding,
     * for the limbs and tables of the schedule's own walk; for BSGS, which runs no program, it reserves the limbs
     * its evaluation holds at once. A transform run on another evaluator, or on another
     * schedule through {@link #evaluate(Ciphertext, EncodedTransform, Schedule)}, leaves the limbs idle:
     * {@link #trimPool} lets them go.
     *
     * @throws InvalidTransformException if the plan was made for another transform, or the dimension does not divide the slots
     * @throws io.hoist.ckks.LevelMismatchException if {@code level} is outside [1, L]
     */
    public EncodedTransform encode(LinearTransform t, Plan plan, int level, Storage storage) {
        Objects.requireNonNull(t, "t is null");
        Objects.requireNonNull(plan, "plan is null");
        Objects.requireNonNull(storage, "storage is null");
        return encode(t, plan, level, storage, Progress.NONE);
    }

    /** {@link #encode(LinearTransform, Plan, int, Storage)}, reporting each diagonal encoded to {@code progress}. */
    public EncodedTransform encode(LinearTransform t, Plan plan, int level, Storage storage, Progress progress) {
        Objects.requireNonNull(t, "t is null");
        Objects.requireNonNull(plan, "plan is null");
        Objects.requireNonNull(storage, "storage is null");
        return encode(t, plan, level, storage, params.q(level), true, progress);
    }

    /**
     * Encodes at plaintext scale {@code scale}; without {@code rescale} the evaluation ends in a plain
     * ModDown and keeps the level, so that several transforms share one rescale (Lattigo's
     * {@code Levels}: k transforms at scales whose product is q_ℓ, only the last one rescaling).
     */
    public EncodedTransform encode(
            LinearTransform t,
            Plan plan,
            int level,
            Storage storage,
            double scale,
            boolean rescale,
            Progress progress) {
        Objects.requireNonNull(t, "t is null");
        Objects.requireNonNull(plan, "plan is null");
        Objects.requireNonNull(storage, "storage is null");
        if (plan.dimension() != t.dimension() || !plan.indices().equals(t.diagonalIndices())) {
            throw new InvalidTransformException("plan " + plan + " was made for another transform than " + t);
        }
        diagonals.checkEncode(t.dimension(), level, scale, rescale);
        LtProgram program = null;
        if (plan.algorithm() != Algorithm.BSGS) {
            program = LtProgram.compile(plan, LimbLayout.of(params, level), rescale);
            if (schedule instanceof Schedule.Direct) engine.reserve(program);
        }
        EncodedDiagonals encoded =
                diagonals.encodeDiagonals(t, plan, level, storage, scale, rescale, progress, program);
        if (program == null) { // BSGS, which runs on the direct schedule only
            if (schedule instanceof Schedule.Direct) engine.reserveBsgs(encoded);
        } else if (schedule instanceof Schedule.Direct) {
            engine.prepareDirect(encoded);
            engine.reserveCompact(encoded);
        } else if (schedule instanceof Schedule.Phased ph) engine.preparePhased(encoded, ph);
        return new EncodedTransform(encoded);
    }

    /**
     * Encodes every block of {@code t} for {@code plan}, which must be made for the union of the
     * blocks' diagonals ({@link BlockLinearTransform#diagonalIndices()}) at the block dimension; the
     * product rescales once per output ciphertext. Blocks are read one at a time, so only the
     * encoded form of the whole matrix is held; {@code progress} counts blocks. On the direct schedule
     * the pool grows, as for a single transform, to what the product's phases 1–4 hold at once (the
     * last column's babies beside every block row's partial sums), and each block's term tables are
     * built; on the six-phase schedule, after encoding, to what the product's walk holds at once. {@link
     * #evaluatePartial} over fewer columns than the encoded ones may hold less; {@link #trimPool} lets the
     * reservation go, also after a block outside the plan was refused.
     */
    public EncodedBlockTransform encode(
            BlockLinearTransform t, Plan plan, int level, Storage storage, Progress progress) {
        Objects.requireNonNull(t, "t is null");
        Objects.requireNonNull(plan, "plan is null");
        Objects.requireNonNull(storage, "storage is null");
        int[] shape = new int[2]; // the last rows and rows before the last column reported
        LtProgram[] program = new LtProgram[1];
        EncodedBlockTransform encoded = EncodedBlockTransform.encode(
                diagonals, params, t, plan, level, storage, progress, (prog, rows, before) -> {
                    if (schedule instanceof Schedule.Direct) engine.reserveBlocks(prog, rows, before);
                    program[0] = prog;
                    shape[0] = rows;
                    shape[1] = before;
                });
        if (schedule instanceof Schedule.Direct) {
            EncodedDiagonals[][] grid = encoded.grid();
            for (EncodedDiagonals[] row : grid) for (EncodedDiagonals b : row) if (b != null) engine.prepareDirect(b);
            if (program[0] != null) engine.reserveCompactBlocks(program[0], shape[0], shape[1], lastBlock(grid));
        } else if (schedule instanceof Schedule.Phased ph) engine.preparePhasedBlocks(encoded.grid(), ph);
        return encoded;
    }

    /** The block a product over {@code grid} runs last: the lowest of the last column that holds one (columns, then rows, ascending). */
    private static EncodedDiagonals lastBlock(EncodedDiagonals[][] grid) {
        EncodedDiagonals last = null;
        int col = -1;
        for (EncodedDiagonals[] row : grid)
            for (int c = 0; c < row.length; c++)
                if (row[c] != null && c >= col) {
                    col = c;
                    last = row[c];
                }
        return last;
    }

    // ------------------------------------------------------------------ evaluation

    /** M·x by this evaluator's schedule: the output is at level ℓ−1 with the input's scale (Δ·q_ℓ/q_ℓ). */
    public Ciphertext evaluate(Ciphertext ct, EncodedTransform et) {
        Objects.requireNonNull(ct, "ct is null");
        Objects.requireNonNull(et, "et is null");
        return evaluate(ct, et, schedule).result();
    }

    /**
     * M·x by {@code schedule}, with this evaluation's own counts and (phased) traffic ledger.
     *
     * @throws io.hoist.ckks.LevelMismatchException if the ciphertext is not at the transform's level
     * @throws io.hoist.ckks.ParameterMismatchException if it was made under other parameters
     * @throws io.hoist.ckks.MissingRotationKeyException naming the first key the plan needs and this evaluator lacks, before any work
     * @throws WorkingSetTooSmallException if a phased schedule's budget is below what the grouping needs
     */
    public Evaluation evaluate(Ciphertext ct, EncodedTransform et, Schedule schedule) {
        return evaluate(ct, et, schedule, null);
    }

    /**
     * {@link #evaluate(Ciphertext, EncodedTransform, Schedule)} with the result made in {@code outputs} (pooled limbs,
     * see {@link Scratch}; {@link Scratch#holds} tells whether it was: BSGS makes it in fresh memory), or in fresh
     * memory where {@code outputs} is null. For a chain of transforms whose intermediate results nobody else sees.
     */
    public Evaluation evaluate(Ciphertext ct, EncodedTransform et, Schedule schedule, Scratch outputs) {
        Objects.requireNonNull(ct, "ct is null");
        Objects.requireNonNull(et, "et is null");
        Objects.requireNonNull(schedule, "schedule is null");
        if (outputs != null) outputs.requireOpenFor(ringQ);
        check(ct, et);
        Engine.Run r = engine.evaluate(ct, et.data(), schedule, outputScale(ct, et), outputs);
        return new Evaluation(r.result(), r.counts(), r.grouping(), r.traffic());
    }

    /**
     * One input under several transforms, sharing the first Decompose (Lattigo's EvaluateMany); each
     * transform runs on the direct executor with buffers of its own.
     */
    public List<Ciphertext> evaluateMany(Ciphertext ct, List<EncodedTransform> transforms) {
        Objects.requireNonNull(ct, "ct is null");
        Objects.requireNonNull(transforms, "transforms is null");
        List<EncodedDiagonals> data = new ArrayList<>(transforms.size());
        Map<EncodedDiagonals, Double> scales = new IdentityHashMap<>();
        for (EncodedTransform et : transforms) {
            check(ct, et);
            data.add(et.data());
            scales.put(et.data(), outputScale(ct, et));
        }
        return engine.evaluateMany(ct, data, scales::get);
    }

    /**
     * M·x for a block matrix: {@code inputs} are the block columns' ciphertexts (all at the
     * transform's level and one scale), the result the block rows' ciphertexts at level ℓ−1. Each
     * input is decomposed and rotated once for all the blocks of its column; each block row is
     * rescaled once. Runs on this evaluator's schedule: an evaluator made with a phased schedule
     * runs block products phased too (its grouping must fit one block's program).
     */
    public BlockEvaluation evaluate(List<Ciphertext> inputs, EncodedBlockTransform ebt) {
        Objects.requireNonNull(inputs, "inputs is null");
        Objects.requireNonNull(ebt, "ebt is null");
        return evaluate(inputs, ebt, schedule);
    }

    /**
     * The block product by {@code schedule}. On the six-phase schedule every block column, block
     * and block row is walked with one grouping (the given one, or the least-traffic one for the
     * budget: the peak working set is one block's) and one traffic ledger for the whole product.
     * The result is bit-identical to the direct schedule's, and so are the counts but NTT_CALLS (the
     * limb groups batch the transforms differently). An all-zero matrix moves nothing: its ledger is
     * empty.
     */
    public BlockEvaluation evaluate(List<Ciphertext> inputs, EncodedBlockTransform ebt, Schedule schedule) {
        Objects.requireNonNull(inputs, "inputs is null");
        Objects.requireNonNull(ebt, "ebt is null");
        Objects.requireNonNull(schedule, "schedule");
        if (inputs.size() != ebt.blockCols()) {
            throw new InvalidTransformException(inputs.size() + " input ciphertexts for " + ebt.blockCols()
                    + " block columns (" + ebt.cols() + " columns in blocks of " + ebt.blockDimension() + ")");
        }
        double scale = checkBlockInputs(inputs, ebt);
        Engine.BlockRun r = engine.evaluateBlocks(inputs, ebt.grid(), ebt.level(), scale, schedule);
        return new BlockEvaluation(r.outputs(), r.counts(), r.grouping(), r.traffic());
    }

    /**
     * The first half of a block product split across machines: phases 1–4 for the input
     * ciphertexts given (block column → ciphertext) against the blocks {@code ebt} holds in those
     * columns — each input decomposed and rotated once for all its blocks — giving one
     * {@link BlockRowPartial} per block row that has a block there. Sum the partials of a row over
     * all its columns ({@link BlockRowPartial#sum}) and {@link #finishBlockRow finish} it: the
     * result is bit-identical to {@link #evaluate(List, EncodedBlockTransform)}, and the counts of
     * all the halves add up to its counts.
     */
    public BlockPartialEvaluation evaluatePartial(SortedMap<Integer, Ciphertext> inputs, EncodedBlockTransform ebt) {
        Objects.requireNonNull(inputs, "inputs is null");
        Objects.requireNonNull(ebt, "ebt is null");
        if (inputs.isEmpty()) throw new InvalidTransformException("no input ciphertexts");
        for (int bc : inputs.keySet()) {
            if (bc < 0 || bc >= ebt.blockCols())
                throw new InvalidTransformException("block column " + bc + " outside [0, " + ebt.blockCols() + ")");
        }
        double scale = checkBlockInputs(List.copyOf(inputs.values()), ebt);
        Engine.Partials p = engine.partials(inputs, ebt.grid());
        List<BlockRowPartial> parts = new ArrayList<>(p.rows().size());
        for (Engine.RowSums rs : p.rows())
            parts.add(new BlockRowPartial(
                    params,
                    ebt.plan(),
                    ebt.level(),
                    rs.row(),
                    scale,
                    ImmutableSortedSet.copyOf(rs.columns()),
                    rs.sums().toArray(new PolyQP[0])));
        return new BlockPartialEvaluation(ImmutableList.copyOf(parts), p.counts());
    }

    /**
     * The second half of a split block product: the outer layer and the ModDown with rescale
     * (phases 5–6) of a block row whose partials over every block column holding a block of that
     * row have been summed. The output is at level ℓ−1.
     */
    public Evaluation finishBlockRow(BlockRowPartial sum) {
        Objects.requireNonNull(sum, "sum is null");
        if (!sum.params().equals(params)) throw new ParameterMismatchException("partial made under other parameters");
        LtProgram prog = LtProgram.compile(sum.plan(), LimbLayout.of(params, sum.level()));
        Engine.Run r = engine.finish(prog, sum.sumsView(), sum.scale());
        return new Evaluation(r.result(), r.counts(), Optional.empty(), Optional.empty());
    }

    /** Checks block-product inputs; returns the output scale Δ_in·Δ_pt/q_ℓ. */
    private double checkBlockInputs(List<Ciphertext> inputs, EncodedBlockTransform ebt) {
        if (!ebt.params().equals(params))
            throw new ParameterMismatchException("block transform made under other parameters");
        for (int i = 0; i < inputs.size(); i++) {
            Ciphertext ct = inputs.get(i);
            if (!ct.params().equals(params))
                throw new ParameterMismatchException("input " + i + " made under other parameters");
            if (ct.degree() != 1)
                throw new WrongOperandException("input " + i + ": linear transforms need a degree-1 ciphertext");
            if (ct.level() != ebt.level())
                throw new LevelMismatchException(
                        "transform encoded for level " + ebt.level() + ", input " + i + " at level " + ct.level());
            if (ct.scale() != inputs.get(0).scale()) {
                throw new ScaleMismatchException("input " + i + " has scale " + ct.scale() + ", input 0 "
                        + inputs.get(0).scale() + ": the blocks of a row are summed");
            }
        }
        return inputs.get(0).scale() * ebt.scale() / params.q(ebt.level());
    }

    /** Δ·Δ_pt, divided by q_ℓ when the transform rescales. */
    private double outputScale(Ciphertext ct, EncodedTransform et) {
        return ct.scale() * et.scale() / (et.rescales() ? params.q(ct.level()) : 1);
    }

    private void check(Ciphertext ct, EncodedTransform et) {
        if (!ct.params().equals(params) || !et.params().equals(params))
            throw new ParameterMismatchException("ciphertext or transform made under other parameters");
        if (ct.degree() != 1) throw new WrongOperandException("linear transforms need a degree-1 ciphertext");
        if (ct.level() != et.level()) {
            throw new LevelMismatchException(
                    "transform encoded for level " + et.level() + ", ciphertext at level " + ct.level());
        }
    }

    // ------------------------------------------------------------------ BSGS

    /**
     * Slot-wise complex conjugation (φ_{2N−1} with its key switch), with this call's own counts: the
     * real/imaginary split of CoeffsToSlots.
     */
    public Evaluation conjugate(Ciphertext a) {
        return conjugate(a, null);
    }

    /** {@link #conjugate(Ciphertext)} with the result made in {@code outputs} (pooled limbs), or fresh where null. */
    public Evaluation conjugate(Ciphertext a, Scratch outputs) {
        Objects.requireNonNull(a, "a is null");
        if (!a.params().equals(params)) throw new ParameterMismatchException("ciphertext made under other parameters");
        if (a.degree() != 1) throw new WrongOperandException("conjugation needs a degree-1 ciphertext");
        if (outputs != null) outputs.requireOpenFor(ringQ);
        Engine.Run r = engine.conjugate(a, outputs);
        return new Evaluation(r.result(), r.counts(), Optional.empty(), Optional.empty());
    }
}
