package io.hoist.lt.exec;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.RawAccess;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.schedule.SixPhaseWalk;
import io.hoist.ring.Domain;
import io.hoist.ring.OpCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * A block product on the direct schedule, hoisted across blocks. Column by column: the input
 * ciphertext's part of the program (phases 1–3: Decompose, inner and middle layers) runs once and
 * its babies (A_b, B_b) feed the diagonal sums of every block of the column, which accumulate into
 * their block row's U buffers. Then each block row runs the output part (phases 5–6: outer layer
 * and one ModDown with rescale). Live at once: one column's babies and every row's U buffers.
 * On the six-phase schedule the same loop drives a {@link SixPhaseWalk} with kernel hooks.
 * The blocks are a grid [blockRow][blockCol] of encoded diagonals, null for a zero block.
 */
final class BlockExecutor {
    private BlockExecutor() {}

    /**
     * The block product; with a {@code walker} each column's phases 1–3, each block's phase 4 and
     * each row's phases 5–6 are walked by it (one working set and ledger for the whole product),
     * without one the direct schedule runs.
     */
    static List<Ciphertext> run(
            Engine e,
            List<Ciphertext> inputs,
            EncodedDiagonals[][] blocks,
            int level,
            OpCounters counters,
            double scale,
            SixPhaseWalk walker) {
        ExecState[] row = accumulate(e, inputs::get, allColumns(blocks[0].length), blocks, counters, walker);
        try {
            List<Ciphertext> out = new ArrayList<>(row.length);
            for (int br = 0; br < row.length; br++) {
                if (row[br] == null) {
                    out.add(zero(e.ctx, level - 1, scale)); // an all-zero block row: M·x is exactly 0 there
                    continue;
                }
                if (walker != null) walker.output(new KernelHooks(row[br], row[br], null));
                else DirectExecutor.runPhases(row[br], 5, 6);
                out.add(row[br].output(scale));
            }
            return out;
        } finally {
            close(row);
        }
    }

    /**
     * Phases 1–4 for the block columns {@code columns} (ascending): per column the input part once,
     * its babies feeding the diagonal sums of every block of the column, accumulated into the row
     * states. A row with no block in these columns has no state (null). The caller closes the states.
     */
    @SuppressWarnings("MustBeClosedChecker") // the row states outlive this method: every caller closes them
    private static ExecState[] accumulate(
            Engine e,
            IntFunction<Ciphertext> input,
            int[] columns,
            EncodedDiagonals[][] blocks,
            OpCounters counters,
            SixPhaseWalk walker) {
        EncodedDiagonals any = EncodedDiagonals.firstOf(blocks);
        ExecState[] row = new ExecState[blocks.length];
        if (any == null) return row;
        LtProgram prog = any.program();
        List<LtProgram.Step> sums = prog.phase(4);
        try {
            for (int bc : columns) {
                if (!columnHasBlocks(blocks, bc)) continue;
                try (ExecState col = e.state(any, input.apply(bc), counters)) {
                    if (walker != null) walker.input(new KernelHooks(col, col, null));
                    else DirectExecutor.runPhases(col, 1, 3);
                    for (int br = 0; br < row.length; br++) {
                        EncodedDiagonals block = blocks[br][bc];
                        if (block == null) continue;
                        boolean accumulate = row[br] != null;
                        if (row[br] == null) row[br] = e.state(any, null, counters);
                        if (walker != null)
                            walker.block(new KernelHooks(row[br], col, block), block::contains, accumulate);
                        else DiagonalSums.all(row[br], col, block, sums, accumulate);
                    }
                }
            }
            return row;
        } catch (RuntimeException | Error ex) {
            close(row);
            throw ex;
        }
    }

    /** Phases 1–4 for {@code inputs} (block column → ciphertext): each touched block row's partial sums. */
    static List<Engine.RowSums> partials(
            Engine e, SortedMap<Integer, Ciphertext> inputs, EncodedDiagonals[][] blocks, OpCounters counters) {
        int[] columns = inputs.keySet().stream().mapToInt(Integer::intValue).toArray();
        ExecState[] row = accumulate(e, inputs::get, columns, blocks, counters, null);
        try {
            List<Engine.RowSums> out = new ArrayList<>();
            for (int br = 0; br < row.length; br++) {
                if (row[br] == null) continue;
                SortedSet<Integer> cols = new TreeSet<>();
                for (int bc : columns) if (blocks[br][bc] != null) cols.add(bc);
                List<Integer> ids = row[br].prog.sumBuffers();
                List<PolyQP> u = new ArrayList<>(ids.size());
                for (int id : ids) u.add(row[br].copyOut(id));
                out.add(new Engine.RowSums(br, cols, u));
            }
            return out;
        } finally {
            close(row);
        }
    }

    /** Phases 5–6 of a block row from its summed partials {@code sums}: the row's output ciphertext. */
    static Ciphertext finish(Engine e, LtProgram prog, List<PolyQP> sums, double scale, OpCounters counters) {
        try (ExecState st = e.state(prog, counters)) {
            List<Integer> ids = prog.sumBuffers();
            if (ids.size() != sums.size())
                throw new InvalidTransformException(
                        "the partial holds " + sums.size() + " polynomials, the program sums into " + ids.size());
            for (int i = 0; i < ids.size(); i++) st.copyIn(ids.get(i), sums.get(i));
            DirectExecutor.runPhases(st, 5, 6);
            return st.output(scale);
        }
    }

    private static int[] allColumns(int cols) {
        return IntStream.range(0, cols).toArray();
    }

    private static void close(ExecState[] states) {
        for (ExecState s : states) if (s != null) s.close();
    }

    private static boolean columnHasBlocks(EncodedDiagonals[][] blocks, int bc) {
        for (EncodedDiagonals[] row : blocks) if (row[bc] != null) return true;
        return false;
    }

    /** The trivial encryption of zero (both parts zero). */
    private static Ciphertext zero(CkksContext ctx, int level, double scale) {
        return Ciphertext.wrap(
                RawAccess.get(),
                ctx.params(),
                scale,
                ctx.ringQ().newPoly(level, Domain.NTT),
                ctx.ringQ().newPoly(level, Domain.NTT));
    }
}
