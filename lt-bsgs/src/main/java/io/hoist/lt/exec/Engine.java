package io.hoist.lt.exec;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.errorprone.annotations.MustBeClosed;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.KeySwitcher;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.Scratch;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.Schedule;
import io.hoist.lt.schedule.ScheduleCompiler;
import io.hoist.lt.schedule.SixPhaseWalk;
import io.hoist.lt.schedule.TrafficLedger;
import io.hoist.lt.schedule.WorkingSetTooSmallException;
import io.hoist.ring.Automorphism;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbPool;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The linear-transform engine behind {@code io.hoist.lt.LinearTransformEvaluator}: one pool, one key
 * set, the executors, and the one parallelism policy (the context engine's thread count, applied by
 * the step kernels). Inputs are checked by the facade; this class decides how a program runs
 * (direct, six-phase walk, block loop, BSGS) and returns each run's own counts and ledger as
 * records. Internal: not for users, no compatibility promised.
 */
public final class Engine {
    /** One evaluation: its output, its own counts, and on the six-phase schedule its grouping and ledger. */
    public record Run(
            Ciphertext result, Map<Op, Long> counts, Optional<Grouping> grouping, Optional<TrafficLedger> traffic) {}

    /** One block product: the block rows' outputs, its counts, grouping and ledger. */
    public record BlockRun(
            List<Ciphertext> outputs,
            Map<Op, Long> counts,
            Optional<Grouping> grouping,
            Optional<TrafficLedger> traffic) {}

    /** A block row's diagonal sums over {@code columns} after phase 4, in program order (fresh arrays). */
    public record RowSums(int row, SortedSet<Integer> columns, List<PolyQP> sums) {}

    /** The first half of a split block product: every touched row's sums and the counts. */
    public record Partials(List<RowSums> rows, Map<Op, Long> counts) {}

    final CkksContext ctx;
    final KeySwitcher ks;
    final RotationKeySet keys;
    final LimbPool pool;
    /** Holders of the pooled buffers evaluations gave back, kept for the next ({@link BufferHolders}). */
    private final BufferHolders holders = new BufferHolders();

    private final BsgsExecutor bsgs;
    /** The compiler's grouping per transform and budget: it depends on nothing else, so it is searched once. */
    private final Cache<EncodedDiagonals, ConcurrentMap<Long, Grouping>> groupings =
            CacheBuilder.newBuilder().weakKeys().build();

    public Engine(CkksContext ctx, RotationKeySet keys) {
        this.ctx = ctx;
        this.ks = new KeySwitcher(ctx);
        this.keys = keys;
        this.pool = new LimbPool(ctx.n());
        this.bsgs = new BsgsExecutor(ctx, ks, keys, pool);
        // each key's NTT-domain permutation ahead, as Lattigo's evaluator builds its automorphism indices:
        // built in the first evaluation, they cost it their loops and C2's compilation of them
        for (long g : keys.galoisElements())
            Automorphism.nttPermutation(ctx.params().logN(), g);
    }

    /** The pool the buffers of every evaluation come from. */
    public LimbPool pool() {
        return pool;
    }

    /**
     * Grows the pool to the limbs {@code prog} holds at once when run step by step (its direct
     * execution takes at least these), so that its first evaluation borrows instead of allocating.
     */
    public void reserve(LtProgram prog) {
        pool.reserve(ExecState.programOrderPeakLimbs(prog));
    }

    /**
     * For a BSGS transform (no program): grows the pool to what its evaluation holds at once ({@link
     * BsgsExecutor#peakLimbs}), so that its first evaluation borrows as later ones do.
     */
    public void reserveBsgs(EncodedDiagonals et) {
        pool.reserve(BsgsExecutor.peakLimbs(et, ctx));
    }

    /**
     * {@link #reserve(LtProgram)} for a block product on {@code prog} with {@code rows} block rows that
     * hold a block, {@code rowsBeforeLast} of them in a column before the last column that holds one.
     */
    public void reserveBlocks(LtProgram prog, int rows, int rowsBeforeLast) {
        pool.reserve(ExecState.blockOrderPeakLimbs(prog, rows, rowsBeforeLast));
    }

