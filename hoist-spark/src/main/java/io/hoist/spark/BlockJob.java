package io.hoist.spark;

import com.google.common.base.Preconditions;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.io.ParametersSerialization;
import io.hoist.lt.io.TransformSerialization;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.ring.NttBackends;
import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;
import java.util.UUID;

/**
 * What every task of a distributed block product needs, and nothing secret: the parameters and the
 * plan (in the Hoist binary format), the level, the matrix recipe, where the rotation keys are, how
 * the block rows are grouped into tasks, and the NTT backend. Immutable; travels inside Spark's
 * task closures.
 */
public final class BlockJob implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String id;
    private final byte[] params, plan;
    private final int level, rowGroups;
    private final MatrixSource matrix;
    private final KeySource keys;
    private final String backend;

    private BlockJob(
            CkksParameters params,
            Plan plan,
            int level,
            MatrixSource matrix,
            KeySource keys,
            int rowGroups,
            String backend) {
        Preconditions.checkArgument(
                plan.algorithm() != Algorithm.BSGS, "block products need diagonal, dh-bsgs or th-bsgs, not bsgs");
        Preconditions.checkArgument(
                plan.dimension() == matrix.blockDimension(),
                "plan of dimension %s for blocks of %s",
                plan.dimension(),
                matrix.blockDimension());
        Preconditions.checkArgument(
                level >= 1 && level <= params.maxLevel(), "level %s outside [1, %s]", level, params.maxLevel());
        Preconditions.checkArgument(
                params.slots() % matrix.blockDimension() == 0,
                "blocks of %s do not divide the %s slots",
                matrix.blockDimension(),
                params.slots());
        // the name only: the backend itself may exist on the executors alone (the Vector API module, a plug-in)
        if (backend != null && !NttBackends.names().contains(backend.strip().toLowerCase(Locale.ROOT)))
            throw new IllegalArgumentException("unknown NTT backend '" + backend + "'; known: " + NttBackends.names());
        int blockRows = blocks(matrix.rows(), matrix.blockDimension());
        Preconditions.checkArgument(
                rowGroups >= 1 && rowGroups <= blockRows,
                "row groups must be in [1, %s] (the block rows), got %s",
                blockRows,
                rowGroups);
        this.id = UUID.randomUUID().toString();
        this.params = ParametersSerialization.write(params);
        this.plan = TransformSerialization.write(plan);
        this.level = level;
        this.matrix = Objects.requireNonNull(matrix, "matrix");
        this.keys = Objects.requireNonNull(keys, "keys");
        this.rowGroups = rowGroups;
        this.backend = backend;
    }

    /**
     * A job for {@code matrix} under {@code plan} (made for the union of the blocks' diagonals) at
     * {@code level}; {@code rowGroups} splits each block column's work into that many tasks (more
     * parallelism, each task repeating the column's rotations); {@code backend} null for the default.
     */
    public static BlockJob of(
            CkksParameters params,
            Plan plan,
            int level,
            MatrixSource matrix,
            KeySource keys,
            int rowGroups,
            String backend) {
        return new BlockJob(params, plan, level, matrix, keys, rowGroups, backend);
    }

    /** Unique per job: executors keep one context and key set per job. */
    public String id() {
        return id;
    }

    public CkksParameters params() {
        return ParametersSerialization.read(params);
    }

    public Plan plan() {
        return TransformSerialization.readPlan(plan);
    }

    public int level() {
        return level;
    }

    public MatrixSource matrix() {
        return matrix;
    }

    public KeySource keys() {
        return keys;
    }

    public int rowGroups() {
        return rowGroups;
    }

    public String backend() {
        return backend;
    }

    public int blockRows() {
        return blocks(matrix.rows(), matrix.blockDimension());
    }

    public int blockCols() {
        return blocks(matrix.cols(), matrix.blockDimension());
    }

    /** ⌈size / b⌉ for size ≥ 1, without the overflow of (size + b − 1) / b near Integer.MAX_VALUE. */
    private static int blocks(int size, int b) {
        return (size - 1) / b + 1;
    }

    /** The row group of block row {@code br}: contiguous runs of rows, as even as possible. */
    public int rowGroupOf(int br) {
        return (int) ((long) br * rowGroups / blockRows());
    }
}
