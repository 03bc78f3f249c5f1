package io.hoist.ring;

import io.hoist.math.ModArith;
import java.util.Arrays;

/**
 * The coefficient-wise kernels above the NTT, shared by key switching, basis conversion and linear
 * transforms. Two implementations: {@link ScalarLimbKernels} (the reference) and
 * {@link VectorLimbKernels} (jdk.incubator.vector); every output is fully reduced, so they are
 * bit-identical, which {@code LimbKernelsTest} checks.
 */
public interface LimbKernels {

    /** Terms whose Montgomery products may be summed in 128 bits before a reduction, for modulus q. */
    static int montgomeryTerms(long q) {
        // the sum must stay below q·2^64; each product is below q^2
        return (int) Math.max(1, Math.min(1 << 20, Long.divideUnsigned(-1L, q)));
    }

    /**
     * out0 = Σ_t x[t] ⊙ y[t] · 2^-64 and out1 = Σ_t x[t] ⊙ z[t] · 2^-64 (mod q), limbwise over
     * {@code terms} limbs: with one factor of each product in Montgomery form the results are the
     * plain products. Inputs are residues in [0, q). Sums are accumulated in 128 bits and reduced once per
     * {@link #montgomeryTerms} terms (the FMA form sums exact remainders instead: docs/ring.md). With {@code accumulate} the previous outputs are added.
     * {@code z} and {@code out1} may be null. An output may alias an input only when
     * {@code terms} ≤ {@link #montgomeryTerms}(q).
     */
    default void dot2Montgomery(
            long[][] x, long[][] y, long[][] z, int terms, long[] out0, long[] out1, long q, boolean accumulate) {
        dot2Montgomery(x, null, y, z, terms, out0, out1, q, accumulate);
    }

    /**
     * {@link #dot2Montgomery} with x[t]'s limb at word {@code xOff[t]} of x[t] (several limbs in one
     * array, as a transform's diagonals are held); {@code xOff} null: every limb at word 0.
     *
     * @throws IllegalArgumentException if an offset leaves x[t] too short for the limb
     */
    void dot2Montgomery(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            boolean accumulate);

    /**
     * {@link #dot2Montgomery} with every x[t] in {@link PackedLimbs}' layout (n/2 words for the n
     * coefficients of the outputs) and q below {@link PackedLimbs#MAX_Q}: the same results, bit for
     * bit, from half the bytes of x.
     *
     * @throws IllegalArgumentException if q or the lengths do not allow packing
     */
    default void dot2MontgomeryPacked(
            long[][] x, long[][] y, long[][] z, int terms, long[] out0, long[] out1, long q, boolean accumulate) {
        dot2MontgomeryPacked(x, null, y, z, terms, out0, out1, q, accumulate);
    }

    /** {@link #dot2MontgomeryPacked} with x[t]'s packed limb at word {@code xOff[t]} (null: word 0). */
    void dot2MontgomeryPacked(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            boolean accumulate);

    /**
     * The arguments {@link #dot2MontgomeryPacked} accepts: q packs, {@code terms} terms of x, y (and z)
     * present, each packed term half out0's length (from its offset on, when offsets are given), the
     * others (and out1) as long as out0.
     */
    static void checkPacked(
            long[][] x, int[] xOff, long[][] y, long[][] z, int terms, long[] out0, long[] out1, long q) {
        int n = out0.length;
        if (!PackedLimbs.packs(q, n))
            throw new IllegalArgumentException("limbs of q = " + q + " and " + n + " coefficients are not packed");
        if (terms < 1 || terms > x.length || terms > y.length || (z != null && terms > z.length))
            throw new IllegalArgumentException(terms + " terms, but x, y or z holds fewer limbs");
        if (z != null && (out1 == null || out1.length != n))
            throw new IllegalArgumentException("a second output of " + n + " coefficients is needed with z");
        checkOffsets(x, xOff, terms, n / 2);
        for (int t = 0; t < terms; t++)
            if ((xOff == null && x[t].length != n / 2) || y[t].length != n || (z != null && z[t].length != n))
                throw new IllegalArgumentException("term " + t + ": " + x[t].length + " packed words and limbs of "
                        + y[t].length + " for " + n + " coefficients");
    }