    /**
     * Over compact diagonals, grows the pool by what {@link #reserve(LtProgram)} leaves out: the expansions'
     * scratch beside the buffers of their diagonal sums (the encoded transform's tables tell how many).
     */
    public void reserveCompact(EncodedDiagonals et) {
        int[] scratch = DiagonalSums.compactScratch(et);
        if (scratch != null) pool.reserve(ExecState.programOrderPeakLimbs(et.program(), scratch));
    }

    /**
     * {@link #reserveBlocks} for compact blocks, {@code last} the block the product runs last (the last block
     * column's lowest block): its diagonal sums' scratch beside the babies and every row's sums, which are all
     * open by then.
     */
    public void reserveCompactBlocks(LtProgram prog, int rows, int rowsBeforeLast, EncodedDiagonals last) {
        int[] scratch = last == null ? null : DiagonalSums.compactScratch(last);
        int most = 0;
        if (scratch != null) for (int s : scratch) most = Math.max(most, s);
        if (most > 0) pool.reserve(ExecState.blockOrderPeakLimbs(prog, rows, rowsBeforeLast, most));
    }

    /**
     * Builds ahead what a direct evaluation of {@code et} keeps (the diagonal sums' term tables, the
     * context's basis conversions at its level), so that its first evaluation does not build them, nor
     * wait for C2 to compile their building.
     */
    public void prepareDirect(EncodedDiagonals et) {
        DiagonalSums.prepareDirect(et, ctx.engine().threads());
        ctx.prepareKeySwitching(et.level());
    }

    /**
     * {@link #prepareDirect} and {@link #reserve} for the six-phase schedule {@code ph}: finds the grouping
     * (kept for the evaluations), builds the term tables of the walk's diagonal sums and grows the pool to the
     * limbs the walk holds at once ({@link PhasedPeak}). Without it the first phased evaluation
     * allocated its buffers: 1.35 GB at N = 2^16 with 256 compact diagonals, 1.57× a warm evaluation's time.
     * Nothing is prepared for a transform that runs on the direct schedule only, or whose grouping does not
     * fit the budget: its evaluation reports that.
     */
    public void preparePhased(EncodedDiagonals et, Schedule.Phased ph) {
        if (et.program() != null && et.rescales())
            preparePhased(
                    et,
                    ph,
                    g -> PhasedPeak.limbs(et, g, ph.budgetBytes(), ctx.engine().threads()));
    }

    /** {@link #preparePhased} for a six-phase block product over {@code blocks} (null: a zero block). */
    public void preparePhasedBlocks(EncodedDiagonals[][] blocks, Schedule.Phased ph) {
        EncodedDiagonals any = EncodedDiagonals.firstOf(blocks);
        if (any != null && any.program() != null)
            preparePhased(
                    any,
                    ph,
                    g -> PhasedPeak.blockLimbs(
                            blocks, g, ph.budgetBytes(), ctx.engine().threads()));
    }

    /** The grouping of {@code et} under {@code ph}, the pool grown to {@code peak}'s limbs under it, the key switches prepared. */
    private void preparePhased(EncodedDiagonals et, Schedule.Phased ph, ToLongFunction<Grouping> peak) {
        Grouping g;
        try {
            g = grouping(et, ph);
        } catch (WorkingSetTooSmallException e) {
            return; // the evaluation reports it
        }
        pool.reserve(peak.applyAsLong(g));
        ctx.prepareKeySwitching(et.level());
    }

    @MustBeClosed
    ExecState state(EncodedDiagonals et, Ciphertext ct, OpCounters counters) {
        return new ExecState(ctx, ks, pool, holders, et.program(), et, keys, ct, counters);
    }

    /** A state that resumes after phase 4 (a block row's summed partials): no transform, no input. */
    @MustBeClosed
    ExecState state(LtProgram prog, OpCounters counters) {
        return new ExecState(ctx, ks, pool, holders, prog, null, keys, null, counters);
    }

