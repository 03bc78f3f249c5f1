package io.hoist.ring;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The forward and inverse NTT in double-precision lanes with fused multiply-adds, for primes below
 * 2^50: a modular product is six floating-point operations (2MultFMA for the exact product, a
 * rounded quotient, one exact FMA remainder) instead of the ten 32 × 32-bit lane products a 64-bit
 * product needs without AVX-512. Values are signed and lazy; the limb holds the doubles' bits during
 * the transform and canonical residues before and after, so the result is bit-identical to
 * {@link ScalarNttBackend}. docs/ring.md, "NTT in FMA lanes", has the error bounds.
 */
final class FmaNtt {
    static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    static final VectorSpecies<Long> S = VectorNttBackend.S;
    static final int L = D.length();
    /** Primes below 2^MAX_BITS: every lazy value stays below 2^51 in magnitude. */
    static final int MAX_BITS = 50;
    /** 1.5·2^52: adding and subtracting it rounds a double below 2^51 to the nearest integer. */
    private static final double ROUND = 0x1.8p52;
    /** 2^52: a residue below 2^52 is the low mantissa bits of r + 2^52. */
    private static final double TWO52 = 0x1p52;

    private static final long TWO52_BITS = Double.doubleToRawLongBits(TWO52);
    private static final long MANTISSA = (1L << 52) - 1;
    private static final double LIMIT = 0x1p51;

    final int n;
    final double q, qInv;
    private final long[] fw, iw;
    /** The small stages' twiddles, one per lane ({@link VectorNttBackend}'s expansion), per log2(t). */
    private final long[][] fwx, iwx;

    private final double nInv, last;
    /** The bound (in units of q) of a reduced value: |u − round(u/q)·q| ≤ q/2 + 1. */
    private final double reduced;

    private FmaNtt(NttTables tb, long[][] fwx, long[][] iwx) {
        this.n = tb.n();
        this.q = tb.q();
        this.qInv = 1.0 / tb.q();
        this.fw = tb.psiRev;
        this.iw = tb.psiInvRev;
        this.fwx = fwx;
        this.iwx = iwx;
        this.nInv = tb.nInv;
        this.last = tb.lastInv;
        this.reduced = 0.5 + 1.0 / tb.q();
    }

    /** Whether this form handles {@code t}: primes below 2^50, at least two vectors per limb. */
    static boolean accepts(NttTables t) {
        return L >= 2 && t.q() < 1L << MAX_BITS && t.n() >= 2 * L;
    }

    /** The transform for {@code t}, on the twiddle tables {@code t} and {@code vector} hold: nothing new is stored. */
    static FmaNtt of(NttTables t, VectorNttBackend vector) {
        if (!accepts(t)) throw new UnsupportedPrimeException("fma", t.q(), t.logN());
        return new FmaNtt(t, vector.forwardTwiddles(t), vector.inverseTwiddles(t));
    }

    /**
     * Cooley–Tukey, natural in, bit-reversed out; input and output canonical in [0, q) (the
     * {@link NttBackend} contract; unlike the integer forms, a lazy input up to 4q is not tolerated).
     */
    void forward(long[] a) {
        toDoubles(a);
        double bound = 1; // |values| < bound·q
        int m = 1, t = n >>> 1;
        for (; t >= L; m <<= 1, t >>>= 1) {
            boolean reduce = (bound + 1) * q >= LIMIT;
            if (reduce) forwardWideReducing(a, m, t);
            else forwardWide(a, m, t);
            bound = (reduce ? reduced : bound) + 1;
        }
        for (; t >= 1; t >>>= 1) {
            boolean reduce = (bound + 1) * q >= LIMIT;
            forwardSmall(a, Integer.numberOfTrailingZeros(t), reduce);
            bound = (reduce ? reduced : bound) + 1;
        }
        toResidues(a);
    }

