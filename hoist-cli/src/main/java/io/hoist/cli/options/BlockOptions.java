package io.hoist.cli.options;

import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.SizeLimitException;
import io.hoist.lt.BlockLinearTransform;
import picocli.CommandLine.Option;

/** The shape of a block matrix, shared by {@code lt --rows} and {@code spark-lt}: rows, columns and block dimension. */
public final class BlockOptions {
    @Option(
            names = "--rows",
            description = "block matrix: number of rows (any size; the matrix is cut into blocks of the slot count)")
    Integer rows;

    @Option(names = "--cols", description = "block matrix: number of columns (default: --rows)")
    Integer cols;

    @Option(
            names = "--block",
            description =
                    "block matrix: block dimension, a power of two dividing the slots (default: the slot count, or less for a matrix that fits one ciphertext)")
    Integer block;

    /** Whether a block matrix was asked for. */
    public boolean given() {
        return rows != null || cols != null;
    }

    /** Rows, or the columns when only they were given; checked positive. */
    public int rows() {
        return positive(rows != null ? rows : cols);
    }

    /** Columns, or the rows when only they were given; checked positive. */
    public int cols() {
        return positive(cols != null ? cols : rows);
    }

    private int positive(Integer v) {
        if (v == null) throw new IllegalArgumentException("give the matrix shape with --rows (and --cols)");
        if (v < 1)
            throw new IllegalArgumentException("--rows and --cols must be positive, got " + rows + " and " + cols);
        return v;
    }

    /** ⌈rows/b⌉·⌈cols/b⌉ in long arithmetic, refused past what one product can index. */
    public long blockCount(int b) {
        long blocks = BlockLinearTransform.blockCount(rows(), cols(), b);
        if (blocks > BlockLinearTransform.MAX_BLOCKS) {
            throw new SizeLimitException("a " + rows() + "×" + cols() + " matrix in blocks of " + b
                    + " has " + blocks + " blocks, more than the " + BlockLinearTransform.MAX_BLOCKS
                    + " one product can index; use larger blocks");
        }
        return blocks;
    }

    /** ⌈rows/b⌉, exact for every int shape. */
    public int blockRows(int b) {
        return (rows() - 1) / b + 1;
    }

    /** The block dimension asked for, or the default for this shape, checked against the slots. */
    public int blockDimension(CkksParameters params) {
        int b = block != null ? block : BlockLinearTransform.blockDimensionFor(rows(), cols(), params.slots());
        if (b < 1 || Integer.bitCount(b) != 1 || params.slots() % b != 0)
            throw new IllegalArgumentException(
                    "--block must be a power of two dividing the " + params.slots() + " slots, got " + b);
        return b;
    }
}