    /**
     * The limbs {@link #dot2Montgomery} reads and writes: {@code terms} of each factor, y[t], z[t] (when
     * z is given) and x[t] from its offset holding out0's N coefficients, and out1 of N with z.
     */
    static void checkDot(long[][] x, int[] xOff, long[][] y, long[][] z, int terms, long[] out0, long[] out1) {
        int n = out0.length;
        if (terms < 0 || terms > x.length || terms > y.length || (z != null && terms > z.length))
            throw new IllegalArgumentException(terms + " terms, but x, y or z holds fewer limbs");
        if (z != null && (out1 == null || out1.length != n))
            throw new IllegalArgumentException("a second output of " + n + " coefficients is needed with z");
        checkOffsets(x, xOff, terms, n);
        for (int t = 0; t < terms; t++)
            if ((xOff == null && x[t].length < n) || y[t].length < n || (z != null && z[t].length < n))
                throw new IllegalArgumentException("term " + t + ": limbs of " + x[t].length + ", " + y[t].length
                        + (z == null ? "" : " and " + z[t].length) + " words for " + n + " coefficients");
    }

    /** The factors of a coefficient-wise product into {@code out}: each holds at least out's coefficients. */
    static void checkProduct(long[] out, long[]... factors) {
        for (int t = 0; t < factors.length; t++)
            if (factors[t].length < out.length)
                throw new IllegalArgumentException(
                        "factor " + t + " has " + factors[t].length + " coefficients, the" + " output " + out.length);
    }

    /** Offsets, when given, for {@code terms} terms, each leaving {@code words} words of x[t] from it. */
    static void checkOffsets(long[][] x, int[] xOff, int terms, int words) {
        if (xOff == null) return;
        if (terms > x.length || xOff.length < terms)
            throw new IllegalArgumentException(
                    xOff.length + " offsets and " + x.length + " limbs for " + terms + " terms");
        for (int t = 0; t < terms; t++)
            if (xOff[t] < 0 || xOff[t] > x[t].length - words)
                throw new IllegalArgumentException("term " + t + ": a limb of " + words + " words at word " + xOff[t]
                        + " does not fit its " + x[t].length + " words");
    }

    /** {@link #dot2MontgomeryMulti} as one {@link #dot2Montgomery} (or its packed form) per output over its present terms. */
    static void multiByOutput(
            LimbKernels k,
            long[][] x,
            long[][] y,
            long[][][] f,
            int[][] fOff,
            boolean packed,
            int terms,
            int outs,
            long[][] out0,
            long[][] out1,
            long q,
            boolean accumulate) {
        if (fOff != null && fOff.length < outs)
            throw new IllegalArgumentException(fOff.length + " rows of offsets for " + outs + " outputs");
        for (int o = 0; fOff != null && o < outs; o++)
            if (fOff[o] == null || fOff[o].length < terms)
                throw new IllegalArgumentException("output " + o + ": offsets for fewer than " + terms + " terms");
        long[][] fx = new long[terms][], xs = new long[terms][], ys = new long[terms][];
        int[] fo = fOff == null ? null : new int[terms];
        for (int o = 0; o < outs; o++) {
            int c = presentTerms(x, y, f, fOff, o, terms, fx, fo, xs, ys);
            if (c > 0 && packed) k.dot2MontgomeryPacked(fx, fo, xs, ys, c, out0[o], out1[o], q, accumulate);
            else if (c > 0) k.dot2Montgomery(fx, fo, xs, ys, c, out0[o], out1[o], q, accumulate);
            else if (!accumulate) {
                Arrays.fill(out0[o], 0L);
                Arrays.fill(out1[o], 0L);
            }
        }
    }