    // The products are written out in every loop: a helper taking vectors is not always inlined by
    // C2 (too large, or too much stack) and then boxes every vector.
    // r = v·w − round(v·w/q)·q, exact: h + l = v·w (2MultFMA), c the rounded quotient, |r| < q.
    // They are written with −h = v·(−w) and −q broadcast, and the butterflies take −r: C2 emits a
    // negated operand as an instruction of its own (without them: 0.81–0.93 of the time, docs/ring.md).

    private void forwardWide(long[] a, int m, int t) {
        final DoubleVector vq = DoubleVector.broadcast(D, q);
        for (int i = 0; i < m; i++) {
            final DoubleVector w = DoubleVector.broadcast(D, (double) fw[m + i]);
            final DoubleVector nw = DoubleVector.broadcast(D, -(double) fw[m + i]);
            final DoubleVector wq = DoubleVector.broadcast(D, fw[m + i] * qInv);
            final int j1 = 2 * i * t, j2 = j1 + t;
            for (int j = j1; j < j2; j += L) {
                DoubleVector u = LongVector.fromArray(S, a, j).reinterpretAsDoubles();
                DoubleVector v = LongVector.fromArray(S, a, j + t).reinterpretAsDoubles();
                DoubleVector hn = v.mul(nw);
                DoubleVector l = v.lanewise(VectorOperators.FMA, w, hn);
                DoubleVector c = v.lanewise(VectorOperators.FMA, wq, ROUND).sub(ROUND);
                DoubleVector rn = c.lanewise(VectorOperators.FMA, vq, hn).sub(l);
                u.sub(rn).reinterpretAsLongs().intoArray(a, j);
                u.add(rn).reinterpretAsLongs().intoArray(a, j + t);
            }
        }
    }

    /**
     * As {@link #forwardWide}, u first brought to |u| ≤ q/2 + 1 (u − round(u/q)·q). A second loop, not
     * a branch in one: C2 boxes a vector that merges two branches (measured: 0.9 MB per transform).
     */
    private void forwardWideReducing(long[] a, int m, int t) {
        final DoubleVector vq = DoubleVector.broadcast(D, q), vqi = DoubleVector.broadcast(D, qInv);
        final DoubleVector nq = DoubleVector.broadcast(D, -q);
        for (int i = 0; i < m; i++) {
            final DoubleVector w = DoubleVector.broadcast(D, (double) fw[m + i]);
            final DoubleVector nw = DoubleVector.broadcast(D, -(double) fw[m + i]);
            final DoubleVector wq = DoubleVector.broadcast(D, fw[m + i] * qInv);
            final int j1 = 2 * i * t, j2 = j1 + t;
            for (int j = j1; j < j2; j += L) {
                DoubleVector u0 = LongVector.fromArray(S, a, j).reinterpretAsDoubles();
                DoubleVector v = LongVector.fromArray(S, a, j + t).reinterpretAsDoubles();
                DoubleVector cu = u0.lanewise(VectorOperators.FMA, vqi, ROUND).sub(ROUND);
                DoubleVector u = cu.lanewise(VectorOperators.FMA, nq, u0);
                DoubleVector hn = v.mul(nw);
                DoubleVector l = v.lanewise(VectorOperators.FMA, w, hn);
                DoubleVector c = v.lanewise(VectorOperators.FMA, wq, ROUND).sub(ROUND);
                DoubleVector rn = c.lanewise(VectorOperators.FMA, vq, hn).sub(l);
                u.sub(rn).reinterpretAsLongs().intoArray(a, j);
                u.add(rn).reinterpretAsLongs().intoArray(a, j + t);
            }
        }
    }

