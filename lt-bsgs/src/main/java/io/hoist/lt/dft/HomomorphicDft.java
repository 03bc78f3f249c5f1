package io.hoist.lt.dft;

import com.google.common.collect.ImmutableList;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.SpecialFft;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.plan.InvalidTransformException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The homomorphic DFT of CKKS bootstrapping (spec lt-algorithms §9): CoeffsToSlots (encode
 * direction) or SlotsToCoeffs (decode direction) factored into {@code depth} sparse matrices, one per
 * level, each a product of consecutive special-FFT stages (Lattigo's merging rule), with the 1/(2n)
 * scaling of CoeffsToSlots spread evenly as (1/(2n))^{1/depth}. The bit reversal is left out: CtS
 * leaves its output bit-reversed and StoC takes bit-reversed input (§9.1).
 *
 * <p>Dense packing (logSlots = logN − 1): CtS yields two ciphertexts, Re and Im of t_lo + i·t_hi;
 * StoC takes them back. Sparse packing (logSlots &lt; logN − 1): the ciphertext carries 2n slots;
 * CtS folds the repack diag([1]·n, [−i]·n) into its last matrix so that one conjugation leaves
 * [Re w, Im w] in one ciphertext; StoC folds the inverse repack (offsets 0 and n) into its first
 * matrix. Immutable.
 */
public final class HomomorphicDft {
    /** Which direction. */
    public enum Kind {
        COEFFS_TO_SLOTS("CoeffsToSlots"),
        SLOTS_TO_COEFFS("SlotsToCoeffs");
        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private final Kind kind;
    private final int logN, logSlots, depth;
    private final ImmutableList<Integer> merge;
    private final ImmutableList<LinearTransform> matrices;
    private final ImmutableList<Integer> levels;
    private final ImmutableList<Integer> perLevel;

    private final double scaling;

    private HomomorphicDft(
            Kind kind,
            int logN,
            int logSlots,
            int depth,
            List<Integer> merge,
            List<LinearTransform> matrices,
            List<Integer> levels,
            List<Integer> perLevel,
            double scaling) {
        this.scaling = scaling;
        this.kind = kind;
        this.logN = logN;
        this.logSlots = logSlots;
        this.depth = depth;
        this.merge = ImmutableList.copyOf(merge);
        this.matrices = ImmutableList.copyOf(matrices);
        this.levels = ImmutableList.copyOf(levels);
        this.perLevel = ImmutableList.copyOf(perLevel);
    }

    /** CoeffsToSlots for 2^logSlots slots at ring degree 2^logN, its first matrix at {@code topLevel}, one level per matrix. */
    public static HomomorphicDft coeffsToSlots(int logN, int logSlots, int depth, int topLevel) {
        return build(Kind.COEFFS_TO_SLOTS, logN, logSlots, ones(depth), topLevel, 1.0);
    }

    /**
     * CoeffsToSlots with {@code matricesPerLevel[g]} matrices sharing level topLevel − g (Lattigo's
     * {@code Levels}): depth = Σ entries; the k matrices of a level are encoded at scale q_ℓ^{1/k}
     * and only the last rescales.
     */
    public static HomomorphicDft coeffsToSlots(int logN, int logSlots, int[] matricesPerLevel, int topLevel) {
        return build(Kind.COEFFS_TO_SLOTS, logN, logSlots, matricesPerLevel, topLevel, 1.0);
    }

    /** SlotsToCoeffs for 2^logSlots slots, its first matrix at {@code topLevel}, one level per matrix. */
    public static HomomorphicDft slotsToCoeffs(int logN, int logSlots, int depth, int topLevel) {
        return build(Kind.SLOTS_TO_COEFFS, logN, logSlots, ones(depth), topLevel, 1.0);
    }

    /** SlotsToCoeffs with several matrices per level, as {@link #coeffsToSlots(int, int, int[], int)}. */
    public static HomomorphicDft slotsToCoeffs(int logN, int logSlots, int[] matricesPerLevel, int topLevel) {
        return build(Kind.SLOTS_TO_COEFFS, logN, logSlots, matricesPerLevel, topLevel, 1.0);
    }

    /**
     * A DFT whose whole product is multiplied by {@code scaling}, spread as scaling^{1/depth} over its
     * matrices: bootstrapping folds its constants (1/K and q_0 before EvalMod, the message ratio
     * after) into the DFTs instead of spending a level on them.
     */
    public static HomomorphicDft scaled(
            Kind kind, int logN, int logSlots, int[] matricesPerLevel, int topLevel, double scaling) {
        if (!(scaling > 0) || Double.isInfinite(scaling))
            throw new InvalidTransformException("scaling must be positive and finite, got " + scaling);
        return build(kind, logN, logSlots, matricesPerLevel, topLevel, scaling);
    }

    private static int[] ones(int depth) {
        if (depth < 1) throw new InvalidTransformException("depth must be at least 1, got " + depth);
        int[] a = new int[depth];
        Arrays.fill(a, 1);
        return a;
    }

    /** {@code matricesPerLevel} of ones: one matrix per level. */
    public static int[] oneMatrixPerLevel(int depth) {
        return ones(depth);
    }

    private static HomomorphicDft build(
            Kind kind, int logN, int logSlots, int[] matricesPerLevel, int topLevel, double scaling) {
        int depth = 0;
        for (int k : matricesPerLevel) {
            if (k < 1)
                throw new InvalidTransformException(
                        "every level holds at least one matrix: " + Arrays.toString(matricesPerLevel));
            depth += k;
        }
        check(logN, logSlots, depth);
        int levelsUsed = matricesPerLevel.length;
        if (topLevel - levelsUsed + 1 < 1) {
            throw new InvalidTransformException(
                    kind.label() + " on " + levelsUsed + " levels from level " + topLevel + " would leave level "
                            + (topLevel - levelsUsed) + "; it needs a ciphertext level of at least " + levelsUsed);
        }
        int n = 1 << logSlots;
        boolean sparse = logSlots < logN - 1;
        List<LinearTransform> stages = DftFactorization.stages(new SpecialFft(logN), logSlots, kind);
        int[] merge = DftFactorization.mergeChain(logSlots, depth, kind);
        double c = (kind == Kind.COEFFS_TO_SLOTS ? Math.pow(1.0 / (2 * n), 1.0 / depth) : 1.0)
                * Math.pow(scaling, 1.0 / depth);
        List<LinearTransform> mats = new ArrayList<>();
        List<Integer> levels = new ArrayList<>(), perLevel = new ArrayList<>();
        for (int g = 0; g < levelsUsed; g++) {
            for (int k = 0; k < matricesPerLevel[g]; k++) {
                levels.add(topLevel - g);
                perLevel.add(matricesPerLevel[g]);
            }
        }
        int s = 0;
        for (int i = 0; i < depth; i++) {
            LinearTransform m = stages.get(s++);
            for (int k = 1; k < merge[i]; k++) m = LinearTransform.product(stages.get(s++), m);
            m = m.scaled(c);
            if (sparse && kind == Kind.COEFFS_TO_SLOTS && i == depth - 1)
                m = m.periodicExtension(2 * n).rowScaled(DftFactorization.repackMask(n));
            if (sparse && kind == Kind.SLOTS_TO_COEFFS && i == 0)
                m = LinearTransform.product(m.periodicExtension(2 * n), DftFactorization.unpack(n));
            mats.add(m);
        }
        List<Integer> mergeList = new ArrayList<>();
        for (int x : merge) mergeList.add(x);
        return new HomomorphicDft(kind, logN, logSlots, depth, mergeList, mats, levels, perLevel, scaling);
    }

    private static void check(int logN, int logSlots, int depth) {
        InvalidTransformException.check(logN >= 2, "logN must be at least 2, got %s", logN);
        if (logSlots < 1 || logSlots > logN - 1)
            throw new InvalidTransformException(
                    "logSlots must be in [1, logN − 1 = " + (logN - 1) + "], got " + logSlots);
        if (depth < 1 || depth > logSlots)
            throw new InvalidTransformException("depth must be in [1, logSlots = " + logSlots + "], got " + depth);
    }

    /**
     * The ring coefficients (length N) of a plaintext carrying the 2n values t: t_k at k·N/(2n), so
     * that its n slots hold U0·(t_lo + i·t_hi) (§9.1).
     */
    public double[] coefficientLayout(double[] t) {
        int n2 = 2 << logSlots, gap = (1 << logN) / n2;
        if (t.length != n2)
            throw new InvalidTransformException(
                    "expected " + n2 + " values for 2^" + logSlots + " slots, got " + t.length);
        double[] c = new double[1 << logN];
        for (int k = 0; k < n2; k++) c[k * gap] = t[k];
        return c;
    }

    /** The 2n values t read back from ring coefficients laid out as {@link #coefficientLayout}. */
    public double[] valuesOf(double[] coefficients) {
        int n2 = 2 << logSlots, gap = (1 << logN) / n2;
        if (coefficients.length != 1 << logN)
            throw new InvalidTransformException(
                    "expected " + (1 << logN) + " coefficients, got " + coefficients.length);
        double[] t = new double[n2];
        for (int k = 0; k < n2; k++) t[k] = coefficients[k * gap];
        return t;
    }

    /**
     * The slots CoeffsToSlots of t leaves, bit-reversed: dense packing [BR(t_lo)] and [BR(t_hi)],
     * sparse packing one vector [BR(t_lo) | BR(t_hi)] of 2n slots.
     */
    public List<ComplexVector> expectedSlots(double[] t) {
        int n = 1 << logSlots;
        if (t.length != 2 * n) throw new InvalidTransformException("expected " + 2 * n + " values, got " + t.length);
        double[] lo = new double[n], hi = new double[n];
        for (int j = 0; j < n; j++) {
            int b = SpecialFft.bitReverse(j, logSlots);
            lo[j] = t[b];
            hi[j] = t[n + b];
        }
        if (!sparse()) return ImmutableList.of(ComplexVector.ofReal(lo), ComplexVector.ofReal(hi));
        double[] both = new double[2 * n];
        System.arraycopy(lo, 0, both, 0, n);
        System.arraycopy(hi, 0, both, n, n);
        return ImmutableList.of(ComplexVector.ofReal(both));
    }

    public Kind kind() {
        return kind;
    }

    /** The factor folded into the whole transform (1 unless made by {@link #scaled}). */
    public double scaling() {
        return scaling;
    }

    public int logN() {
        return logN;
    }

    public int logSlots() {
        return logSlots;
    }
    /** 2^logSlots, the DFT size n. */
    public int dftSize() {
        return 1 << logSlots;
    }
    /** Whether the ciphertext carries 2n slots (logSlots &lt; logN − 1). */
    public boolean sparse() {
        return logSlots < logN - 1;
    }
    /** The slot count the parameters must have: n (dense) or 2n (sparse). */
    public int ciphertextSlots() {
        return sparse() ? 2 << logSlots : 1 << logSlots;
    }

    public int depth() {
        return depth;
    }
    /** Stages merged into each matrix, in the order the matrices are applied. */
    public List<Integer> merge() {
        return merge;
    }

    public List<LinearTransform> matrices() {
        return matrices;
    }
    /** The ciphertext level at which each matrix is applied (it leaves at one below). */
    public List<Integer> levels() {
        return levels;
    }
    /** The level of the output. */
    public int outputLevel() {
        return levels.get(depth - 1) - 1;
    }
    /** How many matrices share matrix i's level (1 by default). */
    public int sharing(int i) {
        checkLevelIndex(i);
        return perLevel.get(i);
    }
    /** Whether matrix i rescales (the last matrix of its level). */
    public boolean rescales(int i) {
        checkMatrixIndex(i);
        return i == depth - 1 || !levels.get(i + 1).equals(levels.get(i));
    }
    /** Matrix i's plaintext scale at {@code q}, its level's prime: q^{1/k} for the k matrices sharing a level, the last taking the remainder. */
    public double plaintextScale(int i, double q) {
        int k = perLevel.get(i);
        if (k == 1) return q;
        double share = Math.pow(q, 1.0 / k);
        return rescales(i) ? q / Math.pow(share, k - 1) : share;
    }

    /** The smallest offset between two diagonals of matrix i (its stride, 2^k), as reported. */
    public int stride(int i) {
        checkMatrixIndex(i);
        var idx = matrices.get(i).diagonalIndices();
        int g = 0;
        for (int r : idx) g = gcd(g, r);
        return g == 0 ? matrices.get(i).dimension() : g;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    @Override
    public String toString() {
        return kind.label() + "[logN=" + logN + ", logSlots=" + logSlots + ", depth=" + depth + ", merge=" + merge
                + ", levels=" + levels + "]";
    }

    private void checkMatrixIndex(int i) {
        if (i < 0 || i >= matrices.size())
            throw new InvalidTransformException("no matrix " + i + " in a factorization of " + matrices.size());
    }

    private void checkLevelIndex(int i) {
        if (i < 0 || i >= perLevel.size())
            throw new InvalidTransformException("no level " + i + " in a factorization over " + perLevel.size());
    }
}
