package io.hoist.lt;

import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.SizeLimitException;
import io.hoist.lt.plan.Diagonals;
import io.hoist.lt.plan.InvalidTransformException;
import it.unimi.dsi.fastutil.ints.Int2ObjectAVLTreeMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectSortedMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectSortedMaps;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;

/**
 * A linear map y = M·x on n slots, held by its nonzero diagonals f_r[t] = M[t][(t+r) mod n]
 * (spec §1), so that M·x = Σ_r f_r ⊙ Rot_r(x). A dimension that is not a power of two is zero-padded
 * to the next one; when n is below the slot count the input must be replicated with period n
 * ({@link #replicate}) so rotations wrap mod n. Immutable.
 */
public final class LinearTransform implements Diagonals {
    private final int n;
    private final int originalDimension;
    private final Int2ObjectSortedMap<ComplexVector> diagonals;

    private LinearTransform(int n, int originalDimension, Int2ObjectSortedMap<ComplexVector> diagonals) {
        this.n = n;
        this.originalDimension = originalDimension;
        this.diagonals = Int2ObjectSortedMaps.unmodifiable(diagonals);
    }

    /**
     * A power-of-two n×n transform from nonzero diagonals already indexed in [0, n), taken as they
     * are (no copies: a block of 2^24 entries would otherwise pass through three).
     */
    static LinearTransform ofDiagonals(int n, Int2ObjectAVLTreeMap<ComplexVector> diagonals) {
        if (Integer.bitCount(n) != 1 || diagonals.isEmpty())
            throw new InvalidTransformException("a power-of-two dimension and at least one diagonal, got " + n);
        for (var e : diagonals.int2ObjectEntrySet()) {
            if (e.getIntKey() < 0 || e.getIntKey() >= n || e.getValue().length() != n)
                throw new InvalidTransformException(
                        "diagonal " + e.getIntKey() + " of " + e.getValue().length() + " entries in dimension " + n);
        }
        return new LinearTransform(n, n, diagonals);
    }

    /** The power of two a d×d matrix is padded to (d itself when it is one). */
    public static int paddedDimension(int d) {
        if (d < 1) throw new InvalidTransformException("dimension must be positive: " + d);
        if (d > 1 << 30) throw new SizeLimitException("dimension " + d + " pads past 2^30");
        return Integer.highestOneBit(d) == d ? d : Integer.highestOneBit(d) << 1;
    }

    /** From a dense d×d matrix (imaginary part may be null); all-zero diagonals are dropped. */
    public static LinearTransform dense(double[][] re, double[][] im) {
        Objects.requireNonNull(re, "re is null");
        int d = re.length;
        if (im != null && im.length != d)
            throw new InvalidTransformException("the real part has " + d + " rows, the imaginary part " + im.length);
        for (int i = 0; i < d; i++) {
            if (re[i].length != d || (im != null && im[i].length != d))
                throw new InvalidTransformException("matrix is not square: row " + i);
        }
        int n = paddedDimension(d);
        Int2ObjectAVLTreeMap<ComplexVector> diags = new Int2ObjectAVLTreeMap<>();
        for (int r = 0; r < n; r++) {
            double[] a = new double[n], b = new double[n];
            boolean nonzero = false;
            for (int t = 0; t < n; t++) {
                int c = (t + r) % n;
                if (t < d && c < d) {
                    a[t] = re[t][c];
                    b[t] = im == null ? 0 : im[t][c];
                    nonzero |= a[t] != 0 || b[t] != 0;
                }
            }
            if (nonzero) diags.put(r, new ComplexVector(a, b));
        }
        if (diags.isEmpty()) diags.put(0, ComplexVector.zeros(n));
        return new LinearTransform(n, d, diags);
    }