    /** A stage with butterflies closer than a vector (t = 2^lt &lt; L): lanes gathered and scattered. */
    private void forwardSmall(long[] a, int lt, boolean reduce) {
        final DoubleVector vq = DoubleVector.broadcast(D, q), vqi = DoubleVector.broadcast(D, qInv);
        final DoubleVector nq = DoubleVector.broadcast(D, -q), two52 = DoubleVector.broadcast(D, TWO52);
        final DoubleVector keep = DoubleVector.broadcast(D, reduce ? 1.0 : 0.0);
        final LongVector iu = LongVector.fromArray(S, VectorNttBackend.idxU(lt), 0);
        final LongVector iv = LongVector.fromArray(S, VectorNttBackend.idxV(lt), 0);
        final LongVector io0 = LongVector.fromArray(S, VectorNttBackend.idxO0(lt), 0);
        final LongVector io1 = LongVector.fromArray(S, VectorNttBackend.idxO1(lt), 0);
        final long[] tw = fwx[lt];
        // one induction variable, so C2 drops the range checks of every access (with two it kept the
        // twiddles' check: 2–5 % of a transform at 50 bits)
        for (int k = 0; k < n >>> 1; k += L) {
            final int base = 2 * k;
            LongVector x0 = LongVector.fromArray(S, a, base), x1 = LongVector.fromArray(S, a, base + L);
            DoubleVector u0 = iu.selectFrom(x0, x1).reinterpretAsDoubles();
            DoubleVector v = iv.selectFrom(x0, x1).reinterpretAsDoubles();
            // u − keep·round(u/q)·q: the reduction where the bound needs it, without a branch
            DoubleVector cu =
                    u0.lanewise(VectorOperators.FMA, vqi, ROUND).sub(ROUND).mul(keep);
            DoubleVector u = cu.lanewise(VectorOperators.FMA, nq, u0);
            DoubleVector wb = LongVector.fromArray(S, tw, k).or(TWO52_BITS).reinterpretAsDoubles();
            DoubleVector w = wb.sub(TWO52), nw = two52.sub(wb); // exact: a twiddle is below 2^52
            DoubleVector wq = w.mul(qInv);
            DoubleVector hn = v.mul(nw);
            DoubleVector l = v.lanewise(VectorOperators.FMA, w, hn);
            DoubleVector c = v.lanewise(VectorOperators.FMA, wq, ROUND).sub(ROUND);
            DoubleVector rn = c.lanewise(VectorOperators.FMA, vq, hn).sub(l);
            LongVector y0 = u.sub(rn).reinterpretAsLongs(), y1 = u.add(rn).reinterpretAsLongs();
            io0.selectFrom(y0, y1).intoArray(a, base);
            io1.selectFrom(y0, y1).intoArray(a, base + L);
        }
    }

    /** Gentleman–Sande, bit-reversed in, natural out, N^-1 folded into the last stage; canonical in and out. */
    void inverse(long[] a) {
        toDoubles(a);
        double bound = 1; // |values| < bound·q; a sum doubles it, so it is reduced one stage ahead
        int t = 1;
        for (; t < L; t <<= 1) {
            boolean reduce = 4 * bound * q >= LIMIT;
            inverseSmall(a, Integer.numberOfTrailingZeros(t), reduce);
            bound = reduce ? 1 : 2 * bound;
        }
        for (int m = n / t; m > 2; m >>>= 1, t <<= 1) {
            boolean reduce = 4 * bound * q >= LIMIT;
            if (reduce) inverseWideReducing(a, m >>> 1, t);
            else inverseWide(a, m >>> 1, t);
            bound = reduce ? 1 : 2 * bound;
        }
        inverseLast(a, t);
    }

    private void inverseWide(long[] a, int h, int t) {
        final DoubleVector vq = DoubleVector.broadcast(D, q);
        for (int i = 0, j1 = 0; i < h; i++, j1 += 2 * t) {
            final DoubleVector w = DoubleVector.broadcast(D, (double) iw[h + i]);
            final DoubleVector nw = DoubleVector.broadcast(D, -(double) iw[h + i]);
            final DoubleVector wq = DoubleVector.broadcast(D, iw[h + i] * qInv);
            final int j2 = j1 + t;
            for (int j = j1; j < j2; j += L) {
                DoubleVector u = LongVector.fromArray(S, a, j).reinterpretAsDoubles();
                DoubleVector v = LongVector.fromArray(S, a, j + t).reinterpretAsDoubles();
                DoubleVector d = u.sub(v);
                DoubleVector hn = d.mul(nw);
                DoubleVector l = d.lanewise(VectorOperators.FMA, w, hn);
                DoubleVector c = d.lanewise(VectorOperators.FMA, wq, ROUND).sub(ROUND);
                DoubleVector r = l.sub(c.lanewise(VectorOperators.FMA, vq, hn));
                u.add(v).reinterpretAsLongs().intoArray(a, j);
                r.reinterpretAsLongs().intoArray(a, j + t);
            }
        }
    }