    /** Output o's present terms, in order, into fx, fo (when offsets are given), xs and ys; returns their count. */
    static int presentTerms(
            long[][] x,
            long[][] y,
            long[][][] f,
            int[][] fOff,
            int o,
            int terms,
            long[][] fx,
            int[] fo,
            long[][] xs,
            long[][] ys) {
        if (fOff != null && (fOff[o] == null || fOff[o].length < terms))
            throw new IllegalArgumentException("output " + o + ": offsets for fewer than " + terms + " terms");
        int c = 0;
        for (int t = 0; t < terms; t++) {
            if (f[o][t] == null) continue;
            if (fo != null) fo[c] = fOff[o][t];
            fx[c] = f[o][t];
            xs[c] = x[t];
            ys[c++] = y[t];
        }
        return c;
    }

    /** out[k] = x[k]·w mod q in [0, q), for k in [from, from+len), w fixed with Shoup quotient ws. */
    void mulShoup(long[] x, long w, long ws, long q, long[] out, int from, int len);

    /**
     * out[off+k] = Σ_i y[i][yOff+k]·w[i] mod d in [0, d) for k &lt; len (the inner sum of BConv), with
     * each w[i] &lt; d fixed and ws[i] its Shoup quotient; d &lt; 2^61. {@code out} may be one of the y[i] at
     * the same offset: every form reads a coefficient's terms before it writes the coefficient.
     */
    void sumShoup(long[][] y, int yOff, int terms, long[] w, long[] ws, long d, long[] out, int off, int len);

    /** {@link #sumShoup(long[][], int, int, long[], long[], long, long[], int, int)} with yOff = 0. */
    default void sumShoup(long[][] y, int terms, long[] w, long[] ws, long d, long[] out, int off, int len) {
        sumShoup(y, 0, terms, w, ws, d, out, off, len);
    }

    /**
     * Diagonal sums of a linear transform for several outputs at once (Algorithm 2 lines 13–14): for
     * o &lt; outs, out0[o] = Σ_t f[o][t] ⊙ x[t] · 2^-64 and out1[o] = Σ_t f[o][t] ⊙ y[t] · 2^-64 (mod q),
     * where f[o][t] == null means the term is absent. With {@code packed} every present f[o][t] is in
     * {@link PackedLimbs}' layout (see {@link #dot2MontgomeryPacked}). With {@code accumulate} the
     * previous outputs are added. Outputs must not alias inputs.
     */
    default void dot2MontgomeryMulti(
            long[][] x,
            long[][] y,
            long[][][] f,
            boolean packed,
            int terms,
            int outs,
            long[][] out0,
            long[][] out1,
            long q,
            boolean accumulate) {
        dot2MontgomeryMulti(x, y, f, null, packed, terms, outs, out0, out1, q, accumulate);
    }

    /**
     * {@link #dot2MontgomeryMulti} with f[o][t]'s limb at word {@code fOff[o][t]} of f[o][t] (null:
     * word 0): diagonals held several limbs to an array.
     */
    void dot2MontgomeryMulti(
            long[][] x,
            long[][] y,
            long[][][] f,
            int[][] fOff,
            boolean packed,
            int terms,
            int outs,
            long[][] out0,
            long[][] out1,
            long q,
            boolean accumulate);

    /**
     * out[k] = c[k]·w mod q in [0, q) for signed c[k] (|c[k]| &lt; 2^63, not Long.MIN_VALUE), w &lt; q fixed with
     * Shoup quotient ws: a signed integer lifted to a limb and scaled at once (w = 1: plain residues;
     * w = 2^64 mod q: Montgomery form, as compact diagonals are expanded).
     */
    void liftSigned(long[] c, long w, long ws, long q, long[] out);

    /** out = (a − b)·w mod q, with a, b in [0, q) and w fixed (ModDown and rescale tails). */
    void subMulShoup(long[] a, long[] b, long[] out, long w, long ws, long q);

    /**
     * out = a ⊙ b mod q, plain residues in [0, q) in and out (out may alias a or b); with {@code accumulate}, out +=
     * a ⊙ b. One pass in every form ({@link MulModKernels}; Barrett's product in the scalar twin). Inputs outside
     * [0, q) are outside the contract: the forms need not agree on them.
     */
    void mulMod(long[] a, long[] b, long[] out, long q, boolean accumulate);

