package io.hoist.lt;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.SizeLimitException;
import io.hoist.lt.plan.InvalidTransformException;
import it.unimi.dsi.fastutil.ints.Int2ObjectAVLTreeMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * An m×n matrix cut into b×b blocks, b a power of two dividing the slot count: ⌈m/b⌉ block rows
 * and ⌈n/b⌉ block columns, zero-padded at the edges. The input vector is ⌈n/b⌉ ciphertexts of b
 * entries each (replicated over the slots), the output ⌈m/b⌉ ciphertexts. A matrix that fits one
 * ciphertext but is not square (m ≠ n ≤ b) is the single-block case.
 *
 * <p>Blocks are produced on demand by a {@link BlockSource}, so a matrix far larger than memory can
 * be encoded block by block; the source must return the same block every time it is asked.
 */
public final class BlockLinearTransform {
    /** Block (row, column) as a b×b transform, or null for an all-zero block. */
    @FunctionalInterface
    public interface BlockSource {
        LinearTransform block(int blockRow, int blockCol);
    }

    /** Entry (i, j) of the matrix, 0 ≤ i &lt; rows, 0 ≤ j &lt; cols. */
    @FunctionalInterface
    public interface Entries {
        double at(int i, int j);
    }

    private final int rows, cols, blockDim;
    private final BlockSource source;

    private BlockLinearTransform(int rows, int cols, int blockDim, BlockSource source) {
        InvalidTransformException.check(
                rows >= 1 && cols >= 1, "a matrix needs at least one row and one column, got %s×%s", rows, cols);
        InvalidTransformException.check(
                blockDim >= 1 && Integer.bitCount(blockDim) == 1,
                "the block dimension must be a power of two, got %s",
                blockDim);
        long blocks = blockCount(rows, cols, blockDim);
        if (blocks > MAX_BLOCKS) {
            throw new SizeLimitException("a " + rows + "×" + cols + " matrix in blocks of " + blockDim
                    + " has " + ceilDiv(rows, blockDim) + "×" + ceilDiv(cols, blockDim) + " = " + blocks
                    + " blocks, more than the " + MAX_BLOCKS + " one product can index; use larger blocks");
        }
        this.rows = rows;
        this.cols = cols;
        this.blockDim = blockDim;
        this.source = Objects.requireNonNull(source, "source");
    }

    /** The most blocks one matrix may have: one array of 2^31 − 1 references indexes them. */
    public static final long MAX_BLOCKS = Integer.MAX_VALUE - 8;

    /** ⌈rows/b⌉·⌈cols/b⌉, in long arithmetic (never wraps for int shapes). */
    public static long blockCount(int rows, int cols, int blockDim) {
        return Math.multiplyExact(ceilDiv(rows, blockDim), ceilDiv(cols, blockDim));
    }

    private static long ceilDiv(int a, int b) {
        return Math.ceilDiv((long) a, (long) b);
    }

    /** Blocks from {@code source}; each must be a {@code blockDim}×{@code blockDim} transform (or null when zero). */
    public static BlockLinearTransform of(int rows, int cols, int blockDim, BlockSource source) {
        return new BlockLinearTransform(rows, cols, blockDim, source);
    }

    /**
     * The matrix with entries {@code re(i, j) + i·im(i, j)} ({@code im} may be null), read block by
     * block when a block is asked for.
     */
    public static BlockLinearTransform fromEntries(int rows, int cols, int blockDim, Entries re, Entries im) {
        Objects.requireNonNull(re, "re");
        return new BlockLinearTransform(rows, cols, blockDim, (br, bc) -> block(rows, cols, blockDim, br, bc, re, im));
    }

    /** A dense matrix held in memory (imaginary part may be null); all rows the same length. */
    public static BlockLinearTransform dense(double[][] re, double[][] im, int blockDim) {
        int m = re.length;
        InvalidTransformException.check(m >= 1, "empty matrix");
        int n = re[0].length;
        for (int i = 0; i < m; i++) {
            if (re[i].length != n || (im != null && (im.length != m || im[i].length != n))) {
                throw new InvalidTransformException("row " + i + " does not have " + n + " entries");
            }
        }
        return fromEntries(m, n, blockDim, (i, j) -> re[i][j], im == null ? null : (i, j) -> im[i][j]);
    }