    /** As {@link #inverseWide}, the sum brought to |s| ≤ q/2 + 1. */
    private void inverseWideReducing(long[] a, int h, int t) {
        final DoubleVector vq = DoubleVector.broadcast(D, q), vqi = DoubleVector.broadcast(D, qInv);
        final DoubleVector nq = DoubleVector.broadcast(D, -q);
        for (int i = 0, j1 = 0; i < h; i++, j1 += 2 * t) {
            final DoubleVector w = DoubleVector.broadcast(D, (double) iw[h + i]);
            final DoubleVector nw = DoubleVector.broadcast(D, -(double) iw[h + i]);
            final DoubleVector wq = DoubleVector.broadcast(D, iw[h + i] * qInv);
            final int j2 = j1 + t;
            for (int j = j1; j < j2; j += L) {
                DoubleVector u = LongVector.fromArray(S, a, j).reinterpretAsDoubles();
                DoubleVector v = LongVector.fromArray(S, a, j + t).reinterpretAsDoubles();
                DoubleVector d = u.sub(v), s0 = u.add(v);
                DoubleVector cs = s0.lanewise(VectorOperators.FMA, vqi, ROUND).sub(ROUND);
                DoubleVector hn = d.mul(nw);
                DoubleVector l = d.lanewise(VectorOperators.FMA, w, hn);
                DoubleVector c = d.lanewise(VectorOperators.FMA, wq, ROUND).sub(ROUND);
                DoubleVector r = l.sub(c.lanewise(VectorOperators.FMA, vq, hn));
                cs.lanewise(VectorOperators.FMA, nq, s0).reinterpretAsLongs().intoArray(a, j);
                r.reinterpretAsLongs().intoArray(a, j + t);
            }
        }
    }

    private void inverseSmall(long[] a, int lt, boolean reduce) {
        final DoubleVector vq = DoubleVector.broadcast(D, q), vqi = DoubleVector.broadcast(D, qInv);
        final DoubleVector nq = DoubleVector.broadcast(D, -q), two52 = DoubleVector.broadcast(D, TWO52);
        final DoubleVector keep = DoubleVector.broadcast(D, reduce ? 1.0 : 0.0);
        final LongVector iu = LongVector.fromArray(S, VectorNttBackend.idxU(lt), 0);
        final LongVector iv = LongVector.fromArray(S, VectorNttBackend.idxV(lt), 0);
        final LongVector io0 = LongVector.fromArray(S, VectorNttBackend.idxO0(lt), 0);
        final LongVector io1 = LongVector.fromArray(S, VectorNttBackend.idxO1(lt), 0);
        final long[] tw = iwx[lt];
        // one induction variable, so C2 drops the range checks of every access (with two it kept the
        // twiddles' check: 2–5 % of a transform at 50 bits)
        for (int k = 0; k < n >>> 1; k += L) {
            final int base = 2 * k;
            LongVector x0 = LongVector.fromArray(S, a, base), x1 = LongVector.fromArray(S, a, base + L);
            DoubleVector u = iu.selectFrom(x0, x1).reinterpretAsDoubles();
            DoubleVector v = iv.selectFrom(x0, x1).reinterpretAsDoubles();
            DoubleVector d = u.sub(v), s0 = u.add(v);
            DoubleVector cs =
                    s0.lanewise(VectorOperators.FMA, vqi, ROUND).sub(ROUND).mul(keep);
            DoubleVector wb = LongVector.fromArray(S, tw, k).or(TWO52_BITS).reinterpretAsDoubles();
            DoubleVector w = wb.sub(TWO52), nw = two52.sub(wb); // exact: a twiddle is below 2^52
            DoubleVector wq = w.mul(qInv);
            DoubleVector hn = d.mul(nw);
            DoubleVector l = d.lanewise(VectorOperators.FMA, w, hn);
            DoubleVector c = d.lanewise(VectorOperators.FMA, wq, ROUND).sub(ROUND);
            LongVector y0 = cs.lanewise(VectorOperators.FMA, nq, s0).reinterpretAsLongs();
            LongVector y1 = l.sub(c.lanewise(VectorOperators.FMA, vq, hn)).reinterpretAsLongs();
            io0.selectFrom(y0, y1).intoArray(a, base);
            io1.selectFrom(y0, y1).intoArray(a, base + L);
        }
    }

