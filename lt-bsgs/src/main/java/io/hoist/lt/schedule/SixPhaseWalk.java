package io.hoist.lt.schedule;

import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Storage;
import java.util.function.BiFunction;
import java.util.function.IntPredicate;

/**
 * Runs an {@link LtProgram} by the six-phase memory-aware schedule of spec §7: each phase's steps
 * in limb groups (l1 … l5) and polynomial groups (m1 … m6), with a {@link WorkingSet} that tracks
 * the resident limbs under a budget and records every limb moved to or from the backing store in a
 * {@link TrafficLedger}. The loop nests are written out per phase below and documented, with their
 * traffic formulas, in docs/schedule.md; {@link PhaseModel} gives the same numbers in closed form.
 *
 * <p>The compute happens behind {@link PhaseHooks}: with {@link PhaseHooks#NONE} this is the dry
 * walk whose ledger is the schedule's traffic; with the engine's kernel hooks it computes in exactly
 * this order, so its
 * result is bit-identical to {@link DirectExecutor}'s (all arithmetic is exact modular arithmetic).
 */
public final class SixPhaseWalk extends OutputPhases {
    private SixPhaseWalk(LtProgram prog, Storage storage, Grouping g, long budget, PhaseHooks hooks) {
        super(prog, storage, g, budget, hooks);
    }

    /** The dry walk: the traffic of the six-phase schedule under {@code grouping}, no data. */
    public static TrafficLedger dry(LtProgram program, Storage storage, Grouping grouping) {
        return walk(program, storage, grouping, Long.MAX_VALUE, PhaseHooks.NONE);
    }

    /** Walks the schedule, computing through {@code hooks}; returns its ledger. */
    public static TrafficLedger walk(LtProgram prog, Storage storage, Grouping g, long budget, PhaseHooks hooks) {
        SixPhaseWalk e = new SixPhaseWalk(prog, storage, g, budget, hooks);
        e.phase1();
        e.phase2();
        e.phase3();
        e.phase4(r -> true, false, true);
        e.phase5();
        e.phase6();
        return e.ws.ledger();
    }

    /**
     * A walker for a block product (the engine's block executor): one working set and ledger for the whole
     * product, driven input by input ({@link #input}), block by block ({@link #block}) and output by
     * output ({@link #output}).
     */
    public static SixPhaseWalk forBlocks(LtProgram prog, Storage storage, Grouping g, long budget) {
        return new SixPhaseWalk(prog, storage, g, budget, PhaseHooks.NONE);
    }

    /** Phases 1–3 of one input ciphertext (a block column) computed by {@code col}; its babies stay with it. */
    public void input(PhaseHooks col) {
        hooks = col;
        phase1();
        phase2();
        phase3();
    }

    /**
     * Phase 4 of one block whose diagonals are those {@code holds} accepts, computed by {@code row}
     * (the row's U buffers, fed by a column's babies), read back and added to when {@code accumulate}
     * (not the row's first block).
     */
    public void block(PhaseHooks row, IntPredicate holds, boolean accumulate) {
        hooks = row;
        phase4(holds, accumulate, false);
    }

    /** Phases 5–6 of one block row: the outer layer and the ModDown with rescale. */
    public void output(PhaseHooks row) {
        hooks = row;
        phase5();
        phase6();
    }

    /**
     * The dry walk of a block product of {@code rows} × {@code cols} blocks: phases 1–3 per nonzero
     * block column, phase 4 per nonzero block (skipping the diagonals it does not hold, reading the
     * row's U back after its first block), phases 5–6 per nonzero block row. {@code block(br, bc)}
     * gives the diagonals block (br, bc) holds, or null for a zero block.
     */
    public static TrafficLedger dryBlocks(
            LtProgram prog,
            Storage storage,
            Grouping g,
            long budget,
            int rows,
            int cols,
            BiFunction<Integer, Integer, IntPredicate> block) {
        SixPhaseWalk w = forBlocks(prog, storage, g, budget);
        boolean[] started = new boolean[rows];
        for (int bc = 0; bc < cols; bc++) {
            boolean walked = false;
            for (int br = 0; br < rows; br++) {
                IntPredicate holds = block.apply(br, bc);
                if (holds == null) continue;
                if (!walked) w.input(PhaseHooks.NONE);
                walked = true;
                w.block(PhaseHooks.NONE, holds, started[br]);
                started[br] = true;
            }
        }
        for (int br = 0; br < rows; br++) if (started[br]) w.output(PhaseHooks.NONE);
        return w.ledger();
    }

    public TrafficLedger ledger() {
        return ws.ledger();
    }
}