    /**
     * Entry (i, j) of a random test matrix, uniform in [−1, 1]/√cols so that products stay O(1):
     * a function of (seed, i, j) alone, so any worker regenerates any block without the others.
     */
    public static Entries randomEntries(long seed, int cols) {
        if (cols < 1) throw new InvalidTransformException("a matrix of " + cols + " columns");
        double s = 1 / Math.sqrt(cols);
        return (i, j) -> firstDouble(seed * GOLDEN + (long) i * cols + j) * s;
    }

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    /**
     * {@code new SplittableRandom(z).nextDouble(-1, 1)} without the object: its first output is
     * mix64(z + γ) (Stafford's variant 13), scaled to [−1, 1). Generating a block of 2^24 entries
     * is then a few milliseconds of arithmetic instead of 2^24 short-lived generators.
     */
    static double firstDouble(long z) {
        z += GOLDEN;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        double r = (z >>> 11) * 0x1.0p-53 * 2 - 1;
        return r >= 1 ? Math.nextDown(1.0) : r;
    }

    /** A dense real rows×cols matrix of {@link #randomEntries} in blocks of {@code blockDim}, for experiments and tests. */
    public static BlockLinearTransform random(int rows, int cols, int blockDim, long seed) {
        return fromEntries(rows, cols, blockDim, randomEntries(seed, cols), null);
    }

    /** The smallest power-of-two block dimension holding an m×n matrix in one ciphertext, or the slot count when it does not fit. */
    public static int blockDimensionFor(int rows, int cols, int slots) {
        if (rows < 1 || cols < 1 || slots < 1 || Integer.bitCount(slots) != 1)
            throw new InvalidTransformException(
                    "block dimension for " + rows + "×" + cols + " over " + slots + " slots (a power of two)");
        int largest = Math.max(rows, cols);
        return largest >= slots ? slots : Math.min(LinearTransform.paddedDimension(largest), slots);
    }

    private static LinearTransform block(int rows, int cols, int b, int br, int bc, Entries re, Entries im) {
        int i0 = br * b, j0 = bc * b;
        int h = Math.min(b, rows - i0), w = Math.min(b, cols - j0);
        if (h <= 0 || w <= 0)
            throw new IndexOutOfBoundsException("block (" + br + ", " + bc + ") is outside the matrix");
        Int2ObjectAVLTreeMap<ComplexVector> diags = new Int2ObjectAVLTreeMap<>();
        for (int r = 0; r < b; r++) {
            double[] a = new double[b], c = new double[b];
            boolean nonzero = false;
            for (int t = 0; t < h; t++) {
                int j = (t + r) % b;
                if (j >= w) continue;
                a[t] = re.at(i0 + t, j0 + j);
                c[t] = im == null ? 0 : im.at(i0 + t, j0 + j);
                nonzero |= a[t] != 0 || c[t] != 0;
            }
            if (nonzero) diags.put(r, new ComplexVector(a, c));
        }
        return diags.isEmpty()
                ? null
                : LinearTransform.ofDiagonals(b, diags); // b is a power of two: the indices are final
    }

    /**
     * The same matrix with only the blocks whose row and column pass the filters (the others read as
     * zero): the share of one worker of a block product split across machines.
     */
    public BlockLinearTransform restrictedTo(IntPredicate blockRows, IntPredicate blockCols) {
        Objects.requireNonNull(blockRows, "blockRows");
        Objects.requireNonNull(blockCols, "blockCols");
        return new BlockLinearTransform(
                rows,
                cols,
                blockDim,
                (br, bc) -> blockRows.test(br) && blockCols.test(bc) ? source.block(br, bc) : null);
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }
    /** b: each block is b×b and each ciphertext carries b entries. */
    public int blockDimension() {
        return blockDim;
    }

    public int blockRows() {
        return (rows - 1) / blockDim + 1;
    }

    public int blockCols() {
        return (cols - 1) / blockDim + 1;
    }

