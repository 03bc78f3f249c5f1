package io.hoist.ring;

import io.hoist.math.ModArith;

/** The reference {@link LimbKernels}: plain Java, any modulus below 2^62. */
public final class ScalarLimbKernels implements LimbKernels {

    @Override
    public String form() {
        return "scalar";
    }

    @Override
    public void dot2Montgomery(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            boolean accumulate) {
        LimbKernels.checkDot(x, xOff, y, z, terms, out0, out1);
        dot2(x, xOff, false, y, z, terms, out0, out1, q, accumulate);
    }

    @Override
    public void dot2MontgomeryPacked(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            boolean accumulate) {
        LimbKernels.checkPacked(x, xOff, y, z, terms, out0, out1, q);
        dot2(x, xOff, true, y, z, terms, out0, out1, q, accumulate);
    }

    private static void dot2(
            long[][] x,
            int[] xOff,
            boolean packed,
            long[][] y,
            long[][] z,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            boolean accumulate) {
        final long ni = ModArith.montgomeryNegInv(q);
        final int chunk = LimbKernels.montgomeryTerms(q);
        final boolean two = z != null;
        final int n = out0.length;
        for (int k = 0; k < n; k++) {
            long r0 = accumulate ? out0[k] : 0, r1 = two && accumulate ? out1[k] : 0;
            for (int t0 = 0; t0 < terms; t0 += chunk) {
                int t1 = Math.min(terms, t0 + chunk);
                long h0 = 0, l0 = 0, h1 = 0, l1 = 0;
                for (int t = t0; t < t1; t++) {
                    int xo = xOff == null ? 0 : xOff[t];
                    long a = packed ? PackedLimbs.get(x[t], xo, k) : x[t][xo + k], b = y[t][k];
                    long p = a * b;
                    h0 += Math.unsignedMultiplyHigh(a, b);
                    l0 += p;
                    if (Long.compareUnsigned(l0, p) < 0) h0++;
                    if (two) {
                        long c = z[t][k];
                        long s = a * c;
                        h1 += Math.unsignedMultiplyHigh(a, c);
                        l1 += s;
                        if (Long.compareUnsigned(l1, s) < 0) h1++;
                    }
                }
                r0 = ModArith.addMod(r0, ModArith.redc(h0, l0, q, ni), q);
                if (two) r1 = ModArith.addMod(r1, ModArith.redc(h1, l1, q, ni), q);
            }
            out0[k] = r0;
            if (two) out1[k] = r1;
        }
    }

    /** out (+)= a ⊙ b mod q, each 128-bit product reduced by Barrett's method ({@link ModArith#mulMod}). */
    @Override
    public void mulMod(long[] a, long[] b, long[] out, long q, boolean accumulate) {
        LimbKernels.checkProduct(out, a, b);
        mulModRange(a, b, out, q, accumulate, 0, out.length);
    }

    /** {@link #mulMod} over coefficients [from, to). */
    static void mulModRange(long[] a, long[] b, long[] out, long q, boolean accumulate, int from, int to) {
        final long muHi = ModArith.barrettHi(q), muLo = ModArith.barrettLo(q);
        for (int k = from; k < to; k++) {
            long p = ModArith.mulMod(a[k], b[k], q, muHi, muLo);
            out[k] = accumulate ? ModArith.addMod(out[k], p, q) : p;
        }
    }

    /** out = a0 ⊙ b0 + a1 ⊙ b1 mod q: the 128-bit sum of the two products, one Barrett reduction. */
    @Override
    public void mulModSum(long[] a0, long[] b0, long[] a1, long[] b1, long[] out, long q) {
        LimbKernels.checkProduct(out, a0, b0, a1, b1);
        mulModSumRange(a0, b0, a1, b1, out, q, 0, out.length);
    }

    /** {@link #mulModSum} over coefficients [from, to). */
    static void mulModSumRange(long[] a0, long[] b0, long[] a1, long[] b1, long[] out, long q, int from, int to) {
        final long muHi = ModArith.barrettHi(q), muLo = ModArith.barrettLo(q);
        for (int k = from; k < to; k++) {
            long lo0 = a0[k] * b0[k], lo1 = a1[k] * b1[k], lo = lo0 + lo1;
            long hi = Math.unsignedMultiplyHigh(a0[k], b0[k])
                    + Math.unsignedMultiplyHigh(a1[k], b1[k])
                    + (Long.compareUnsigned(lo, lo0) < 0 ? 1 : 0);
            out[k] = ModArith.reduce128(hi, lo, q, muHi, muLo);
        }
    }

    @Override
    public void mulShoup(long[] x, long w, long ws, long q, long[] out, int from, int len) {
        for (int k = from; k < from + len; k++) out[k] = ModArith.mulShoup(x[k], w, ws, q);
    }

    @Override
    public void sumShoup(long[][] y, int yOff, int terms, long[] w, long[] ws, long d, long[] out, int off, int len) {
        final long twoD = 2 * d;
        for (int k = 0; k < len; k++) {
            long acc = 0;
            for (int i = 0; i < terms; i++) {
                acc = ModArith.subIfAtLeast(acc + ModArith.mulShoupLazy(y[i][yOff + k], w[i], ws[i], d), twoD);
            }
            out[off + k] = ModArith.subIfAtLeast(acc, d);
        }
    }

    @Override
    public void dot2MontgomeryMulti(
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
        LimbKernels.multiByOutput(this, x, y, f, fOff, packed, terms, outs, out0, out1, q, accumulate);
    }

    @Override
    public void liftSigned(long[] c, long w, long ws, long q, long[] out) {
        for (int k = 0; k < out.length; k++) {
            // branch-free: the signs are random, and the branches mispredicted cost 3 ns per coefficient, about
            // a sixth of a rescale under UseAVX=2 (34 → 29 ms); calibration, on one repeated limb, missed it
            long x = c[k], neg = x >> 63;
            long r = ModArith.mulShoup((x ^ neg) - neg, w, ws, q);
            long y = (r ^ neg) - neg;
            out[k] = y + ((y >> 63) & q);
        }
    }

    @Override
    public void subMulShoup(long[] a, long[] b, long[] out, long w, long ws, long q) {
        for (int k = 0; k < out.length; k++) {
            // branch-free, as liftSigned: C2 made the branch a conditional move from an evaluation's profile, but a
            // jump from the kernel warm-up's, which then mispredicted half the time (UseAVX=2, 2^16: 300 against
            // 72 µs per limb, a rescale 1.2× as long; docs/benchmarks.md, forty-sixth session)
            long d = a[k] - b[k];
            d += (d >> 63) & q;
            out[k] = ModArith.mulShoup(d, w, ws, q);
        }
    }
}
