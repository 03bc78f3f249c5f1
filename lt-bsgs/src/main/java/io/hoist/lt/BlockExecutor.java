package io.hoist.lt;

import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.KeySwitcher;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbPool;
import io.hoist.ring.OpCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * A block product on the direct schedule, hoisted across blocks. Column by column: the input
 * ciphertext's part of the program (phases 1–3: Decompose, inner and middle layers) runs once and
 * its babies (A_b, B_b) feed the diagonal sums of every block of the column, which accumulate into
 * their block row's U buffers. Then each block row runs the output part (phases 5–6: outer layer
 * and one ModDown with rescale). Live at once: one column's babies and every row's U buffers.
 * On the six-phase schedule the same loop runs each part through a {@link PhasedExecutor} walker.
 */
final class BlockExecutor {
    private BlockExecutor() {}

    static List<Ciphertext> run(
            CkksContext ctx,
            KeySwitcher ks,
            LimbPool pool,
            RotationKeySet keys,
            List<Ciphertext> inputs,
            EncodedBlockTransform ebt,
            OpCounters counters,
            double scale) {
        return run(ctx, ks, pool, keys, inputs, ebt, counters, scale, null);
    }

    /**
     * The block product on the six-phase schedule: the same loop as {@link #run}, each column's
     * phases 1–3, each block's phase 4 and each row's phases 5–6 walked by {@code walker} (one
     * working set and ledger for the whole product); null runs the direct schedule.
     */
    static List<Ciphertext> run(
            CkksContext ctx,
            KeySwitcher ks,
            LimbPool pool,
            RotationKeySet keys,
            List<Ciphertext> inputs,
            EncodedBlockTransform ebt,
            OpCounters counters,
            double scale,
            PhasedExecutor walker) {
        ExecState[] row =
                accumulate(ctx, ks, pool, keys, inputs::get, allColumns(ebt.blockCols()), ebt, counters, walker);
        try {
            List<Ciphertext> out = new ArrayList<>(row.length);
            for (int br = 0; br < row.length; br++) {
                if (row[br] == null) {
                    out.add(zero(ctx, ebt.level() - 1, scale)); // an all-zero block row: M·x is exactly 0 there
                    continue;
                }
                if (walker != null) walker.output(row[br]);
                else DirectExecutor.runPhases(row[br], 5, 6);
                out.add(row[br].output(scale));
            }
            return out;
        } finally {
            close(row);
        }
    }

    /**
     * The ledger of the block product on the six-phase schedule under {@code g}, walked without data:
     * phases 1–3 per nonzero block column, phase 4 per nonzero block (skipping the diagonals it does
     * not hold, reading the row's U back after its first block), phases 5–6 per nonzero block row.
     */
    static TrafficLedger traffic(EncodedBlockTransform ebt, Grouping g, long budget) {
        EncodedTransform any = firstBlock(ebt);
        if (any == null) return new TrafficLedger.Builder().build();
        PhasedExecutor w = PhasedExecutor.forBlocks(any.program(), ebt.storage(), g, budget);
        boolean[] started = new boolean[ebt.blockRows()];
        for (int bc = 0; bc < ebt.blockCols(); bc++) {
            if (!columnHasBlocks(ebt, bc)) continue;
            w.input(null);
            for (int br = 0; br < ebt.blockRows(); br++) {
                if (ebt.block(br, bc) == null) continue;
                w.block(null, null, ebt.block(br, bc), started[br]);
                started[br] = true;
            }
        }
        for (int br = 0; br < ebt.blockRows(); br++) if (started[br]) w.output(null);
        return w.ledger();
    }