    /** Block (row, column), checked against the block dimension; null when all zero. */
    public LinearTransform block(int blockRow, int blockCol) {
        Objects.checkIndex(blockRow, blockRows());
        Objects.checkIndex(blockCol, blockCols());
        LinearTransform t = source.block(blockRow, blockCol);
        if (t != null && t.dimension() != blockDim) {
            throw new InvalidTransformException("block (" + blockRow + ", " + blockCol + ") has dimension "
                    + t.dimension() + ", expected " + blockDim);
        }
        return t;
    }

    /** The union of every block's diagonal indices (one plan serves all blocks). Reads every block. */
    public SortedSet<Integer> diagonalIndices() {
        TreeSet<Integer> u = new TreeSet<>();
        for (int br = 0; br < blockRows(); br++) {
            for (int bc = 0; bc < blockCols(); bc++) {
                LinearTransform t = block(br, bc);
                if (t != null) u.addAll(t.diagonalIndices());
            }
        }
        if (u.isEmpty()) u.add(0);
        return ImmutableSortedSet.copyOf(u);
    }

    /** x (length cols) cut into the block columns' vectors of b entries, the last zero-padded. */
    public List<ComplexVector> splitInput(ComplexVector x) {
        if (x.length() != cols)
            throw new InvalidTransformException(
                    "input has " + x.length() + " entries, the matrix " + cols + " columns");
        return split(x, blockCols());
    }

    /** One block column's vector (b entries) repeated to fill {@code slots}, ready to encode. */
    public ComplexVector replicate(ComplexVector part, int slots) {
        if (part.length() != blockDim)
            throw new InvalidTransformException(
                    "a block column's vector has " + blockDim + " entries, got " + part.length());
        if (slots < blockDim || slots % blockDim != 0)
            throw new InvalidTransformException("block dimension " + blockDim + " does not divide " + slots + " slots");
        double[] a = new double[slots], c = new double[slots];
        for (int t = 0; t < slots; t++) {
            a[t] = part.re(t % blockDim);
            c[t] = part.im(t % blockDim);
        }
        return new ComplexVector(a, c);
    }

    /** The output vector (length rows) from the block rows' vectors (their first b entries). */
    public ComplexVector joinOutput(List<ComplexVector> parts) {
        if (parts.size() != blockRows())
            throw new InvalidTransformException(parts.size() + " output parts for " + blockRows() + " block rows");
        for (int k = 0; k < parts.size(); k++)
            if (parts.get(k).length() < blockDim)
                throw new InvalidTransformException(
                        "output part " + k + " has " + parts.get(k).length() + " entries, a block row " + blockDim);
        double[] a = new double[rows], c = new double[rows];
        for (int i = 0; i < rows; i++) {
            ComplexVector p = parts.get(i / blockDim);
            a[i] = p.re(i % blockDim);
            c[i] = p.im(i % blockDim);
        }
        return new ComplexVector(a, c);
    }

    /** Plaintext reference y = M·x block by block (reads every block). */
    public ComplexVector apply(ComplexVector x) {
        List<ComplexVector> xs = splitInput(x);
        List<ComplexVector> ys = new ArrayList<>();
        for (int br = 0; br < blockRows(); br++) {
            ComplexVector y = ComplexVector.zeros(blockDim);
            for (int bc = 0; bc < blockCols(); bc++) {
                LinearTransform t = block(br, bc);
                if (t != null) y = y.add(t.apply(xs.get(bc)));
            }
            ys.add(y);
        }
        return joinOutput(ys);
    }

    private ImmutableList<ComplexVector> split(ComplexVector x, int parts) {
        ImmutableList.Builder<ComplexVector> out = ImmutableList.builder();
        for (int p = 0; p < parts; p++) {
            double[] a = new double[blockDim], c = new double[blockDim];
            int len = Math.min(blockDim, x.length() - p * blockDim);
            System.arraycopy(x.re(), p * blockDim, a, 0, len);
            System.arraycopy(x.im(), p * blockDim, c, 0, len);
            out.add(new ComplexVector(a, c));
        }
        return out.build();
    }

    @Override
    public String toString() {
        return "BlockLinearTransform[" + rows + "×" + cols + ", " + blockRows() + "×" + blockCols() + " blocks of "
                + blockDim + "]";
    }
}
