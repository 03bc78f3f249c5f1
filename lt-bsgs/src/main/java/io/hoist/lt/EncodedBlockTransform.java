package io.hoist.lt;

import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.Progress;
import io.hoist.lt.exec.DiagonalEncoder;
import io.hoist.lt.exec.EncodedDiagonals;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.CountingInterpreter;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.PhaseModel;
import io.hoist.lt.schedule.SixPhaseWalk;
import io.hoist.lt.schedule.TrafficLedger;
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
    private final EncodedDiagonals[][] blocks;

    EncodedBlockTransform(
            CkksParameters params,
            Plan plan,
            int level,
            double scale,
            Storage storage,
            BlockLinearTransform t,
            EncodedDiagonals[][] blocks) {
        InvalidTransformException.check(
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

    /** What a block product's pool needs: the block rows that hold a block, and how many of them hold one before the last column. */
    @FunctionalInterface
    interface GridShape {
        void seen(LtProgram program, int rowsWithBlocks, int rowsBeforeLastColumn);
    }

    /**
     * A block grid's shape as its nonzero blocks arrive in row-major order, in O(1) per block: the rows
     * holding a block, the last column holding one, and the rows whose first block lies in a column
     * before it (rows opened per column, summed as the last column moves right).
     */
    static final class GridTracker {
        private final int[] openedAt;
        private int row = -1, rows, lastCol = -1, before;

        GridTracker(int cols) {
            openedAt = new int[cols];
        }

        /** Nonzero block (br, bc), after every block before it in row-major order: whether the shape changed. */
        boolean add(int br, int bc) {
            boolean opens = br != row;
            if (!opens && bc <= lastCol) return false;
            if (opens) {
                row = br;
                rows++;
                openedAt[bc]++;
                if (bc < lastCol) before++;
            }
            for (int c = Math.max(lastCol, 0); c < bc; c++) before += openedAt[c];
            lastCol = Math.max(lastCol, bc);
            return true;
        }

        int rows() {
            return rows;
        }

        int rowsBeforeLastColumn() {
            return before;
        }
    }

    /**
     * Every block of {@code t} encoded for {@code plan} by {@code enc} (checked by the caller for nulls).
     * {@code shape} hears the grid's shape so far each time a block opens a block row or a later block
     * column, before that block is encoded.
     */
    static EncodedBlockTransform encode(
            DiagonalEncoder enc,
            CkksParameters params,
            BlockLinearTransform t,
            Plan plan,
            int level,
            Storage storage,
            Progress progress,
            GridShape shape) {
        if (plan.dimension() != t.blockDimension()) {
            throw new InvalidTransformException(
                    "plan " + plan + " has dimension " + plan.dimension() + ", the blocks " + t.blockDimension());
        }
        if (plan.algorithm() == Algorithm.BSGS)
            throw new InvalidTransformException(
                    "block products hoist each input's rotations and need diagonal, dh-bsgs or th-bsgs, not bsgs");
        double scale = params.q(level);
        enc.checkEncode(t.blockDimension(), level, scale, true);
        LtProgram program = LtProgram.compile(plan, LimbLayout.of(params, level));
        int rows = t.blockRows(), cols = t.blockCols();
        EncodedDiagonals[][] blocks = new EncodedDiagonals[rows][cols];
        GridTracker grid = new GridTracker(cols);
        for (int br = 0; br < rows; br++) {
            for (int bc = 0; bc < cols; bc++) {
                LinearTransform b = t.block(br, bc);
                if (b != null) {
                    if (!plan.indices().containsAll(b.diagonalIndices())) {
                        throw new InvalidTransformException("block (" + br + ", " + bc + ") has diagonals outside plan "
                                + plan + ": make the plan for the union of the blocks' diagonals");
                    }
                    if (grid.add(br, bc)) shape.seen(program, grid.rows(), grid.rowsBeforeLastColumn());
                    blocks[br][bc] = enc.encodeDiagonals(b, plan, level, storage, scale, true, Progress.NONE, program);
                }
                synchronized (progress) {
                    progress.step((long) br * cols + bc + 1, (long) rows * cols);
                }
            }
        }
        return new EncodedBlockTransform(params, plan, level, scale, storage, t, blocks);
    }

    /** Blocks that are not all zero. */
    public int nonzeroBlocks() {
        int c = 0;
        for (EncodedDiagonals[] row : blocks) for (EncodedDiagonals b : row) if (b != null) c++;
        return c;
    }

    /** The engine's blocks, [blockRow][blockCol] (null for a zero block); live, for the executors only. */
    EncodedDiagonals[][] grid() {
        return blocks;
    }

    /** A block that is not all zero (its program is every block's), or null. */
    EncodedDiagonals firstBlock() {
        return EncodedDiagonals.firstOf(blocks);
    }

    /** Bytes held by every block's encoded diagonals. */
    public long memoryBytes() {
        long s = 0;
        for (EncodedDiagonals[] row : blocks) for (EncodedDiagonals b : row) if (b != null) s += b.memoryBytes();
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
        EncodedDiagonals any = firstBlock(); // every block carries the one compiled program
        LtProgram prog = any != null ? any.program() : LtProgram.compile(plan, LimbLayout.of(params, level));
        return CountingInterpreter.blockCounts(
                prog,
                storage,
                rowsUsed,
                colsUsed,
                Arrays.stream(blocks)
                        .flatMap(Arrays::stream)
                        .filter(Objects::nonNull)
                        .map(EncodedDiagonals::diagonalIndexSet)
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
        EncodedDiagonals any = firstBlock();
        if (any == null) return TrafficLedger.empty();
        int rowsUsed = nonzeroRows(), colsUsed = 0, dense = 0;
        for (int bc = 0; bc < blockCols; bc++) {
            boolean used = false;
            for (int br = 0; br < blockRows; br++) used |= blocks[br][bc] != null;
            if (used) colsUsed++;
        }
        for (EncodedDiagonals[] row : blocks)
            for (EncodedDiagonals b : row) if (b != null && b.diagonalCount() == plan.dimension()) dense++;
        if (plan.indices().size() == plan.dimension() && dense == nonzeroBlocks()) {
            return PhaseModel.of(plan, any.program().layout(), storage).blockLedger(g, colsUsed, rowsUsed, dense);
        }
        return dryTraffic(g);
    }

    /** The traffic by the dry walk of the block loop, never the closed form (the tests' independent check of it). */
    TrafficLedger dryTraffic(Grouping g) {
        EncodedDiagonals any = firstBlock();
        if (any == null) return TrafficLedger.empty();
        return SixPhaseWalk.dryBlocks(any.program(), storage, g, Long.MAX_VALUE, blockRows, blockCols, (br, bc) -> {
            EncodedDiagonals b = blocks[br][bc];
            return b == null ? null : b::contains;
        });
    }

    /** Block rows with at least one nonzero block (output ciphertexts that are not the zero ciphertext). */
    private int nonzeroRows() {
        int r = 0;
        for (EncodedDiagonals[] row : blocks) if (Arrays.stream(row).anyMatch(Objects::nonNull)) r++;
        return r;
    }

    @Override
    public String toString() {
        return "EncodedBlockTransform[" + rows + "×" + cols + ", " + blockRows + "×" + blockCols + " blocks, "
                + plan.describe() + ", level " + level + "]";
    }
}