    /**
     * Phases 1–4 for the block columns {@code columns} (ascending) of the blocks {@code ebt} holds:
     * per column the input part once, its babies feeding the diagonal sums of every block of the
     * column, accumulated into the row states. A row with no block in these columns has no state
     * (null). The caller closes the states.
     */
    static ExecState[] accumulate(
            CkksContext ctx,
            KeySwitcher ks,
            LimbPool pool,
            RotationKeySet keys,
            IntFunction<Ciphertext> input,
            int[] columns,
            EncodedBlockTransform ebt,
            OpCounters counters,
            PhasedExecutor walker) {
        EncodedTransform any = firstBlock(ebt);
        ExecState[] row = new ExecState[ebt.blockRows()];
        if (any == null) return row;
        LtProgram prog = any.program();
        List<LtProgram.Step> sums = prog.phase(4);
        try {
            for (int bc : columns) {
                if (!columnHasBlocks(ebt, bc)) continue;
                try (ExecState col = new ExecState(ctx, ks, pool, prog, any, keys, input.apply(bc), counters)) {
                    if (walker != null) walker.input(col);
                    else DirectExecutor.runPhases(col, 1, 3);
                    for (int br = 0; br < row.length; br++) {
                        EncodedTransform block = ebt.block(br, bc);
                        if (block == null) continue;
                        boolean accumulate = row[br] != null;
                        if (row[br] == null) row[br] = new ExecState(ctx, ks, pool, prog, any, keys, null, counters);
                        if (walker != null) walker.block(col, row[br], block, accumulate);
                        else for (LtProgram.Step s : sums) row[br].diagonalSumsAll(col, block, List.of(s), accumulate);
                    }
                }
            }
            return row;
        } catch (RuntimeException | Error e) {
            close(row);
            throw e;
        }
    }

    /** Phases 1–4 for {@code inputs} (block column → ciphertext): each touched block row's partial sums. */
    static List<BlockRowPartial> partials(
            CkksContext ctx,
            KeySwitcher ks,
            LimbPool pool,
            RotationKeySet keys,
            SortedMap<Integer, Ciphertext> inputs,
            EncodedBlockTransform ebt,
            OpCounters counters,
            double scale) {
        int[] columns = inputs.keySet().stream().mapToInt(Integer::intValue).toArray();
        ExecState[] row = accumulate(ctx, ks, pool, keys, inputs::get, columns, ebt, counters, null);
        try {
            List<BlockRowPartial> out = new ArrayList<>();
            for (int br = 0; br < row.length; br++) {
                if (row[br] == null) continue;
                ImmutableSortedSet.Builder<Integer> cols = ImmutableSortedSet.naturalOrder();
                for (int bc : columns) if (ebt.block(br, bc) != null) cols.add(bc);
                int[] ids = ExecState.sumBuffers(row[br].prog);
                PolyQP[] u = new PolyQP[ids.length];
                for (int i = 0; i < ids.length; i++) u[i] = row[br].copyOut(ids[i]);
                out.add(new BlockRowPartial(ctx.params(), ebt.plan(), ebt.level(), br, scale, cols.build(), u));
            }
            return out;
        } finally {
            close(row);
        }
    }

    /** Phases 5–6 of a block row from its summed partials: the row's output ciphertext. */
    static Ciphertext finish(
            CkksContext ctx,
            KeySwitcher ks,
            LimbPool pool,
            RotationKeySet keys,
            LtProgram prog,
            BlockRowPartial sum,
            OpCounters counters) {
        try (ExecState st = new ExecState(ctx, ks, pool, prog, null, keys, null, counters)) {
            int[] ids = ExecState.sumBuffers(prog);
            if (ids.length != sum.polynomialCount())
                throw new InvalidTransformException("the partial holds " + sum.polynomialCount()
                        + " polynomials, the program sums into " + ids.length);
            for (int i = 0; i < ids.length; i++) st.copyIn(ids[i], sum.sum(i));
            DirectExecutor.runPhases(st, 5, 6);
            return st.output(sum.scale());
        }
    }

    private static int[] allColumns(int cols) {
        return IntStream.range(0, cols).toArray();
    }

    private static void close(ExecState[] states) {
        for (ExecState s : states) if (s != null) s.close();
    }

    static EncodedTransform firstBlock(EncodedBlockTransform ebt) {
        for (int br = 0; br < ebt.blockRows(); br++) {
            for (int bc = 0; bc < ebt.blockCols(); bc++) if (ebt.block(br, bc) != null) return ebt.block(br, bc);
        }
        return null;
    }

    static boolean columnHasBlocks(EncodedBlockTransform ebt, int bc) {
        for (int br = 0; br < ebt.blockRows(); br++) if (ebt.block(br, bc) != null) return true;
        return false;
    }

    static boolean rowHasBlocks(EncodedBlockTransform ebt, int br) {
        for (int bc = 0; bc < ebt.blockCols(); bc++) if (ebt.block(br, bc) != null) return true;
        return false;
    }

    /** The trivial encryption of zero (both parts zero). */
    private static Ciphertext zero(CkksContext ctx, int level, double scale) {
        return new Ciphertext(
                ctx.params(),
                scale,
                ctx.ringQ().newPoly(level, Domain.NTT),
                ctx.ringQ().newPoly(level, Domain.NTT));
    }
}
