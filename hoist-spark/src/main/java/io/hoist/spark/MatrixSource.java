package io.hoist.spark;

import io.hoist.lt.BlockLinearTransform;
import io.hoist.lt.LinearTransform;
import java.io.Serializable;

/**
 * The plaintext matrix of a distributed block product, as a recipe every executor can run: it is
 * shipped with the job (Java serialization, so keep it small — a seed, a path), and each task asks
 * it only for the blocks it evaluates. Must return the same block every time it is asked.
 */
public interface MatrixSource extends Serializable {
    int rows();

    int cols();

    /** b: each block is b×b. */
    int blockDimension();

    /** Block (row, column) as a b×b transform, or null for an all-zero block. */
    LinearTransform block(int blockRow, int blockCol);

    /** The matrix this source describes, blocks produced on demand. */
    default BlockLinearTransform matrix() {
        return BlockLinearTransform.of(rows(), cols(), blockDimension(), this::block);
    }

    /** The random dense test matrix of {@link BlockLinearTransform#random}: any block from (seed, position) alone. */
    static MatrixSource random(int rows, int cols, int blockDim, long seed) {
        return new RandomMatrix(rows, cols, blockDim, seed);
    }

    /** {@link BlockLinearTransform#random} as a source. */
    record RandomMatrix(int rows, int cols, int blockDimension, long seed) implements MatrixSource {
        @Override
        public LinearTransform block(int blockRow, int blockCol) {
            return BlockLinearTransform.random(rows, cols, blockDimension, seed).block(blockRow, blockCol);
        }
    }
}
