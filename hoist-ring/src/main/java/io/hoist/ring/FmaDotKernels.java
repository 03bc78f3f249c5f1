package io.hoist.ring;

import java.util.Arrays;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The FMA form of {@link LimbKernels#dot2Montgomery} for primes below 2^50, on double lanes: each
 * product x·y is split exactly into c·q and a remainder r = x·y − c·q with |r| &lt; q (2MultFMA and a
 * rounded quotient), the remainders are summed exactly in doubles, and the sum is reduced and
 * multiplied by 2^-64 mod q once per coefficient. The result is the canonical residue the integer
 * forms give, bit for bit: only the time differs (about four floating-point operations per product
 * against four 32×32-bit multiplies and their carries). Error bounds: docs/ring.md, "Dot products in
 * FMA lanes". Arrays in, arrays out: no vector crosses a call (see {@link VectorLimbKernels}).
 */
final class FmaDotKernels {
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;
    static final int L = D.length();
    /** Primes this form takes: every value and remainder is an integer below 2^53 in a double. */
    static final long MAX_Q = 1L << 50;
    /** 2^52 as a double's bits: v | BITS52 read as a double is 2^52 + v for 0 ≤ v &lt; 2^52. */
    private static final long BITS52 = 0x4330_0000_0000_0000L;

    private static final double TWO52 = 0x1p52;
    /** Added and subtracted to round to the nearest integer below 2^51 in magnitude. */
    private static final double ROUND = 0x1.8p52;

    private FmaDotKernels() {}

    static boolean accepts(long q) {
        return q > 2 && q < MAX_Q;
    }

    /**
     * Remainders summed before the running sum is reduced: a reduced sum is below 0.75q in magnitude
     * and each remainder below 0.75q + 1, so (chunk + 1)·q ≤ 2^52 + q keeps every sum below 2^53.
     */
    static int chunk(long q) {
        return (int) Math.max(1, Math.min(1 << 20, (1L << 52) / q));
    }

    /**
     * Coefficients [base, base+len) of dot2Montgomery (len a multiple of the lane count): terms outer,
     * coefficients inner, the sums in the caller's scratch rows; {@code rInv} = 2^-64 mod q. With one
     * output ({@code two} false) z and out1 are y and out0, never null (see {@link
     * VectorDotKernels#dotBlock}).
     */
    static void dotBlock(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            boolean two,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            long rInv,
            boolean accumulate,
            int base,
            int len,
            double[][] scratch) {
        final int chunk = chunk(q);
        final DoubleVector vq = DoubleVector.broadcast(D, (double) q), nq = vq.neg();
        final DoubleVector qinv = DoubleVector.broadcast(D, 1.0 / q), round = DoubleVector.broadcast(D, ROUND);
        final DoubleVector two52 = DoubleVector.broadcast(D, TWO52);
        final LongVector bits52 = LongVector.broadcast(S, BITS52);
        final double[] s0 = scratch[0], s1 = scratch[1];
        Arrays.fill(s0, 0, len, 0.0);
        if (two) Arrays.fill(s1, 0, len, 0.0);
        for (int t0 = 0; t0 < terms; t0 += chunk) {
            final int t1 = Math.min(terms, t0 + chunk);
            if (t0 > 0) { // bring the sums back below 0.75q before the next chunk
                reduce(s0, q, len);
                if (two) reduce(s1, q, len);
            }
            int t = t0;
            // two terms per pass: each running sum is loaded and stored once for both (the sums are exact
            // integers, so the bits are those of one term at a time); the body is written out twice,
            // since a helper taking vectors would box them wherever C2 does not inline it
            for (; t + 1 < t1; t += 2) {
                final long[] xt = x[t], yt = y[t], zt = z[t], xu = x[t + 1], yu = y[t + 1], zu = z[t + 1];
                final int xb = (xOff == null ? 0 : xOff[t]) + base, xc = (xOff == null ? 0 : xOff[t + 1]) + base;
                for (int k = 0; k < len; k += L) {
                    DoubleVector a = LongVector.fromArray(S, xt, xb + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector b = LongVector.fromArray(S, yt, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector h = a.mul(b);
                    DoubleVector r = h.fma(qinv, round).sub(round).fma(nq, h).add(a.fma(b, h.neg()));
                    DoubleVector a1 = LongVector.fromArray(S, xu, xc + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector b1 = LongVector.fromArray(S, yu, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector h1 = a1.mul(b1);
                    DoubleVector r1 = h1.fma(qinv, round).sub(round).fma(nq, h1).add(a1.fma(b1, h1.neg()));
                    DoubleVector.fromArray(D, s0, k).add(r).add(r1).intoArray(s0, k);
                    if (two) {
                        DoubleVector c = LongVector.fromArray(S, zt, base + k)
                                .or(bits52)
                                .reinterpretAsDoubles()
                                .sub(two52);
                        DoubleVector h2 = a.mul(c);
                        DoubleVector r2 =
                                h2.fma(qinv, round).sub(round).fma(nq, h2).add(a.fma(c, h2.neg()));
                        DoubleVector c1 = LongVector.fromArray(S, zu, base + k)
                                .or(bits52)
                                .reinterpretAsDoubles()
                                .sub(two52);
                        DoubleVector h3 = a1.mul(c1);
                        DoubleVector r3 =
                                h3.fma(qinv, round).sub(round).fma(nq, h3).add(a1.fma(c1, h3.neg()));
                        DoubleVector.fromArray(D, s1, k).add(r2).add(r3).intoArray(s1, k);
                    }
                }
            }
            for (; t < t1; t++) {
                final long[] xt = x[t], yt = y[t], zt = z[t];
                final int xb = (xOff == null ? 0 : xOff[t]) + base;
                for (int k = 0; k < len; k += L) {
                    DoubleVector a = LongVector.fromArray(S, xt, xb + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector b = LongVector.fromArray(S, yt, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    // a·b = h + l exactly; c = round(h/q); r = h − c·q + l, exact and below 0.75q + 1
                    DoubleVector h = a.mul(b);
                    DoubleVector r = h.fma(qinv, round).sub(round).fma(nq, h).add(a.fma(b, h.neg()));
                    DoubleVector.fromArray(D, s0, k).add(r).intoArray(s0, k);
                    if (two) {
                        DoubleVector c = LongVector.fromArray(S, zt, base + k)
                                .or(bits52)
                                .reinterpretAsDoubles()
                                .sub(two52);
                        DoubleVector h2 = a.mul(c);
                        DoubleVector r2 =
                                h2.fma(qinv, round).sub(round).fma(nq, h2).add(a.fma(c, h2.neg()));
                        DoubleVector.fromArray(D, s1, k).add(r2).intoArray(s1, k);
                    }
                }
            }
        }
        finish(s0, out0, q, rInv, accumulate, base, len);
        if (two) finish(s1, out1, q, rInv, accumulate, base, len);
    }

    /** sum[k] → sum[k] − round(sum[k]/q)·q, below 0.75q in magnitude, for k &lt; len. */
    private static void reduce(double[] sum, long q, int len) {
        final DoubleVector nq = DoubleVector.broadcast(D, -(double) q);
        final DoubleVector qinv = DoubleVector.broadcast(D, 1.0 / q), round = DoubleVector.broadcast(D, ROUND);
        for (int k = 0; k < len; k += L) {
            DoubleVector v = DoubleVector.fromArray(D, sum, k);
            v.fma(qinv, round).sub(round).fma(nq, v).intoArray(sum, k);
        }
    }

    /** out[base+k] (+)= [sum[k]·2^-64]_q: reduce below 0.75q, one more exact product by 2^-64 mod q, to [0, q). */
    private static void finish(double[] sum, long[] out, long q, long rInv, boolean accumulate, int base, int len) {
        final DoubleVector vq = DoubleVector.broadcast(D, (double) q), nq = vq.neg();
        final DoubleVector qinv = DoubleVector.broadcast(D, 1.0 / q), round = DoubleVector.broadcast(D, ROUND);
        final DoubleVector two52 = DoubleVector.broadcast(D, TWO52);
        final LongVector bits52 = LongVector.broadcast(S, BITS52);
        final DoubleVector ri = DoubleVector.broadcast(D, (double) rInv), zero = DoubleVector.zero(D);
        final LongVector lq = LongVector.broadcast(S, q);
        for (int k = 0; k < len; k += L) {
            DoubleVector v = DoubleVector.fromArray(D, sum, k);
            v = v.fma(qinv, round).sub(round).fma(nq, v);
            DoubleVector h = v.mul(ri);
            DoubleVector r = h.fma(qinv, round).sub(round).fma(nq, h).add(v.fma(ri, h.neg()));
            r = r.add(vq, r.compare(VectorOperators.LT, zero));
            LongVector u = r.add(two52).reinterpretAsLongs().sub(bits52);
            if (accumulate) {
                u = LongVector.fromArray(S, out, base + k).add(u);
                u = (VectorLimbKernels.WIDE
                        ? u.lanewise(VectorOperators.UMIN, u.sub(lq))
                        : u.sub(lq).blend(u, u.sub(lq).compare(VectorOperators.LT, 0L)));
            }
            u.intoArray(out, base + k);
        }
    }

    /**
     * {@link #dotBlock} for four outputs with the same terms (four giant steps over the same babies),
     * or two when {@code four} is false: out0[first+i], out1[first+i] = Σ f[i]_t ⊙ (y_t, z_t), each y_t and z_t
     * block read once for all of them, so the babies stream a quarter (a half) as often as output by
     * output. Eight (four) sums in {@code scratch}; the same exact remainders as {@link #dotBlock}, so
     * the same bits. {@code fOff[i]} may be null (limbs at offset 0). One method for both sizes: C2
     * compiles one kernel (with its on-stack variant) instead of two during the warm-up.
     */
    static void groupBlock(
            boolean four,
            long[][][] f,
            int[][] fOff,
            long[][] y,
            long[][] z,
            int terms,
            long[][] out0,
            long[][] out1,
            int first,
            long q,
            long rInv,
            boolean accumulate,
            int base,
            int len,
            double[][] scratch) {
        final int chunk = chunk(q);
        final DoubleVector vq = DoubleVector.broadcast(D, (double) q), nq = vq.neg();
        final DoubleVector qinv = DoubleVector.broadcast(D, 1.0 / q), round = DoubleVector.broadcast(D, ROUND);
        final DoubleVector two52 = DoubleVector.broadcast(D, TWO52);
        final LongVector bits52 = LongVector.broadcast(S, BITS52);
        final double[] s0 = scratch[0], s1 = scratch[1], s2 = scratch[2], s3 = scratch[3];
        final double[] s4 = scratch[four ? 4 : 0], s5 = scratch[four ? 5 : 1];
        final double[] s6 = scratch[four ? 6 : 2], s7 = scratch[four ? 7 : 3];
        final int rows = four ? 8 : 4;
        for (int o = 0; o < rows; o++) Arrays.fill(scratch[o], 0, len, 0.0);
        for (int t0 = 0; t0 < terms; t0 += chunk) {
            final int t1 = Math.min(terms, t0 + chunk);
            if (t0 > 0) for (int o = 0; o < rows; o++) reduce(scratch[o], q, len);
            // written out as in dotBlock: a helper (or a loop over the outputs) taking vectors is slower
            for (int t = t0; t < t1; t++) {
                final long[] yt = y[t], zt = z[t], f0 = f[0][t], f1 = f[1][t];
                final long[] f2 = four ? f[2][t] : f0, f3 = four ? f[3][t] : f1;
                final int b0 = offset(fOff, 0, t) + base, b1 = offset(fOff, 1, t) + base;
                final int b2 = four ? offset(fOff, 2, t) + base : 0, b3 = four ? offset(fOff, 3, t) + base : 0;
                for (int k = 0; k < len; k += L) {
                    DoubleVector b = LongVector.fromArray(S, yt, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector c = LongVector.fromArray(S, zt, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector a0 = LongVector.fromArray(S, f0, b0 + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector h0 = a0.mul(b);
                    DoubleVector r0 = h0.fma(qinv, round).sub(round).fma(nq, h0).add(a0.fma(b, h0.neg()));
                    DoubleVector.fromArray(D, s0, k).add(r0).intoArray(s0, k);
                    DoubleVector g0 = a0.mul(c);
                    DoubleVector p0 = g0.fma(qinv, round).sub(round).fma(nq, g0).add(a0.fma(c, g0.neg()));
                    DoubleVector.fromArray(D, s1, k).add(p0).intoArray(s1, k);
                    DoubleVector a1 = LongVector.fromArray(S, f1, b1 + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector h1 = a1.mul(b);
                    DoubleVector r1 = h1.fma(qinv, round).sub(round).fma(nq, h1).add(a1.fma(b, h1.neg()));
                    DoubleVector.fromArray(D, s2, k).add(r1).intoArray(s2, k);
                    DoubleVector g1 = a1.mul(c);
                    DoubleVector p1 = g1.fma(qinv, round).sub(round).fma(nq, g1).add(a1.fma(c, g1.neg()));
                    DoubleVector.fromArray(D, s3, k).add(p1).intoArray(s3, k);
                    if (four) { // a loop-invariant branch: no vector crosses it
                        DoubleVector a2 = LongVector.fromArray(S, f2, b2 + k)
                                .or(bits52)
                                .reinterpretAsDoubles()
                                .sub(two52);
                        DoubleVector h2 = a2.mul(b);
                        DoubleVector r2 =
                                h2.fma(qinv, round).sub(round).fma(nq, h2).add(a2.fma(b, h2.neg()));
                        DoubleVector.fromArray(D, s4, k).add(r2).intoArray(s4, k);
                        DoubleVector g2 = a2.mul(c);
                        DoubleVector p2 =
                                g2.fma(qinv, round).sub(round).fma(nq, g2).add(a2.fma(c, g2.neg()));
                        DoubleVector.fromArray(D, s5, k).add(p2).intoArray(s5, k);
                        DoubleVector a3 = LongVector.fromArray(S, f3, b3 + k)
                                .or(bits52)
                                .reinterpretAsDoubles()
                                .sub(two52);
                        DoubleVector h3 = a3.mul(b);
                        DoubleVector r3 =
                                h3.fma(qinv, round).sub(round).fma(nq, h3).add(a3.fma(b, h3.neg()));
                        DoubleVector.fromArray(D, s6, k).add(r3).intoArray(s6, k);
                        DoubleVector g3 = a3.mul(c);
                        DoubleVector p3 =
                                g3.fma(qinv, round).sub(round).fma(nq, g3).add(a3.fma(c, g3.neg()));
                        DoubleVector.fromArray(D, s7, k).add(p3).intoArray(s7, k);
                    }
                }
            }
        }
        for (int o = 0; o < rows / 2; o++) {
            finish(scratch[2 * o], out0[first + o], q, rInv, accumulate, base, len);
            finish(scratch[2 * o + 1], out1[first + o], q, rInv, accumulate, base, len);
        }
    }

    private static int offset(int[][] fOff, int o, int t) {
        return fOff == null || fOff[o] == null ? 0 : fOff[o][t];
    }
}