    /**
     * From a map diagonal index → diagonal of a d×d matrix, f_r[t] = M[t][(t+r) mod d], holding only
     * the nonzero diagonals (any offsets; negative ones taken mod d). Diagonals shorter than d are
     * zero-extended. When d is not a power of two, each diagonal r splits into the padded
     * diagonals r (entries with t + r &lt; d) and r − d mod n (the wrapped entries).
     */
    public static LinearTransform fromDiagonals(int d, Map<Integer, ComplexVector> diagonals) {
        Objects.requireNonNull(diagonals, "diagonals is null");
        int n = paddedDimension(d);
        if (diagonals.isEmpty()) throw new InvalidTransformException("a transform needs at least one diagonal");
        Int2ObjectAVLTreeMap<double[][]> acc = new Int2ObjectAVLTreeMap<>();
        Int2ObjectAVLTreeMap<ComplexVector> diags = new Int2ObjectAVLTreeMap<>();
        Set<Integer> seen = new HashSet<>();
        for (var e : diagonals.entrySet()) {
            ComplexVector v = Objects.requireNonNull(e.getValue(), "diagonal " + e.getKey());
            if (v.length() > d)
                throw new InvalidTransformException(
                        "diagonal " + e.getKey() + " has " + v.length() + " entries, dimension is " + d);
            int r = Math.floorMod(e.getKey(), d);
            if (!seen.add(r)) throw new InvalidTransformException("two diagonals map to index " + r + " mod " + d);
            if (n == d && v.length() == d) {
                // a whole diagonal of a power-of-two dimension stays whole: the immutable vector is kept
                // as given, not copied twice (the demo's 4096 diagonals: 0.5 GB less to allocate and promote)
                if (!isZero(v)) diags.put(r, v);
                continue;
            }
            // entries t < d − r stay on diagonal r, the rest wrap to r − d mod n; each target is looked
            // up once, at its first nonzero entry
            int split = Math.min(v.length(), d - r);
            double[][] f = null;
            for (int t = 0; t < v.length(); t++) {
                if (t == split) f = null;
                if (v.re(t) == 0 && v.im(t) == 0) continue;
                if (f == null) f = acc.computeIfAbsent(t < split ? r : Math.floorMod(r - d, n), k -> new double[2][n]);
                f[0][t] = v.re(t);
                f[1][t] = v.im(t);
            }
        }
        for (var e : acc.int2ObjectEntrySet())
            diags.put(e.getIntKey(), new ComplexVector(e.getValue()[0], e.getValue()[1]));
        if (diags.isEmpty()) diags.put(0, ComplexVector.zeros(n));
        return new LinearTransform(n, d, diags);
    }

    /** Whether every entry of {@code v} is zero (either sign), the entries a diagonal is built without. */
    private static boolean isZero(ComplexVector v) {
        for (int t = 0; t < v.length(); t++) if (v.re(t) != 0 || v.im(t) != 0) return false;
        return true;
    }

    /**
     * The product A·B of two transforms of one dimension (B applied first): with
     * y[t] = Σ_r a_r[t]·(Bx)[t+r], the diagonal r+s collects a_r[t]·b_s[t+r]. Diagonals that cancel
     * to exactly zero are dropped.
     */
    public static LinearTransform product(LinearTransform a, LinearTransform b) {
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(b, "b is null");
        if (a.n != b.n) throw new InvalidTransformException("dimensions differ: " + a.n + " and " + b.n);
        int n = a.n;
        Int2ObjectAVLTreeMap<double[][]> acc = new Int2ObjectAVLTreeMap<>();
        for (var ea : a.diagonals.int2ObjectEntrySet()) {
            int r = ea.getIntKey();
            double[] ar = ea.getValue().re(), ai = ea.getValue().im();
            for (var eb : b.diagonals.int2ObjectEntrySet()) {
                int s = eb.getIntKey();
                double[] br = eb.getValue().re(), bi = eb.getValue().im();
                double[][] c = acc.computeIfAbsent((r + s) % n, k -> new double[2][n]);
                for (int t = 0; t < n; t++) {
                    int u = (t + r) % n;
                    c[0][t] += ar[t] * br[u] - ai[t] * bi[u];
                    c[1][t] += ar[t] * bi[u] + ai[t] * br[u];
                }
            }
        }
        return fromAccumulated(n, Math.max(a.originalDimension, b.originalDimension), acc);
    }

    /** c·M. */
    public LinearTransform scaled(double c) {
        Int2ObjectAVLTreeMap<ComplexVector> d = new Int2ObjectAVLTreeMap<>();
        for (var e : diagonals.int2ObjectEntrySet())
            d.put(e.getIntKey(), e.getValue().scale(c));
        return new LinearTransform(n, originalDimension, d);
    }

    /** diag(mask)·M: row t multiplied by mask[t] (mask of length n). */
    public LinearTransform rowScaled(ComplexVector mask) {
        Objects.requireNonNull(mask, "mask is null");
        if (mask.length() != n)
            throw new InvalidTransformException("mask of length " + mask.length() + " for dimension " + n);
        Int2ObjectAVLTreeMap<double[][]> acc = new Int2ObjectAVLTreeMap<>();
        for (var e : diagonals.int2ObjectEntrySet()) {
            ComplexVector m = e.getValue().mul(mask);
            acc.put(e.getIntKey(), new double[][] {m.re(), m.im()});
        }
        return fromAccumulated(n, originalDimension, acc);
    }

