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
    static final long BITS52 = 0x4330_0000_0000_0000L;

    static final double TWO52 = 0x1p52;
    /** Added and subtracted to round to the nearest integer below 2^51 in magnitude. */
    static final double ROUND = 0x1.8p52;

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
     * block read from memory once for all of them, so the babies stream a quarter (a half) as often as output
     * by output. Two terms per pass, so each row of sums is loaded and stored once for both; the four are two
     * loops of two outputs, the second reading the babies' block again from L2 (one loop over all four, 16
     * products, made C2 use 72–75 MB of arena compiling it against 18–20 MB). An odd last term of a chunk is
     * paired with {@link #ZERO}, whose products are exactly zero. Eight (four) sums in {@code scratch}; the same
     * exact remainders as {@link #dotBlock}, so the same bits. {@code fOff[i]} may be null (limbs at offset 0).
     * One method for both sizes: C2 compiles one kernel (with its on-stack variant) instead of two.
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
        if (len > ZERO.length) throw new IllegalArgumentException("a block of " + len + " > " + ZERO.length);
        final int chunk = chunk(q);
        final int rows = four ? 8 : 4;
        for (int o = 0; o < rows; o++) Arrays.fill(scratch[o], 0, len, 0.0);
        for (int t0 = 0; t0 < terms; t0 += chunk) {
            if (t0 > 0) for (int o = 0; o < rows; o++) reduce(scratch[o], q, len);
            groupPass(rows, f, fOff, y, z, t0, Math.min(terms, t0 + chunk), q, base, len, scratch);
        }
        for (int o = 0; o < rows / 2; o++) {
            finish(scratch[2 * o], out0[first + o], q, rInv, accumulate, base, len);
            finish(scratch[2 * o + 1], out1[first + o], q, rInv, accumulate, base, len);
        }
    }

    /**
     * Terms [t0, t1) of {@link #groupBlock} added into its rows of sums. A method of its own, with no call inside:
     * where the loop's constants lived across a call (the chunks' reduction), C2 broadcast them again at every use
     * (44 broadcasts in a loop of 155 instructions).
     */
    private static void groupPass(
            int rows,
            long[][][] f,
            int[][] fOff,
            long[][] y,
            long[][] z,
            int t0,
            int t1,
            long q,
            int base,
            int len,
            double[][] scratch) {
        final DoubleVector nq = DoubleVector.broadcast(D, -(double) q);
        final DoubleVector qinv = DoubleVector.broadcast(D, 1.0 / q), round = DoubleVector.broadcast(D, ROUND);
        final DoubleVector two52 = DoubleVector.broadcast(D, TWO52);
        final LongVector bits52 = LongVector.broadcast(S, BITS52);
        for (int t = t0; t < t1; t += 2) {
            final boolean odd = t + 1 == t1; // then the second term is ZERO, read at words 0 … len
            final long[] yt = y[t], zt = z[t], yu = odd ? yt : y[t + 1], zu = odd ? zt : z[t + 1];
            for (int g = 0; g < rows / 2; g += 2) { // outputs g and g+1: written out, no vector crosses the loop
                final long[] f0 = f[g][t], f1 = f[g + 1][t];
                final long[] e0 = odd ? ZERO : f[g][t + 1], e1 = odd ? ZERO : f[g + 1][t + 1];
                final int b0 = offset(fOff, g, t) + base, b1 = offset(fOff, g + 1, t) + base;
                final int c0 = odd ? 0 : offset(fOff, g, t + 1) + base;
                final int c1 = odd ? 0 : offset(fOff, g + 1, t + 1) + base;
                final double[] s0 = scratch[2 * g], s1 = scratch[2 * g + 1];
                final double[] s2 = scratch[2 * g + 2], s3 = scratch[2 * g + 3];
                for (int k = 0; k < len; k += L) {
                    DoubleVector b = LongVector.fromArray(S, yt, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector c = LongVector.fromArray(S, zt, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector bu = LongVector.fromArray(S, yu, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector cu = LongVector.fromArray(S, zu, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector x0 =
                            LongVector.fromArray(S, f0, b0 + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector a0 = x0.sub(two52), na0 = two52.sub(x0);
                    DoubleVector w0 =
                            LongVector.fromArray(S, e0, c0 + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector d0 = w0.sub(two52), nd0 = two52.sub(w0);
                    DoubleVector r0h = a0.mul(b);
                    DoubleVector r0 =
                            r0h.fma(qinv, round).sub(round).fma(nq, r0h).sub(na0.fma(b, r0h));
                    DoubleVector ru0h = d0.mul(bu);
                    DoubleVector ru0 =
                            ru0h.fma(qinv, round).sub(round).fma(nq, ru0h).sub(nd0.fma(bu, ru0h));
                    DoubleVector.fromArray(D, s0, k).add(r0).add(ru0).intoArray(s0, k);
                    DoubleVector p0h = a0.mul(c);
                    DoubleVector p0 =
                            p0h.fma(qinv, round).sub(round).fma(nq, p0h).sub(na0.fma(c, p0h));
                    DoubleVector pu0h = d0.mul(cu);
                    DoubleVector pu0 =
                            pu0h.fma(qinv, round).sub(round).fma(nq, pu0h).sub(nd0.fma(cu, pu0h));
                    DoubleVector.fromArray(D, s1, k).add(p0).add(pu0).intoArray(s1, k);
                    DoubleVector x1 =
                            LongVector.fromArray(S, f1, b1 + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector a1 = x1.sub(two52), na1 = two52.sub(x1);
                    DoubleVector w1 =
                            LongVector.fromArray(S, e1, c1 + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector d1 = w1.sub(two52), nd1 = two52.sub(w1);
                    DoubleVector r1h = a1.mul(b);
                    DoubleVector r1 =
                            r1h.fma(qinv, round).sub(round).fma(nq, r1h).sub(na1.fma(b, r1h));
                    DoubleVector ru1h = d1.mul(bu);
                    DoubleVector ru1 =
                            ru1h.fma(qinv, round).sub(round).fma(nq, ru1h).sub(nd1.fma(bu, ru1h));
                    DoubleVector.fromArray(D, s2, k).add(r1).add(ru1).intoArray(s2, k);
                    DoubleVector p1h = a1.mul(c);
                    DoubleVector p1 =
                            p1h.fma(qinv, round).sub(round).fma(nq, p1h).sub(na1.fma(c, p1h));
                    DoubleVector pu1h = d1.mul(cu);
                    DoubleVector pu1 =
                            pu1h.fma(qinv, round).sub(round).fma(nq, pu1h).sub(nd1.fma(cu, pu1h));
                    DoubleVector.fromArray(D, s3, k).add(p1).add(pu1).intoArray(s3, k);
                }
            }
        }
    }

    /** The zero term an odd chunk of {@link #groupBlock} ends with: read only, never written. */
    private static final long[] ZERO = new long[VectorLimbKernels.GROUP_BLOCK];

    private static int offset(int[][] fOff, int o, int t) {
        return fOff == null || fOff[o] == null ? 0 : fOff[o][t];
    }
}