    /** The last stage (t = N/2): (u + v)·N^-1 and (u − v)·ψ-term·N^-1, made canonical and written as residues. */
    private void inverseLast(long[] a, int t) {
        final DoubleVector vq = DoubleVector.broadcast(D, q);
        final DoubleVector ni = DoubleVector.broadcast(D, nInv), niq = DoubleVector.broadcast(D, nInv * qInv);
        final DoubleVector li = DoubleVector.broadcast(D, last), liq = DoubleVector.broadcast(D, last * qInv);
        final DoubleVector nni = DoubleVector.broadcast(D, -nInv), nli = DoubleVector.broadcast(D, -last);
        for (int j = 0; j < t; j += L) {
            DoubleVector u = LongVector.fromArray(S, a, j).reinterpretAsDoubles();
            DoubleVector v = LongVector.fromArray(S, a, j + t).reinterpretAsDoubles();
            DoubleVector s0 = u.add(v), d = u.sub(v);
            DoubleVector hs = s0.mul(nni);
            DoubleVector ls = s0.lanewise(VectorOperators.FMA, ni, hs);
            DoubleVector cs = s0.lanewise(VectorOperators.FMA, niq, ROUND).sub(ROUND);
            DoubleVector rs = ls.sub(cs.lanewise(VectorOperators.FMA, vq, hs));
            DoubleVector hd = d.mul(nli);
            DoubleVector ld = d.lanewise(VectorOperators.FMA, li, hd);
            DoubleVector cd = d.lanewise(VectorOperators.FMA, liq, ROUND).sub(ROUND);
            DoubleVector rd = ld.sub(cd.lanewise(VectorOperators.FMA, vq, hd));
            rs = rs.add(vq, rs.compare(VectorOperators.LT, 0)); // |r| < q, so one addition makes it canonical
            rd = rd.add(vq, rd.compare(VectorOperators.LT, 0));
            rs.add(TWO52).reinterpretAsLongs().and(MANTISSA).intoArray(a, j);
            rd.add(TWO52).reinterpretAsLongs().and(MANTISSA).intoArray(a, j + t);
        }
    }

    private void toDoubles(long[] a) {
        for (int j = 0; j < n; j += L) {
            LongVector x = LongVector.fromArray(S, a, j);
            x.or(TWO52_BITS)
                    .reinterpretAsDoubles()
                    .sub(TWO52)
                    .reinterpretAsLongs()
                    .intoArray(a, j);
        }
    }

    private void toResidues(long[] a) {
        final DoubleVector vq = DoubleVector.broadcast(D, q), vqi = DoubleVector.broadcast(D, qInv);
        final DoubleVector nq = DoubleVector.broadcast(D, -q);
        for (int j = 0; j < n; j += L) {
            DoubleVector x0 = LongVector.fromArray(S, a, j).reinterpretAsDoubles();
            DoubleVector c = x0.lanewise(VectorOperators.FMA, vqi, ROUND).sub(ROUND);
            DoubleVector x = c.lanewise(VectorOperators.FMA, nq, x0);
            x = x.add(vq, x.compare(VectorOperators.LT, 0));
            x.add(TWO52).reinterpretAsLongs().and(MANTISSA).intoArray(a, j);
        }
    }
}