    /** The six-phase ledger counts both parts of every key read: seeded keys (a parts made, not read) are not modelled. */
    private void requireFullKeys() {
        for (long g : keys.galoisElements())
            if (keys.get(g, "rotation").key().storage() != KeyStorage.FULL)
                throw new InvalidTransformException("the six-phase schedule's traffic ledger counts both parts of"
                        + " every key, but these rotation keys are held seeded (KeyStorage.SEEDED): use"
                        + " Schedule.direct() or full keys");
    }

    /** M·x by {@code schedule} at output scale {@code scale} (inputs checked by the caller). */
    public Run evaluate(Ciphertext ct, EncodedDiagonals et, Schedule schedule, double scale) {
        return evaluate(ct, et, schedule, scale, null);
    }

    /**
     * {@link #evaluate(Ciphertext, EncodedDiagonals, Schedule, double)} with the output made in {@code outputs}
     * (pooled limbs) where the executor makes it, or in fresh memory where {@code outputs} is null (BSGS always).
     */
    public Run evaluate(Ciphertext ct, EncodedDiagonals et, Schedule schedule, double scale, Scratch outputs) {
        OpCounters c = ctx.counters().child();
        if (et.plan().algorithm() == Algorithm.BSGS) {
            if (schedule instanceof Schedule.Phased)
                throw new InvalidTransformException(
                        "BSGS runs full rotations over Q and has no phased schedule; use Schedule.direct()");
            Ciphertext y = bsgs.evaluateBsgs(ct, et, c);
            return new Run(y, snapshot(c), Optional.empty(), Optional.empty());
        }
        try (ExecState st = state(et, ct, c)) {
            st.outputsIn(outputs);
            if (schedule instanceof Schedule.Phased ph) {
                requireFullKeys();
                if (!et.rescales())
                    throw new InvalidTransformException(
                            "a transform sharing its level (no rescale) runs on the direct schedule only");
                Grouping g = grouping(et, ph);
                TrafficLedger led =
                        SixPhaseWalk.walk(et.program(), et.storage(), g, ph.budgetBytes(), new KernelHooks(st, st, et));
                Ciphertext y = st.output(scale);
                return new Run(y, snapshot(c), Optional.of(g), Optional.of(led));
            }
            Ciphertext y = DirectExecutor.run(st, scale);
            return new Run(y, snapshot(c), Optional.empty(), Optional.empty());
        }
    }

    /**
     * One input under several transforms on the direct executor, sharing the first Decompose
     * (Lattigo's EvaluateMany); {@code scale} gives each transform's output scale.
     */
    public List<Ciphertext> evaluateMany(
            Ciphertext ct, List<EncodedDiagonals> transforms, ToDoubleFunction<EncodedDiagonals> scale) {
        PolyQP[] d0 = null;
        List<Ciphertext> out = new ArrayList<>();
        try {
            for (EncodedDiagonals et : transforms) {
                if (et.plan().algorithm() == Algorithm.BSGS) {
                    out.add(evaluate(ct, et, Schedule.direct(), scale.applyAsDouble(et))
                            .result());
                    continue;
                }
                try (ExecState st = state(et, ct, ctx.counters().child())) {
                    LtProgram.Step first = et.program().steps().get(0);
                    if (first.kind() == LtProgram.Kind.DECOMPOSE) {
                        if (d0 == null) {
                            d0 = new PolyQP[ctx.params().beta(ct.level())];
                            for (int t = 0; t < d0.length; t++)
                                d0[t] = PolyQP.borrow(ctx, pool, ct.level(), Domain.NTT);
                            ks.decompose(ct.poly(1, RawAccess.get()), d0, pool, ctx.counters());
                        }
                        st.presetDigits(first.out().get(0), d0);
                    }
                    out.add(DirectExecutor.run(st, scale.applyAsDouble(et)));
                }
            }
        } finally {
            if (d0 != null) for (PolyQP p : d0) p.release(pool);
        }
        return out;
    }

