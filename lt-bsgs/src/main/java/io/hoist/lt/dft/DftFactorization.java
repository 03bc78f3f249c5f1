package io.hoist.lt.dft;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.SpecialFft;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.plan.InvalidTransformException;
import it.unimi.dsi.fastutil.ints.Int2ObjectAVLTreeMap;
import it.unimi.dsi.fastutil.ints.IntAVLTreeSet;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * The factorisation behind {@link HomomorphicDft} (spec lt-algorithms §9): the special-FFT stages as
 * sparse transforms, Lattigo's rule for merging them into a given depth, the diagonal index sets of
 * the merged matrices, and the sparse-packing repack masks. Plain arithmetic, no ciphertexts.
 */
public final class DftFactorization {
    private DftFactorization() {}

    /**
     * The log2(n) special-FFT stages as n×n transforms, in the order they are applied: encode
     * direction m = n … 2 (diagonals 0, +h, −h with d_0[top] = d_{+h}[top] = 1, d_0[bot] = −ω̄,
     * d_{−h}[bot] = ω̄), decode direction m = 2 … n (d_0[a] = 1, d_{+h}[a] = ω, d_{−h}[b] = 1, d_0[b] = −ω).
     */
    public static List<LinearTransform> stages(SpecialFft fft, int logSlots, HomomorphicDft.Kind kind) {
        checkLogSlots(logSlots);
        int n = 1 << logSlots;
        ImmutableList.Builder<LinearTransform> out = ImmutableList.builder();
        for (int e = 1; e <= logSlots; e++) {
            int m = kind == HomomorphicDft.Kind.COEFFS_TO_SLOTS ? n >> (e - 1) : 1 << e;
            int h = m / 2;
            Int2ObjectAVLTreeMap<double[][]> d = new Int2ObjectAVLTreeMap<>();
            for (int i = 0; i < n; i += m) {
                for (int j = 0; j < h; j++) {
                    int top = i + j, bot = top + h;
                    if (kind == HomomorphicDft.Kind.COEFFS_TO_SLOTS) {
                        double wr = fft.inverseTwiddleRe(m, j), wi = fft.inverseTwiddleIm(m, j);
                        put(d, n, 0, top, 1, 0);
                        put(d, n, h, top, 1, 0);
                        put(d, n, 0, bot, -wr, -wi);
                        put(d, n, -h, bot, wr, wi);
                    } else {
                        double wr = fft.twiddleRe(m, j), wi = fft.twiddleIm(m, j);
                        put(d, n, 0, top, 1, 0);
                        put(d, n, h, top, wr, wi);
                        put(d, n, -h, bot, 1, 0);
                        put(d, n, 0, bot, -wr, -wi);
                    }
                }
            }
            Map<Integer, ComplexVector> diags = new TreeMap<>();
            for (var en : d.int2ObjectEntrySet())
                diags.put(en.getIntKey(), new ComplexVector(en.getValue()[0], en.getValue()[1]));
            out.add(LinearTransform.fromDiagonals(n, diags));
        }
        return out.build();
    }

    private static void put(Int2ObjectAVLTreeMap<double[][]> d, int n, int offset, int row, double re, double im) {
        double[][] f = d.computeIfAbsent(Math.floorMod(offset, n), k -> new double[2][n]);
        f[0][row] += re;
        f[1][row] += im;
    }

    /** diag([1]·n, [−i]·n): after it, one conjugation and an addition leave [Re w, Im w]. */
    static ComplexVector repackMask(int n) {
        double[] re = new double[2 * n], im = new double[2 * n];
        for (int t = 0; t < n; t++) {
            re[t] = 1;
            im[n + t] = -1;
        }
        return new ComplexVector(re, im);
    }

    /** [a, b] ↦ [a + i·b, a + i·b]: diagonal 0 = [1, i], diagonal n = [i, 1]. */
    static LinearTransform unpack(int n) {
        double[] r0 = new double[2 * n], i0 = new double[2 * n], rn = new double[2 * n], in = new double[2 * n];
        for (int t = 0; t < n; t++) {
            r0[t] = 1;
            i0[n + t] = 1;
            in[t] = 1;
            rn[n + t] = 1;
        }
        return LinearTransform.fromDiagonals(2 * n, Map.of(0, new ComplexVector(r0, i0), n, new ComplexVector(rn, in)));
    }

    /**
     * Lattigo's merging: merge[i] = ⌈remaining/(depth − i)⌉ stages, front-loaded for the encode
     * direction and mirrored for the decode direction (spec §9.2).
     */
    public static int[] mergeChain(int logSlots, int depth, HomomorphicDft.Kind kind) {
        checkLogSlots(logSlots);
        if (depth < 1 || depth > logSlots)
            throw new InvalidTransformException("depth must be in [1, logSlots = " + logSlots + "], got " + depth);
        int[] merge = new int[depth];
        int left = logSlots;
        for (int i = 0; i < depth; i++) {
            int d = (left + depth - i - 1) / (depth - i);
            if (kind == HomomorphicDft.Kind.COEFFS_TO_SLOTS) merge[i] = d;
            else merge[depth - 1 - i] = d;
            left -= d;
        }
        return merge;
    }

    /**
     * The diagonal offsets of each merged matrix from the stage structure alone (no values): the
     * sumsets {Σ ε_s·h_s}, as Lattigo's index map — for plans and counts at sizes too large to build.
     * Dense packing only (sparse packing adds the repack offsets).
     */
    public static List<? extends SortedSet<Integer>> indexSets(int logSlots, int depth, HomomorphicDft.Kind kind) {
        checkLogSlots(logSlots);
        if (depth < 1 || depth > logSlots)
            throw new InvalidTransformException("depth must be in [1, logSlots = " + logSlots + "], got " + depth);
        int n = 1 << logSlots;
        int[] merge = mergeChain(logSlots, depth, kind);
        ImmutableList.Builder<ImmutableSortedSet<Integer>> out = ImmutableList.builder();
        int e = 1;
        for (int i = 0; i < depth; i++) {
            IntAVLTreeSet set = new IntAVLTreeSet(new int[] {0});
            for (int k = 0; k < merge[i]; k++, e++) {
                int h = (kind == HomomorphicDft.Kind.COEFFS_TO_SLOTS ? n >> (e - 1) : 1 << e) / 2;
                IntAVLTreeSet next = new IntAVLTreeSet();
                for (int x : set) {
                    next.add(x);
                    next.add((x + h) % n);
                    next.add(Math.floorMod(x - h, n));
                }
                set = next;
            }
            out.add(ImmutableSortedSet.copyOf(set));
        }
        return out.build();
    }

    /** A DFT over 2^logSlots slots: 1 … 16 (N ≤ 2^17); past 30 the shifts would wrap. */
    private static void checkLogSlots(int logSlots) {
        if (logSlots < 1 || logSlots > 16)
            throw new InvalidTransformException("logSlots must be in [1, 16], got " + logSlots);
    }
}
