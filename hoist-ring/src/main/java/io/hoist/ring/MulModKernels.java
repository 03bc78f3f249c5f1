package io.hoist.ring;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Coefficient-wise products mod q in one pass ({@link LimbKernels#mulMod}, {@link LimbKernels#mulModSum}: a
 * tensor product's three outputs, plaintext products). The dot-product kernels they replace summed one or two terms
 * through rows of sums, then a second pass multiplied by 2^64 mod q; at boot16's levels a 60-bit limb's tensor
 * took about seven times a 40-bit one's (docs/benchmarks.md, fortieth session). The FMA form takes {@link
 * FmaDotKernels}' exact remainders, which carry no Montgomery factor; the integer form the 128-bit products and
 * Montgomery reduction of {@link FusedDotKernels}, then the Shoup product by 2^64 mod q in registers. Every output
 * is the residue in [0, q), so every form gives the same bits. Straight-line loops, one per form and number of
 * products, as {@link FusedDotKernels}: no helper takes or returns a vector, and no vector is defined on one branch
 * only, where C2 would keep it as an object at the merge.
 */
final class MulModKernels {
    private static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    static final int L = S.length();
    private static final long M32 = 0xFFFF_FFFFL;
    private static final long BITS52 = FmaDotKernels.BITS52;
    private static final double TWO52 = FmaDotKernels.TWO52, ROUND = FmaDotKernels.ROUND;

    private MulModKernels() {}

    /**
     * out[k] (+)= a[k]·b[k] mod q for k &lt; len (a multiple of the lane count), in FMA lanes; q &lt; 2^50 ({@link
     * FmaDotKernels#accepts}). The exact remainder lies within ±0.76q, so one conditional addition of q ends it.
     */
    static void fma(long[] a, long[] b, long[] out, long q, boolean accumulate, int len) {
        final DoubleVector vq = DoubleVector.broadcast(D, (double) q), nq = vq.neg();
        final DoubleVector qinv = DoubleVector.broadcast(D, 1.0 / q), round = DoubleVector.broadcast(D, ROUND);
        final DoubleVector two52 = DoubleVector.broadcast(D, TWO52), zero = DoubleVector.zero(D);
        final LongVector bits52 = LongVector.broadcast(S, BITS52), lq = LongVector.broadcast(S, q);
        for (int k = 0; k < len; k += L) {
            DoubleVector x = LongVector.fromArray(S, a, k)
                    .or(bits52)
                    .reinterpretAsDoubles()
                    .sub(two52);
            DoubleVector y = LongVector.fromArray(S, b, k)
                    .or(bits52)
                    .reinterpretAsDoubles()
                    .sub(two52);
            DoubleVector h = x.mul(y);
            DoubleVector s = h.fma(qinv, round).sub(round).fma(nq, h).add(x.fma(y, h.neg()));
            s = s.add(vq, s.compare(VectorOperators.LT, zero));
            LongVector u = s.add(two52).reinterpretAsLongs().sub(bits52);
            if (accumulate) {
                u = LongVector.fromArray(S, out, k).add(u);
                u = (VectorLimbKernels.WIDE
                        ? u.lanewise(VectorOperators.UMIN, u.sub(lq))
                        : u.sub(lq).blend(u, u.sub(lq).compare(VectorOperators.LT, 0L)));
            }
            u.intoArray(out, k);
        }
    }

    /**
     * out[k] = a0[k]·b0[k] + a1[k]·b1[k] mod q for k &lt; len, in FMA lanes: two exact remainders, their sum
     * (within ±1.52q, exact below 2^51) reduced once more.
     */
    static void fmaSum(long[] a0, long[] b0, long[] a1, long[] b1, long[] out, long q, int len) {
        final DoubleVector vq = DoubleVector.broadcast(D, (double) q), nq = vq.neg();
        final DoubleVector qinv = DoubleVector.broadcast(D, 1.0 / q), round = DoubleVector.broadcast(D, ROUND);
        final DoubleVector two52 = DoubleVector.broadcast(D, TWO52), zero = DoubleVector.zero(D);
        final LongVector bits52 = LongVector.broadcast(S, BITS52);
        for (int k = 0; k < len; k += L) {
            DoubleVector x0 = LongVector.fromArray(S, a0, k)
                    .or(bits52)
                    .reinterpretAsDoubles()
                    .sub(two52);
            DoubleVector y0 = LongVector.fromArray(S, b0, k)
                    .or(bits52)
                    .reinterpretAsDoubles()
                    .sub(two52);
            DoubleVector h0 = x0.mul(y0);
            DoubleVector s = h0.fma(qinv, round).sub(round).fma(nq, h0).add(x0.fma(y0, h0.neg()));
            DoubleVector x1 = LongVector.fromArray(S, a1, k)
                    .or(bits52)
                    .reinterpretAsDoubles()
                    .sub(two52);
            DoubleVector y1 = LongVector.fromArray(S, b1, k)
                    .or(bits52)
                    .reinterpretAsDoubles()
                    .sub(two52);
            DoubleVector h1 = x1.mul(y1);
            s = s.add(h1.fma(qinv, round).sub(round).fma(nq, h1).add(x1.fma(y1, h1.neg())));
            s = s.fma(qinv, round).sub(round).fma(nq, s);
            s = s.add(vq, s.compare(VectorOperators.LT, zero));
            s.add(two52).reinterpretAsLongs().sub(bits52).intoArray(out, k);
        }
    }

    /**
     * out[k] (+)= a[k]·b[k] mod q for k &lt; len in integer lanes, q &lt; 2^61: the 128-bit product's Montgomery
     * reduction (ni = −q^-1 mod 2^64) times r = 2^64 mod q (Shoup quotient rs).
     */
    static void integer(long[] a, long[] b, long[] out, long q, long ni, long r, long rs, boolean accumulate, int len) {
        final LongVector vq = LongVector.broadcast(S, q), vni = LongVector.broadcast(S, ni);
        final LongVector v2q = LongVector.broadcast(S, 2 * q);
        final LongVector ql = vq.and(M32), qh = vq.lanewise(VectorOperators.LSHR, 32);
        final LongVector nil = vni.and(M32), nih = vni.lanewise(VectorOperators.LSHR, 32);
        final LongVector vr = LongVector.broadcast(S, r), vrs = LongVector.broadcast(S, rs);
        final LongVector rl = vr.and(M32), rh = vr.lanewise(VectorOperators.LSHR, 32);
        final LongVector sl = vrs.and(M32), sh = vrs.lanewise(VectorOperators.LSHR, 32);
        final LongVector one = LongVector.broadcast(S, 1);
        for (int k = 0; k < len; k += L) {
            LongVector x = LongVector.fromArray(S, a, k);
            LongVector xl = x.and(M32), xh = x.lanewise(VectorOperators.LSHR, 32);
            LongVector y = LongVector.fromArray(S, b, k);
            LongVector yl = y.and(M32), yh = y.lanewise(VectorOperators.LSHR, 32);
            LongVector ll = xl.mul(yl), cross = xl.mul(yh).add(xh.mul(yl));
            LongVector lo = ll.add(cross.lanewise(VectorOperators.LSHL, 32));
            LongVector hi = xh.mul(yh)
                    .add(cross.lanewise(VectorOperators.LSHR, 32))
                    .add(one, lo.compare(VectorOperators.ULT, ll));
            // Montgomery: (hi·2^64 + lo + m·q) / 2^64 with m = lo·ni mod 2^64, in [0, 2q)
            LongVector m = (VectorLimbKernels.WIDE
                    ? lo.mul(vni)
                    : lo.and(M32)
                            .mul(nil)
                            .add(lo.and(M32)
                                    .mul(nih)
                                    .add(lo.lanewise(VectorOperators.LSHR, 32).mul(nil))
                                    .lanewise(VectorOperators.LSHL, 32)));
            LongVector ml = m.and(M32), mh = m.lanewise(VectorOperators.LSHR, 32);
            LongVector qll = ml.mul(ql), qlh = ml.mul(qh), qhl = mh.mul(ql), qhh = mh.mul(qh);
            LongVector mid =
                    qll.lanewise(VectorOperators.LSHR, 32).add(qlh.and(M32)).add(qhl.and(M32));
            LongVector u = hi.add(qhh)
                    .add(qlh.lanewise(VectorOperators.LSHR, 32))
                    .add(qhl.lanewise(VectorOperators.LSHR, 32))
                    .add(mid.lanewise(VectorOperators.LSHR, 32))
                    .add(one, lo.compare(VectorOperators.NE, 0));
            u = (VectorLimbKernels.WIDE
                    ? u.lanewise(VectorOperators.UMIN, u.sub(vq))
                    : u.sub(vq).blend(u, u.sub(vq).compare(VectorOperators.LT, 0L)));
            // u·r mod q (Shoup, as VectorLimbKernels.mulShoup): the quotient estimate less 0–2, so [0, 4q)
            LongVector ul = u.and(M32), uh = u.lanewise(VectorOperators.LSHR, 32);
            LongVector est = uh.mul(sh)
                    .add(ul.mul(sh).lanewise(VectorOperators.LSHR, 32))
                    .add(uh.mul(sl).lanewise(VectorOperators.LSHR, 32));
            LongVector v;
            if (VectorLimbKernels.WIDE) v = u.mul(vr).sub(est.mul(vq));
            else {
                LongVector el = est.and(M32), eh = est.lanewise(VectorOperators.LSHR, 32);
                v = ul.mul(rl)
                        .add(ul.mul(rh).add(uh.mul(rl)).lanewise(VectorOperators.LSHL, 32))
                        .sub(el.mul(ql).add(el.mul(qh).add(eh.mul(ql)).lanewise(VectorOperators.LSHL, 32)));
            }
            v = (VectorLimbKernels.WIDE
                    ? v.lanewise(VectorOperators.UMIN, v.sub(v2q))
                    : v.sub(v2q).blend(v, v.sub(v2q).compare(VectorOperators.LT, 0L)));
            v = (VectorLimbKernels.WIDE
                    ? v.lanewise(VectorOperators.UMIN, v.sub(vq))
                    : v.sub(vq).blend(v, v.sub(vq).compare(VectorOperators.LT, 0L)));
            if (accumulate) {
                v = LongVector.fromArray(S, out, k).add(v);
                v = (VectorLimbKernels.WIDE
                        ? v.lanewise(VectorOperators.UMIN, v.sub(vq))
                        : v.sub(vq).blend(v, v.sub(vq).compare(VectorOperators.LT, 0L)));
            }
            v.intoArray(out, k);
        }
    }

    /**
     * out[k] = a0[k]·b0[k] + a1[k]·b1[k] mod q for k &lt; len in integer lanes, q &lt; 2^61: the two 128-bit
     * products summed (below 2q² &lt; q·2^64), one Montgomery reduction, then times r = 2^64 mod q.
     */
    static void integerSum(
            long[] a0, long[] b0, long[] a1, long[] b1, long[] out, long q, long ni, long r, long rs, int len) {
        final LongVector vq = LongVector.broadcast(S, q), vni = LongVector.broadcast(S, ni);
        final LongVector v2q = LongVector.broadcast(S, 2 * q);
        final LongVector ql = vq.and(M32), qh = vq.lanewise(VectorOperators.LSHR, 32);
        final LongVector nil = vni.and(M32), nih = vni.lanewise(VectorOperators.LSHR, 32);
        final LongVector vr = LongVector.broadcast(S, r), vrs = LongVector.broadcast(S, rs);
        final LongVector rl = vr.and(M32), rh = vr.lanewise(VectorOperators.LSHR, 32);
        final LongVector sl = vrs.and(M32), sh = vrs.lanewise(VectorOperators.LSHR, 32);
        final LongVector one = LongVector.broadcast(S, 1);
        for (int k = 0; k < len; k += L) {
            LongVector x0 = LongVector.fromArray(S, a0, k);
            LongVector x0l = x0.and(M32), x0h = x0.lanewise(VectorOperators.LSHR, 32);
            LongVector y0 = LongVector.fromArray(S, b0, k);
            LongVector y0l = y0.and(M32), y0h = y0.lanewise(VectorOperators.LSHR, 32);
            LongVector ll0 = x0l.mul(y0l), cross0 = x0l.mul(y0h).add(x0h.mul(y0l));
            LongVector lo0 = ll0.add(cross0.lanewise(VectorOperators.LSHL, 32));
            LongVector hi0 = x0h.mul(y0h)
                    .add(cross0.lanewise(VectorOperators.LSHR, 32))
                    .add(one, lo0.compare(VectorOperators.ULT, ll0));
            LongVector x1 = LongVector.fromArray(S, a1, k);
            LongVector x1l = x1.and(M32), x1h = x1.lanewise(VectorOperators.LSHR, 32);
            LongVector y1 = LongVector.fromArray(S, b1, k);
            LongVector y1l = y1.and(M32), y1h = y1.lanewise(VectorOperators.LSHR, 32);
            LongVector ll1 = x1l.mul(y1l), cross1 = x1l.mul(y1h).add(x1h.mul(y1l));
            LongVector lo1 = ll1.add(cross1.lanewise(VectorOperators.LSHL, 32));
            LongVector hi1 = x1h.mul(y1h)
                    .add(cross1.lanewise(VectorOperators.LSHR, 32))
                    .add(one, lo1.compare(VectorOperators.ULT, ll1));
            LongVector lo = lo0.add(lo1);
            LongVector hi = hi0.add(hi1).add(one, lo.compare(VectorOperators.ULT, lo1));
            LongVector m = (VectorLimbKernels.WIDE
                    ? lo.mul(vni)
                    : lo.and(M32)
                            .mul(nil)
                            .add(lo.and(M32)
                                    .mul(nih)
                                    .add(lo.lanewise(VectorOperators.LSHR, 32).mul(nil))
                                    .lanewise(VectorOperators.LSHL, 32)));
            LongVector ml = m.and(M32), mh = m.lanewise(VectorOperators.LSHR, 32);
            LongVector qll = ml.mul(ql), qlh = ml.mul(qh), qhl = mh.mul(ql), qhh = mh.mul(qh);
            LongVector mid =
                    qll.lanewise(VectorOperators.LSHR, 32).add(qlh.and(M32)).add(qhl.and(M32));
            LongVector u = hi.add(qhh)
                    .add(qlh.lanewise(VectorOperators.LSHR, 32))
                    .add(qhl.lanewise(VectorOperators.LSHR, 32))
                    .add(mid.lanewise(VectorOperators.LSHR, 32))
                    .add(one, lo.compare(VectorOperators.NE, 0));
            u = (VectorLimbKernels.WIDE
                    ? u.lanewise(VectorOperators.UMIN, u.sub(vq))
                    : u.sub(vq).blend(u, u.sub(vq).compare(VectorOperators.LT, 0L)));
            LongVector ul = u.and(M32), uh = u.lanewise(VectorOperators.LSHR, 32);
            LongVector est = uh.mul(sh)
                    .add(ul.mul(sh).lanewise(VectorOperators.LSHR, 32))
                    .add(uh.mul(sl).lanewise(VectorOperators.LSHR, 32));
            LongVector v;
            if (VectorLimbKernels.WIDE) v = u.mul(vr).sub(est.mul(vq));
            else {
                LongVector el = est.and(M32), eh = est.lanewise(VectorOperators.LSHR, 32);
                v = ul.mul(rl)
                        .add(ul.mul(rh).add(uh.mul(rl)).lanewise(VectorOperators.LSHL, 32))
                        .sub(el.mul(ql).add(el.mul(qh).add(eh.mul(ql)).lanewise(VectorOperators.LSHL, 32)));
            }
            v = (VectorLimbKernels.WIDE
                    ? v.lanewise(VectorOperators.UMIN, v.sub(v2q))
                    : v.sub(v2q).blend(v, v.sub(v2q).compare(VectorOperators.LT, 0L)));
            (VectorLimbKernels.WIDE
                            ? v.lanewise(VectorOperators.UMIN, v.sub(vq))
                            : v.sub(vq).blend(v, v.sub(vq).compare(VectorOperators.LT, 0L)))
                    .intoArray(out, k);
        }
    }
}