    /**
     * The block product of the grid {@code blocks} ([blockRow][blockCol], null for a zero block) at
     * {@code level} by {@code schedule}: on the six-phase schedule one grouping (a block's peak is the
     * product's) and one ledger for the whole product; an all-zero matrix moves nothing.
     */
    public BlockRun evaluateBlocks(
            List<Ciphertext> inputs, EncodedDiagonals[][] blocks, int level, double scale, Schedule schedule) {
        OpCounters c = ctx.counters().child();
        EncodedDiagonals any = EncodedDiagonals.firstOf(blocks);
        if (schedule instanceof Schedule.Phased ph) {
            requireFullKeys();
            if (any == null) {
                List<Ciphertext> out = BlockExecutor.run(this, inputs, blocks, level, c, scale, null);
                return new BlockRun(
                        List.copyOf(out),
                        snapshot(c),
                        Optional.ofNullable(ph.grouping()),
                        Optional.of(TrafficLedger.empty()));
            }
            Grouping g = grouping(any, ph);
            SixPhaseWalk walker = SixPhaseWalk.forBlocks(any.program(), any.storage(), g, ph.budgetBytes());
            List<Ciphertext> out = BlockExecutor.run(this, inputs, blocks, level, c, scale, walker);
            return new BlockRun(List.copyOf(out), snapshot(c), Optional.of(g), Optional.of(walker.ledger()));
        }
        List<Ciphertext> out = BlockExecutor.run(this, inputs, blocks, level, c, scale, null);
        return new BlockRun(List.copyOf(out), snapshot(c), Optional.empty(), Optional.empty());
    }

    /** Phases 1–4 of a split block product for the given block columns' inputs. */
    public Partials partials(SortedMap<Integer, Ciphertext> inputs, EncodedDiagonals[][] blocks) {
        OpCounters c = ctx.counters().child();
        List<RowSums> rows = BlockExecutor.partials(this, inputs, blocks, c);
        return new Partials(List.copyOf(rows), snapshot(c));
    }

    /** Phases 5–6 of a block row from its summed partials. */
    public Run finish(LtProgram prog, List<PolyQP> sums, double scale) {
        OpCounters c = ctx.counters().child();
        Ciphertext out = BlockExecutor.finish(this, prog, sums, scale, c);
        return new Run(out, snapshot(c), Optional.empty(), Optional.empty());
    }

    /** Slot-wise complex conjugation (φ_{2N−1} with its key switch). */
    public Run conjugate(Ciphertext a, Scratch outputs) {
        OpCounters c = ctx.counters().child();
        Ciphertext y =
                bsgs.automorphism(a, keys.get(ctx.params().galoisElementForConjugation(), "conjugation"), c, outputs);
        return new Run(y, snapshot(c), Optional.empty(), Optional.empty());
    }

    /** The schedule's grouping if it names one (checked against the budget), else the compiler's for the budget. */
    private Grouping grouping(EncodedDiagonals et, Schedule.Phased ph) {
        Grouping g = ph.grouping();
        if (g != null) {
            checkBudget(
                    et.program(), et.storage(), g, ph.budgetBytes()); // the compiler's groupings fit by construction
            return g;
        }
        try {
            return groupings
                    .get(et, ConcurrentHashMap::new)
                    .computeIfAbsent(
                            ph.budgetBytes(), b -> ScheduleCompiler.bestGrouping(et.program(), et.storage(), b));
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause()); // a map constructor does not throw
        }
    }

    private static void checkBudget(LtProgram prog, Storage storage, Grouping g, long budget) {
        long need = ScheduleCompiler.ledger(prog, storage, g).peakResidentBytes();
        if (need > budget) {
            long min = ScheduleCompiler.minimalBudget(prog, storage);
            throw new WorkingSetTooSmallException(
                    String.format(
                            Locale.ROOT,
                            "grouping %s needs a working set of %d bytes, over the budget of %d bytes (the smallest feasible is %d bytes)",
                            g,
                            need,
                            budget,
                            min),
                    budget,
                    Math.max(min, need));
        }
    }

    private static Map<Op, Long> snapshot(OpCounters c) {
        Map<Op, Long> m = new EnumMap<>(Op.class);
        m.putAll(c.snapshot());
        return Collections.unmodifiableMap(m);
    }
}
