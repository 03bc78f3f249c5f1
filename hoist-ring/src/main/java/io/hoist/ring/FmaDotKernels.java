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
        // −q broadcast, not q negated: C2 rematerialises these constants at their uses, and a negation would go along
        final DoubleVector nq = DoubleVector.broadcast(D, -(double) q);
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
                    DoubleVector xa =
                            LongVector.fromArray(S, xt, xb + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector a = xa.sub(two52), na = two52.sub(xa);
                    DoubleVector b = LongVector.fromArray(S, yt, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector h = a.mul(b);
                    DoubleVector r = h.fma(qinv, round).sub(round).fma(nq, h).sub(na.fma(b, h));
                    DoubleVector xa1 =
                            LongVector.fromArray(S, xu, xc + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector a1 = xa1.sub(two52), na1 = two52.sub(xa1);
                    DoubleVector b1 = LongVector.fromArray(S, yu, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    DoubleVector h1 = a1.mul(b1);
                    DoubleVector r1 = h1.fma(qinv, round).sub(round).fma(nq, h1).sub(na1.fma(b1, h1));
                    DoubleVector.fromArray(D, s0, k).add(r).add(r1).intoArray(s0, k);
                    if (two) {
                        DoubleVector c = LongVector.fromArray(S, zt, base + k)
                                .or(bits52)
                                .reinterpretAsDoubles()
                                .sub(two52);
                        DoubleVector h2 = a.mul(c);
                        DoubleVector r2 =
                                h2.fma(qinv, round).sub(round).fma(nq, h2).sub(na.fma(c, h2));
                        DoubleVector c1 = LongVector.fromArray(S, zu, base + k)
                                .or(bits52)
                                .reinterpretAsDoubles()
                                .sub(two52);
                        DoubleVector h3 = a1.mul(c1);
                        DoubleVector r3 =
                                h3.fma(qinv, round).sub(round).fma(nq, h3).sub(na1.fma(c1, h3));
                        DoubleVector.fromArray(D, s1, k).add(r2).add(r3).intoArray(s1, k);
                    }
                }
            }
            for (; t < t1; t++) {
                final long[] xt = x[t], yt = y[t], zt = z[t];
                final int xb = (xOff == null ? 0 : xOff[t]) + base;
                for (int k = 0; k < len; k += L) {
                    DoubleVector xa =
                            LongVector.fromArray(S, xt, xb + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector a = xa.sub(two52), na = two52.sub(xa);
                    DoubleVector b = LongVector.fromArray(S, yt, base + k)
                            .or(bits52)
                            .reinterpretAsDoubles()
                            .sub(two52);
                    // a·b = h + l exactly; c = round(h/q); r = h − c·q + l, exact and below 0.75q + 1; l is
                    // taken as −((−a)·b + h), −a read once per operand word: no product pays for a negation
                    DoubleVector h = a.mul(b);
                    DoubleVector r = h.fma(qinv, round).sub(round).fma(nq, h).sub(na.fma(b, h));
                    DoubleVector.fromArray(D, s0, k).add(r).intoArray(s0, k);
                    if (two) {
                        DoubleVector c = LongVector.fromArray(S, zt, base + k)
                                .or(bits52)
                                .reinterpretAsDoubles()
                                .sub(two52);
                        DoubleVector h2 = a.mul(c);
                        DoubleVector r2 =
                                h2.fma(qinv, round).sub(round).fma(nq, h2).sub(na.fma(c, h2));
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
        final DoubleVector nq = DoubleVector.broadcast(D, -(double) q);
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
            // two terms per pass, each running sum loaded and stored once for both; written out as in dotBlock: a
            // helper (or a loop over the outputs) taking vectors is slower
            int t = t0;
            for (; t + 1 < t1; t += 2) {
                final long[] yt = y[t], zt = z[t], yu = y[t + 1], zu = z[t + 1];
                final long[] f0 = f[0][t], f1 = f[1][t], e0 = f[0][t + 1], e1 = f[1][t + 1];
                final long[] f2 = four ? f[2][t] : f0, f3 = four ? f[3][t] : f1;
                final long[] e2 = four ? f[2][t + 1] : e0, e3 = four ? f[3][t + 1] : e1;
                final int b0 = offset(fOff, 0, t) + base, b1 = offset(fOff, 1, t) + base;
                final int c0 = offset(fOff, 0, t + 1) + base, c1 = offset(fOff, 1, t + 1) + base;
                final int b2 = four ? offset(fOff, 2, t) + base : 0, b3 = four ? offset(fOff, 3, t) + base : 0;
                final int c2 = four ? offset(fOff, 2, t + 1) + base : 0, c3 = four ? offset(fOff, 3, t + 1) + base : 0;
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
                    DoubleVector a0 = x0.sub(two52), n0 = two52.sub(x0);
                    DoubleVector w0 =
                            LongVector.fromArray(S, e0, c0 + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector d0 = w0.sub(two52), m0 = two52.sub(w0);
                    DoubleVector r0h = a0.mul(b);
                    DoubleVector r0 =
                            r0h.fma(qinv, round).sub(round).fma(nq, r0h).sub(n0.fma(b, r0h));
                    DoubleVector ru0h = d0.mul(bu);
                    DoubleVector ru0 =
                            ru0h.fma(qinv, round).sub(round).fma(nq, ru0h).sub(m0.fma(bu, ru0h));
                    DoubleVector.fromArray(D, s0, k).add(r0).add(ru0).intoArray(s0, k);
                    DoubleVector p0h = a0.mul(c);
                    DoubleVector p0 =
                            p0h.fma(qinv, round).sub(round).fma(nq, p0h).sub(n0.fma(c, p0h));
                    DoubleVector pu0h = d0.mul(cu);
                    DoubleVector pu0 =
                            pu0h.fma(qinv, round).sub(round).fma(nq, pu0h).sub(m0.fma(cu, pu0h));
                    DoubleVector.fromArray(D, s1, k).add(p0).add(pu0).intoArray(s1, k);
                    DoubleVector x1 =
                            LongVector.fromArray(S, f1, b1 + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector a1 = x1.sub(two52), n1 = two52.sub(x1);
                    DoubleVector w1 =
                            LongVector.fromArray(S, e1, c1 + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector d1 = w1.sub(two52), m1 = two52.sub(w1);
                    DoubleVector r1h = a1.mul(b);
                    DoubleVector r1 =
                            r1h.fma(qinv, round).sub(round).fma(nq, r1h).sub(n1.fma(b, r1h));
                    DoubleVector ru1h = d1.mul(bu);
                    DoubleVector ru1 =
                            ru1h.fma(qinv, round).sub(round).fma(nq, ru1h).sub(m1.fma(bu, ru1h));
                    DoubleVector.fromArray(D, s2, k).add(r1).add(ru1).intoArray(s2, k);
                    DoubleVector p1h = a1.mul(c);
                    DoubleVector p1 =
                            p1h.fma(qinv, round).sub(round).fma(nq, p1h).sub(n1.fma(c, p1h));
                    DoubleVector pu1h = d1.mul(cu);
                    DoubleVector pu1 =
                            pu1h.fma(qinv, round).sub(round).fma(nq, pu1h).sub(m1.fma(cu, pu1h));
                    DoubleVector.fromArray(D, s3, k).add(p1).add(pu1).intoArray(s3, k);
                    if (four) { // a loop-invariant branch: no vector crosses it
                        DoubleVector x2 =
                                LongVector.fromArray(S, f2, b2 + k).or(bits52).reinterpretAsDoubles();
                        DoubleVector a2 = x2.sub(two52), n2 = two52.sub(x2);
                        DoubleVector w2 =
                                LongVector.fromArray(S, e2, c2 + k).or(bits52).reinterpretAsDoubles();
                        DoubleVector d2 = w2.sub(two52), m2 = two52.sub(w2);
                        DoubleVector r2h = a2.mul(b);
                        DoubleVector r2 =
                                r2h.fma(qinv, round).sub(round).fma(nq, r2h).sub(n2.fma(b, r2h));
                        DoubleVector ru2h = d2.mul(bu);
                        DoubleVector ru2 =
                                ru2h.fma(qinv, round).sub(round).fma(nq, ru2h).sub(m2.fma(bu, ru2h));
                        DoubleVector.fromArray(D, s4, k).add(r2).add(ru2).intoArray(s4, k);
                        DoubleVector p2h = a2.mul(c);
                        DoubleVector p2 =
                                p2h.fma(qinv, round).sub(round).fma(nq, p2h).sub(n2.fma(c, p2h));
                        DoubleVector pu2h = d2.mul(cu);
                        DoubleVector pu2 =
                                pu2h.fma(qinv, round).sub(round).fma(nq, pu2h).sub(m2.fma(cu, pu2h));
                        DoubleVector.fromArray(D, s5, k).add(p2).add(pu2).intoArray(s5, k);
                        DoubleVector x3 =
                                LongVector.fromArray(S, f3, b3 + k).or(bits52).reinterpretAsDoubles();
                        DoubleVector a3 = x3.sub(two52), n3 = two52.sub(x3);
                        DoubleVector w3 =
                                LongVector.fromArray(S, e3, c3 + k).or(bits52).reinterpretAsDoubles();
                        DoubleVector d3 = w3.sub(two52), m3 = two52.sub(w3);
                        DoubleVector r3h = a3.mul(b);
                        DoubleVector r3 =
                                r3h.fma(qinv, round).sub(round).fma(nq, r3h).sub(n3.fma(b, r3h));
                        DoubleVector ru3h = d3.mul(bu);
                        DoubleVector ru3 =
                                ru3h.fma(qinv, round).sub(round).fma(nq, ru3h).sub(m3.fma(bu, ru3h));
                        DoubleVector.fromArray(D, s6, k).add(r3).add(ru3).intoArray(s6, k);
                        DoubleVector p3h = a3.mul(c);
                        DoubleVector p3 =
                                p3h.fma(qinv, round).sub(round).fma(nq, p3h).sub(n3.fma(c, p3h));
                        DoubleVector pu3h = d3.mul(cu);
                        DoubleVector pu3 =
                                pu3h.fma(qinv, round).sub(round).fma(nq, pu3h).sub(m3.fma(cu, pu3h));
                        DoubleVector.fromArray(D, s7, k).add(p3).add(pu3).intoArray(s7, k);
                    }
                }
            }
            if (t < t1) { // an odd term left in this chunk
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
                    DoubleVector x0 =
                            LongVector.fromArray(S, f0, b0 + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector a0 = x0.sub(two52), n0 = two52.sub(x0);
                    DoubleVector r0h = a0.mul(b);
                    DoubleVector r0 =
                            r0h.fma(qinv, round).sub(round).fma(nq, r0h).sub(n0.fma(b, r0h));
                    DoubleVector.fromArray(D, s0, k).add(r0).intoArray(s0, k);
                    DoubleVector p0h = a0.mul(c);
                    DoubleVector p0 =
                            p0h.fma(qinv, round).sub(round).fma(nq, p0h).sub(n0.fma(c, p0h));
                    DoubleVector.fromArray(D, s1, k).add(p0).intoArray(s1, k);
                    DoubleVector x1 =
                            LongVector.fromArray(S, f1, b1 + k).or(bits52).reinterpretAsDoubles();
                    DoubleVector a1 = x1.sub(two52), n1 = two52.sub(x1);
                    DoubleVector r1h = a1.mul(b);
                    DoubleVector r1 =
                            r1h.fma(qinv, round).sub(round).fma(nq, r1h).sub(n1.fma(b, r1h));
                    DoubleVector.fromArray(D, s2, k).add(r1).intoArray(s2, k);
                    DoubleVector p1h = a1.mul(c);
                    DoubleVector p1 =
                            p1h.fma(qinv, round).sub(round).fma(nq, p1h).sub(n1.fma(c, p1h));
                    DoubleVector.fromArray(D, s3, k).add(p1).intoArray(s3, k);
                    if (four) {
                        DoubleVector x2 =
                                LongVector.fromArray(S, f2, b2 + k).or(bits52).reinterpretAsDoubles();
                        DoubleVector a2 = x2.sub(two52), n2 = two52.sub(x2);
                        DoubleVector r2h = a2.mul(b);
                        DoubleVector r2 =
                                r2h.fma(qinv, round).sub(round).fma(nq, r2h).sub(n2.fma(b, r2h));
                        DoubleVector.fromArray(D, s4, k).add(r2).intoArray(s4, k);
                        DoubleVector p2h = a2.mul(c);
                        DoubleVector p2 =
                                p2h.fma(qinv, round).sub(round).fma(nq, p2h).sub(n2.fma(c, p2h));
                        DoubleVector.fromArray(D, s5, k).add(p2).intoArray(s5, k);
                        DoubleVector x3 =
                                LongVector.fromArray(S, f3, b3 + k).or(bits52).reinterpretAsDoubles();
                        DoubleVector a3 = x3.sub(two52), n3 = two52.sub(x3);
                        DoubleVector r3h = a3.mul(b);
                        DoubleVector r3 =
                                r3h.fma(qinv, round).sub(round).fma(nq, r3h).sub(n3.fma(b, r3h));
                        DoubleVector.fromArray(D, s6, k).add(r3).intoArray(s6, k);
                        DoubleVector p3h = a3.mul(c);
                        DoubleVector p3 =
                                p3h.fma(qinv, round).sub(round).fma(nq, p3h).sub(n3.fma(c, p3h));
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