    /**
     * This n-dimensional transform as a transform of dimension {@code dimension} (a multiple of n)
     * that acts as M on every period of an input with period n: the same offsets, the diagonals
     * repeated. On inputs without that period it is a different map — callers compose it only after
     * a map whose output is periodic.
     */
    public LinearTransform periodicExtension(int dimension) {
        if (dimension < n || dimension % n != 0 || Integer.bitCount(dimension) != 1)
            throw new InvalidTransformException("dimension " + dimension + " is not a power-of-two multiple of " + n);
        Int2ObjectAVLTreeMap<ComplexVector> d = new Int2ObjectAVLTreeMap<>();
        for (var e : diagonals.int2ObjectEntrySet()) d.put(e.getIntKey(), replicate(e.getValue(), dimension));
        return new LinearTransform(dimension, dimension, d);
    }

    private static LinearTransform fromAccumulated(int n, int originalDimension, Int2ObjectAVLTreeMap<double[][]> acc) {
        Int2ObjectAVLTreeMap<ComplexVector> diags = new Int2ObjectAVLTreeMap<>();
        for (var e : acc.int2ObjectEntrySet()) {
            double[][] f = e.getValue();
            boolean nonzero = false;
            for (int t = 0; t < n && !nonzero; t++) nonzero = f[0][t] != 0 || f[1][t] != 0;
            if (nonzero) diags.put(e.getIntKey(), new ComplexVector(f[0], f[1]));
        }
        if (diags.isEmpty()) diags.put(0, ComplexVector.zeros(n));
        return new LinearTransform(n, originalDimension, diags);
    }

    /** The (padded, power-of-two) dimension n. */
    @Override
    public int dimension() {
        return n;
    }
    /** The dimension before padding. */
    public int originalDimension() {
        return originalDimension;
    }

    @Override
    public SortedSet<Integer> diagonalIndices() {
        return ImmutableSortedSet.copyOf(diagonals.keySet());
    }

    @Override
    public ComplexVector diagonal(int r) {
        return diagonals.get(r);
    }

    public int diagonalCount() {
        return diagonals.size();
    }

    /** Plaintext reference y = M·x = Σ_r f_r ⊙ Rot_r(x) on n slots (x shorter than n is zero-padded). */
    public ComplexVector apply(ComplexVector x) {
        Objects.requireNonNull(x, "x is null");
        ComplexVector xs = pad(x, n);
        // y += f_r ⊙ Rot_r(x) per diagonal into two arrays, with ComplexVector's mul and add in the same order, so the
        // same bits; composing them made three vectors per diagonal (0.8 GB for the demo's 4096², half a second)
        double[] yr = new double[n], yi = new double[n];
        for (var e : diagonals.int2ObjectEntrySet()) {
            ComplexVector f = e.getValue();
            for (int t = 0, s = Math.floorMod(e.getIntKey(), n); t < n; t++) {
                double fr = f.re(t), fi = f.im(t), xr = xs.re(s), xi = xs.im(s);
                yr[t] = yr[t] + (fr * xr - fi * xi);
                yi[t] = yi[t] + (fr * xi + fi * xr);
                if (++s == n) s = 0;
            }
        }
        return new ComplexVector(yr, yi);
    }

    /** x (length ≤ n) zero-padded to n and repeated to fill {@code slots}. */
    public ComplexVector replicate(ComplexVector x, int slots) {
        Objects.requireNonNull(x, "x is null");
        if (slots < n || slots % n != 0)
            throw new InvalidTransformException("transform dimension " + n + " does not divide " + slots + " slots");
        ComplexVector xs = pad(x, n);
        double[] a = new double[slots], b = new double[slots];
        for (int t = 0; t < slots; t++) {
            a[t] = xs.re(t % n);
            b[t] = xs.im(t % n);
        }
        return new ComplexVector(a, b);
    }

    static ComplexVector pad(ComplexVector x, int n) {
        if (x.length() > n)
            throw new InvalidTransformException("vector of length " + x.length() + " exceeds the dimension " + n);
        double[] a = new double[n], b = new double[n];
        System.arraycopy(x.re(), 0, a, 0, x.length());
        System.arraycopy(x.im(), 0, b, 0, x.length());
        return new ComplexVector(a, b);
    }

    @Override
    public String toString() {
        return "LinearTransform[n=" + n + ", " + diagonals.size() + " diagonals]";
    }
}