    /**
     * out = a0 ⊙ b0 + a1 ⊙ b1 mod q (the cross term of a tensor product; plain residues in [0, q) in and out, out
     * not aliasing an input): the two products summed before one reduction.
     */
    void mulModSum(long[] a0, long[] b0, long[] a1, long[] b1, long[] out, long q);

    /**
     * out[t] = (accumulate ? out[t] : 0) + x[p(t)] + (y == null ? 0 : y[p(t)]) mod q: an NTT-domain
     * automorphism fused with the additions around it ({@link Automorphism#applyNttAdd}, the scalar
     * form). Inputs in [0, q); out must not alias x or y.
     */
    default void automorphismNtt(long[] x, long[] y, long[] out, NttPermutation p, long q, boolean accumulate) {
        Automorphism.applyNttAdd(x, y, out, p, q, accumulate);
    }

    /**
     * {@link #automorphismNtt} when x is scratch: y is first added into x in order, then x is permuted,
     * so an addend fresh from memory streams in sequence instead of being gathered one cache line per
     * coefficient (2.2× faster per coefficient for a cold addend at N = 2^13 and 2^16; docs/ring.md).
     * x is overwritten; out must not alias x or y.
     */
    default void automorphismNttFromScratch(
            long[] x, long[] y, long[] out, NttPermutation p, long q, boolean accumulate) {
        if (y != null) addMod(x, y, x, q);
        automorphismNtt(x, null, out, p, q, accumulate);
    }

    /** out = a − b mod q, coefficient-wise over out's length (residues in [0, q)); out may alias a or b. */
    static void subMod(long[] a, long[] b, long[] out, long q) {
        for (int k = 0; k < out.length; k++) { // branch-free, as addMod
            long d = a[k] - b[k];
            out[k] = d + ((d >> 63) & q);
        }
    }

    /**
     * a[k] ← the centred representative of residue a[k] mod q, in (−q/2, q/2]: a[k] − q where a[k] &gt; ⌊q/2⌋ (the
     * rescale's rounding, ModRaise's lift). In place.
     */
    static void centre(long[] a, long q) {
        long half = q >>> 1;
        for (int k = 0; k < a.length; k++) a[k] = ModArith.reduceOnce(a[k] + half, q) - half;
    }

    /** out = a + c mod q coefficient by coefficient, a's residues and c in [0, q) (out may be a). */
    static void addScalarMod(long[] a, long c, long[] out, long q) {
        for (int k = 0; k < out.length; k++) { // branch-free, as addMod
            long v = a[k] + c - q;
            out[k] = v + ((v >> 63) & q);
        }
    }

    /** a ← a − b and b ← a + b mod q in one pass: {@link #subMod} and {@link #addMod}'s residues. */
    static void sumAndDifference(long[] a, long[] b, long q) {
        for (int k = 0; k < a.length; k++) { // branch-free, as addMod and subMod
            long x = a[k], y = b[k];
            long d = x - y, s = x + y - q;
            a[k] = d + ((d >> 63) & q);
            b[k] = s + ((s >> 63) & q);
        }
    }

    /** out = a + b mod q, coefficient-wise over out's length (residues in [0, q)); out may alias a or b. */
    static void addMod(long[] a, long[] b, long[] out, long q) {
        // branch-free (a + b − q, plus q where negative: q < 2^62, no overflow), so C2 vectorizes it
        for (int k = 0; k < out.length; k++) {
            long v = a[k] + b[k] - q;
            out[k] = v + ((v >> 63) & q);
        }
    }

    /** The form of every kernel here ({@code scalar}, {@code vector}), or {@code mixed} when they differ. */
    default String form() {
        return getClass().getSimpleName();
    }

    /** The kernels of {@link KernelChoice#machine()}: each in the form measured fastest on this machine. */
    static LimbKernels best() {
        return Holder.BEST;
    }

    final class Holder {
        private Holder() {}

        static final LimbKernels BEST = new TunedLimbKernels(KernelChoice.machine());
    }
}
