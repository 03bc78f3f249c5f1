package io.hoist.lt;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.KeySwitcher;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbPool;
import io.hoist.ring.OpCounters;

import java.util.ArrayList;
import java.util.List;

/**
 * A block product on the direct schedule, hoisted across blocks. Column by column: the input
 * ciphertext's part of the program (phases 1–3: Decompose, inner and middle layers) runs once and
 * its babies (A_b, B_b) feed the diagonal sums of every block of the column, which accumulate into
 * their block row's U buffers. Then each block row runs the output part (phases 5–6: outer layer
 * and one ModDown with rescale). Live at once: one column's babies and every row's U buffers.
 */
final class BlockExecutor {
    private BlockExecutor() {}

    static List<Ciphertext> run(CkksContext ctx, KeySwitcher ks, LimbPool pool, RotationKeySet keys,
                                List<Ciphertext> inputs, EncodedBlockTransform ebt, OpCounters counters, double scale) {
        int rows = ebt.blockRows(), cols = ebt.blockCols();
        EncodedTransform any = firstBlock(ebt);   // null when the whole matrix is zero: every output is then zero
        LtProgram prog = any == null ? null : any.program();
        List<LtProgram.Step> sums = prog == null ? List.of() : prog.phase(4);
        ExecState[] row = new ExecState[rows];
        try {
            for (int bc = 0; bc < cols; bc++) {
                if (!columnHasBlocks(ebt, bc)) continue;
                try (ExecState col = new ExecState(ctx, ks, pool, prog, any, keys, inputs.get(bc), counters)) {
                    DirectExecutor.runPhases(col, 1, 3);
                    for (int br = 0; br < rows; br++) {
                        EncodedTransform block = ebt.block(br, bc);
                        if (block == null) continue;
                        boolean accumulate = row[br] != null;
                        if (row[br] == null) row[br] = new ExecState(ctx, ks, pool, prog, any, keys, inputs.get(bc), counters);
                        for (LtProgram.Step s : sums) row[br].diagonalSumsAll(col, block, List.of(s), accumulate);
                    }
                }
            }
            List<Ciphertext> out = new ArrayList<>(rows);
            for (int br = 0; br < rows; br++) {
                if (row[br] == null) {
                    out.add(zero(ctx, ebt.level() - 1, scale));   // an all-zero block row: M·x is exactly 0 there
                    continue;
                }
                DirectExecutor.runPhases(row[br], 5, 6);
                out.add(row[br].output(scale));
            }
            return out;
        } finally {
            for (ExecState s : row) if (s != null) s.close();
        }
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
        return new Ciphertext(ctx.params(), scale, ctx.ringQ().newPoly(level, Domain.NTT), ctx.ringQ().newPoly(level, Domain.NTT));
    }
}
