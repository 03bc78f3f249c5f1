package io.hoist.lt;

import com.google.common.base.Preconditions;
import io.hoist.ckks.CkksParameters;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntUnaryOperator;

/**
 * A {@link BlockLinearTransform}'s blocks encoded for one plan at one level: every block under the
 * same plan (made for the union of the blocks' diagonals), so that one key set serves them all and
 * the rotations of each input ciphertext are shared by every block of its column. A block keeps
 * only its own nonzero diagonals; an all-zero block is not stored. Immutable.
 */
public final class EncodedBlockTransform {
    private final CkksParameters params;
    private final Plan plan;
    private final int level, rows, cols, blockDim, blockRows, blockCols;
    private final Storage storage;
    private final double scale;
    /** [blockRow][blockCol], null for a zero block. */
    private final EncodedTransform[][] blocks;

    EncodedBlockTransform(
            CkksParameters params,
            Plan plan,
            int level,
            double scale,
            Storage storage,
            BlockLinearTransform t,
            EncodedTransform[][] blocks) {
        Preconditions.checkArgument(
                plan.algorithm() != Algorithm.BSGS,
                "block products hoist each input's rotations and need a hoisted algorithm (diagonal, dh-bsgs, th-bsgs), not bsgs");
        this.params = params;
        this.plan = plan;
        this.level = level;
        this.scale = scale;
        this.storage = storage;
        this.rows = t.rows();
        this.cols = t.cols();
        this.blockDim = t.blockDimension();
        this.blockRows = t.blockRows();
        this.blockCols = t.blockCols();
        this.blocks = blocks;
    }

    public CkksParameters params() {
        return params;
    }
    /** The plan every block shares. */
    public Plan plan() {
        return plan;
    }

    public int level() {
        return level;
    }

    public double scale() {
        return scale;
    }

    public Storage storage() {
        return storage;
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    public int blockDimension() {
        return blockDim;
    }
    /** Output ciphertexts. */
    public int blockRows() {
        return blockRows;
    }
    /** Input ciphertexts. */
    public int blockCols() {
        return blockCols;
    }

    /** Blocks that are not all zero. */
    public int nonzeroBlocks() {
        int c = 0;
        for (EncodedTransform[] row : blocks) for (EncodedTransform b : row) if (b != null) c++;
        return c;
    }

    EncodedTransform block(int br, int bc) {
        return blocks[br][bc];
    }

    /** Bytes held by every block's encoded diagonals. */
    public long memoryBytes() {
        long s = 0;
        for (EncodedTransform[] row : blocks) for (EncodedTransform b : row) if (b != null) s += b.memoryBytes();
        return s;
    }

    /**
     * Closed-form counts of one evaluation: the input part of the program (phases 1–3: first
     * Decompose, inner and middle layers) once per input ciphertext, the diagonal sums once per
     * nonzero block with that block's diagonals, and the output part (outer layer, final ModDown)
     * once per output ciphertext. A block column or row that is all zero costs nothing (its output
     * is the zero ciphertext).
     */
    public Cost cost() {
        return cost(br -> 0);
    }

    /**
     * The counts when the block rows are cut into groups ({@code rowGroupOf}) and each group
     * evaluates a column apart, as tasks of a distributed product do: the input part of the program
     * runs once per column and row group holding a block of it; the rest is as in {@link #cost()}.
     */
    public Cost cost(IntUnaryOperator rowGroupOf) {
        int rowsUsed = nonzeroRows(), colsUsed = 0;
        for (int bc = 0; bc < blockCols; bc++) {
            Set<Integer> groups = new HashSet<>();
            for (int br = 0; br < blockRows; br++) if (blocks[br][bc] != null) groups.add(rowGroupOf.applyAsInt(br));
            colsUsed += groups.size();
        }
        EncodedTransform any = BlockExecutor.firstBlock(this); // every block carries the one compiled program
        LtProgram prog = any != null ? any.program() : LtProgram.compile(plan, LimbLayout.of(params, level));
        return CountingInterpreter.blockCounts(
                prog,
                storage,
                rowsUsed,
                colsUsed,
                Arrays.stream(blocks)
                        .flatMap(Arrays::stream)
                        .filter(Objects::nonNull)
                        .map(EncodedTransform::diagonalIndexSet)
                        .toList());
    }

    /**
     * The off-chip traffic of one evaluation on the six-phase schedule under {@code g} (peak working
     * set per phase included): in closed form ({@link PhaseModel#blockLedger}) when every nonzero
     * block holds every diagonal of the plan, otherwise by walking the schedule without data. Phases
     * 1–3 count once per input ciphertext, phase 4 once per block with the row's U read back after its
     * first block, phases 5–6 once per output ciphertext.
     */
    public TrafficLedger traffic(Grouping g) {
        EncodedTransform any = BlockExecutor.firstBlock(this);
        if (any == null) return new TrafficLedger.Builder().build();
        int rowsUsed = nonzeroRows(), colsUsed = 0, dense = 0;
        for (int bc = 0; bc < blockCols; bc++) if (BlockExecutor.columnHasBlocks(this, bc)) colsUsed++;
        for (EncodedTransform[] row : blocks)
            for (EncodedTransform b : row) if (b != null && b.diagonalCount() == plan.dimension()) dense++;
        if (plan.indices().size() == plan.dimension() && dense == nonzeroBlocks()) {
            return PhaseModel.of(plan, any.program().layout(), storage).blockLedger(g, colsUsed, rowsUsed, dense);
        }
        return BlockExecutor.traffic(this, g, Long.MAX_VALUE);
    }

    /** Block rows with at least one nonzero block (output ciphertexts that are not the zero ciphertext). */
    private int nonzeroRows() {
        int r = 0;
        for (int br = 0; br < blockRows; br++) if (BlockExecutor.rowHasBlocks(this, br)) r++;
        return r;
    }

    @Override
    public String toString() {
        return "EncodedBlockTransform[" + rows + "×" + cols + ", " + blockRows + "×" + blockCols + " blocks, "
                + plan.describe() + ", level " + level + "]";
    }
}
