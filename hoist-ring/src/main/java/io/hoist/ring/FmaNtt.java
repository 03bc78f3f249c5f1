package io.hoist.ring;

import java.util.Arrays;
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
    /** The passes of each direction, in order, fixed by q and N ({@link #forwardPlan}, {@link #inversePlan}). */
    private final byte[] forwardPasses, inversePasses;

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
        this.forwardPasses = forwardPlan(n, tb.q());
        this.inversePasses = inversePlan(n, tb.q());
    }

    /** Pass kinds: a wide stage, the same reducing u (forward) or the sums (inverse) first, two wide stages. */
    static final byte WIDE = 0, WIDE_REDUCING = 1, RADIX4 = 2;
    /**
     * Pass kinds: a stage with butterflies closer than a vector, without and with the reduction. The drivers
     * pass {@code kind − SMALL} (0 or 1) as the reduction's factor, with no branch on the data's path.
     */
    static final byte SMALL = 3, SMALL_REDUCING = 4;

    /**
     * The forward passes for degree n and prime q, in order: each stage checks (from q alone) whether
     * its values could reach 2^51 and then first reduces u; two wide stages that need no reduction run as
     * one pass. Fixed per prime, so the transform's driver only dispatches on the kind: C2 compiles the
     * kinds the warm-up showed it, whatever the degree ({@code KernelWarmup}).
     */
    static byte[] forwardPlan(int n, long q) {
        final double reduced = 0.5 + 1.0 / q; // |u − round(u/q)·q| ≤ q/2 + 1, in units of q
        byte[] plan = new byte[Integer.numberOfTrailingZeros(n)];
        int count = 0;
        double bound = 1; // |values| < bound·q
        int t = n >>> 1;
        while (t >= L) {
            boolean reduce = (bound + 1) * q >= LIMIT;
            double next = (reduce ? reduced : bound) + 1;
            if (!reduce && t >= 2 * L && (next + 1) * q < LIMIT) {
                plan[count++] = RADIX4;
                bound = next + 1;
                t >>>= 2;
            } else {
                plan[count++] = reduce ? WIDE_REDUCING : WIDE;
                bound = next;
                t >>>= 1;
            }
        }
        for (; t >= 1; t >>>= 1) {
            boolean reduce = (bound + 1) * q >= LIMIT;
            plan[count++] = reduce ? SMALL_REDUCING : SMALL;
            bound = (reduce ? reduced : bound) + 1;
        }
        return Arrays.copyOf(plan, count);
    }

    /** As {@link #forwardPlan}, inverse: a sum doubles the bound, so a stage reduces its sums one stage ahead. */
    static byte[] inversePlan(int n, long q) {
        byte[] plan = new byte[Integer.numberOfTrailingZeros(n)];
        int count = 0;
        double bound = 1;
        int t = 1;
        for (; t < L; t <<= 1) {
            boolean reduce = 4 * bound * q >= LIMIT;
            plan[count++] = reduce ? SMALL_REDUCING : SMALL;
            bound = reduce ? 1 : 2 * bound;
        }
        for (int m = n / t; m > 2; ) { // the last stage (m = 2) is inverseLast's
            boolean reduce = 4 * bound * q >= LIMIT;
            if (!reduce && m > 4 && 8 * bound * q < LIMIT) {
                plan[count++] = RADIX4;
                bound *= 4;
                m >>>= 2;
            } else {
                plan[count++] = reduce ? WIDE_REDUCING : WIDE;
                bound = reduce ? 1 : 2 * bound;
                m >>>= 1;
            }
        }
        return Arrays.copyOf(plan, count);
    }

    /** The prime (exact as a double below 2^53). */
    long modulus() {
        return (long) q;
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
     * Two wide stages that need no reduction run as one pass ({@link #forwardRadix4}): a pass's loads
     * and stores, more than its arithmetic, set its pace (docs/ring.md, "NTT in FMA lanes").
     */
    void forward(long[] a) {
        toDoubles(a);
        int m = 1, t = n >>> 1;
        for (byte pass : forwardPasses) {
            switch (pass) {
                case RADIX4 -> forwardRadix4(a, m, t);
                case WIDE -> forwardWide(a, m, t);
                case WIDE_REDUCING -> forwardWideReducing(a, m, t);
                default -> forwardSmall(a, Integer.numberOfTrailingZeros(t), pass - SMALL);
            }
            int stages = pass == RADIX4 ? 2 : 1;
            m <<= stages;
            t >>>= stages;
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

    /** Two stages (m, t) and (2m, t/2), neither reducing, in one pass: four vectors in, four out. */
    private void forwardRadix4(long[] a, int m, int t) {
        final DoubleVector vq = DoubleVector.broadcast(D, q);
        final int h = t >>> 1;
        for (int i = 0; i < m; i++) {
            final long f = fw[m + i], f0 = fw[2 * (m + i)], f1 = fw[2 * (m + i) + 1];
            final DoubleVector w = DoubleVector.broadcast(D, (double) f);
            final DoubleVector nw = DoubleVector.broadcast(D, -(double) f);
            final DoubleVector wq = DoubleVector.broadcast(D, f * qInv);
            final DoubleVector w0 = DoubleVector.broadcast(D, (double) f0);
            final DoubleVector nw0 = DoubleVector.broadcast(D, -(double) f0);
            final DoubleVector wq0 = DoubleVector.broadcast(D, f0 * qInv);
            final DoubleVector w1 = DoubleVector.broadcast(D, (double) f1);
            final DoubleVector nw1 = DoubleVector.broadcast(D, -(double) f1);
            final DoubleVector wq1 = DoubleVector.broadcast(D, f1 * qInv);
            final int j1 = 2 * i * t, j2 = j1 + h;
            for (int j = j1; j < j2; j += L) {
                DoubleVector x0 = LongVector.fromArray(S, a, j).reinterpretAsDoubles();
                DoubleVector x1 = LongVector.fromArray(S, a, j + h).reinterpretAsDoubles();
                DoubleVector x2 = LongVector.fromArray(S, a, j + t).reinterpretAsDoubles();
                DoubleVector x3 = LongVector.fromArray(S, a, j + t + h).reinterpretAsDoubles();
                DoubleVector hn = x2.mul(nw);
                DoubleVector l = x2.lanewise(VectorOperators.FMA, w, hn);
                DoubleVector c = x2.lanewise(VectorOperators.FMA, wq, ROUND).sub(ROUND);
                DoubleVector rn = c.lanewise(VectorOperators.FMA, vq, hn).sub(l);
                DoubleVector y0 = x0.sub(rn), y2 = x0.add(rn);
                hn = x3.mul(nw);
                l = x3.lanewise(VectorOperators.FMA, w, hn);
                c = x3.lanewise(VectorOperators.FMA, wq, ROUND).sub(ROUND);
                rn = c.lanewise(VectorOperators.FMA, vq, hn).sub(l);
                DoubleVector y1 = x1.sub(rn), y3 = x1.add(rn);
                hn = y1.mul(nw0);
                l = y1.lanewise(VectorOperators.FMA, w0, hn);
                c = y1.lanewise(VectorOperators.FMA, wq0, ROUND).sub(ROUND);
                rn = c.lanewise(VectorOperators.FMA, vq, hn).sub(l);
                y0.sub(rn).reinterpretAsLongs().intoArray(a, j);
                y0.add(rn).reinterpretAsLongs().intoArray(a, j + h);
                hn = y3.mul(nw1);
                l = y3.lanewise(VectorOperators.FMA, w1, hn);
                c = y3.lanewise(VectorOperators.FMA, wq1, ROUND).sub(ROUND);
                rn = c.lanewise(VectorOperators.FMA, vq, hn).sub(l);
                y2.sub(rn).reinterpretAsLongs().intoArray(a, j + t);
                y2.add(rn).reinterpretAsLongs().intoArray(a, j + t + h);
            }
        }
    }

    /** A stage with butterflies closer than a vector (t = 2^lt &lt; L): lanes gathered and scattered. */
    private void forwardSmall(long[] a, int lt, double keep) {
        final DoubleVector vq = DoubleVector.broadcast(D, q), vqi = DoubleVector.broadcast(D, qInv);
        final DoubleVector nq = DoubleVector.broadcast(D, -q), two52 = DoubleVector.broadcast(D, TWO52);
        final DoubleVector vkeep = DoubleVector.broadcast(D, keep);
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
                    u0.lanewise(VectorOperators.FMA, vqi, ROUND).sub(ROUND).mul(vkeep);
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

    /**
     * Gentleman–Sande, bit-reversed in, natural out, N^-1 folded into the last stage; canonical in and out.
     * Two wide stages that need no reduction run as one pass ({@link #inverseRadix4}).
     */
    void inverse(long[] a) {
        toDoubles(a);
        int t = 1;
        for (byte pass : inversePasses) {
            int h = n / t >>> 1;
            switch (pass) {
                case RADIX4 -> inverseRadix4(a, h, t);
                case WIDE -> inverseWide(a, h, t);
                case WIDE_REDUCING -> inverseWideReducing(a, h, t);
                default -> inverseSmall(a, Integer.numberOfTrailingZeros(t), pass - SMALL);
            }
            t <<= pass == RADIX4 ? 2 : 1;
        }
        inverseLast(a, t);
    }

    /** Two stages (h, t) and (h/2, 2t), neither reducing, in one pass: four vectors in, four out. */
    private void inverseRadix4(long[] a, int h, int t) {
        final DoubleVector vq = DoubleVector.broadcast(D, q);
        for (int i = 0, j1 = 0; i < h >>> 1; i++, j1 += 4 * t) {
            final long f0 = iw[h + 2 * i], f1 = iw[h + 2 * i + 1], f = iw[(h >>> 1) + i];
            final DoubleVector w0 = DoubleVector.broadcast(D, (double) f0);
            final DoubleVector nw0 = DoubleVector.broadcast(D, -(double) f0);
            final DoubleVector wq0 = DoubleVector.broadcast(D, f0 * qInv);
            final DoubleVector w1 = DoubleVector.broadcast(D, (double) f1);
            final DoubleVector nw1 = DoubleVector.broadcast(D, -(double) f1);
            final DoubleVector wq1 = DoubleVector.broadcast(D, f1 * qInv);
            final DoubleVector w = DoubleVector.broadcast(D, (double) f);
            final DoubleVector nw = DoubleVector.broadcast(D, -(double) f);
            final DoubleVector wq = DoubleVector.broadcast(D, f * qInv);
            final int j2 = j1 + t;
            for (int j = j1; j < j2; j += L) {
                DoubleVector x0 = LongVector.fromArray(S, a, j).reinterpretAsDoubles();
                DoubleVector x1 = LongVector.fromArray(S, a, j + t).reinterpretAsDoubles();
                DoubleVector x2 = LongVector.fromArray(S, a, j + 2 * t).reinterpretAsDoubles();
                DoubleVector x3 = LongVector.fromArray(S, a, j + 3 * t).reinterpretAsDoubles();
                DoubleVector d = x0.sub(x1), s01 = x0.add(x1);
                DoubleVector hn = d.mul(nw0);
                DoubleVector l = d.lanewise(VectorOperators.FMA, w0, hn);
                DoubleVector c = d.lanewise(VectorOperators.FMA, wq0, ROUND).sub(ROUND);
                DoubleVector r01 = l.sub(c.lanewise(VectorOperators.FMA, vq, hn));
                d = x2.sub(x3);
                DoubleVector s23 = x2.add(x3);
                hn = d.mul(nw1);
                l = d.lanewise(VectorOperators.FMA, w1, hn);
                c = d.lanewise(VectorOperators.FMA, wq1, ROUND).sub(ROUND);
                DoubleVector r23 = l.sub(c.lanewise(VectorOperators.FMA, vq, hn));
                d = s01.sub(s23);
                hn = d.mul(nw);
                l = d.lanewise(VectorOperators.FMA, w, hn);
                c = d.lanewise(VectorOperators.FMA, wq, ROUND).sub(ROUND);
                s01.add(s23).reinterpretAsLongs().intoArray(a, j);
                l.sub(c.lanewise(VectorOperators.FMA, vq, hn))
                        .reinterpretAsLongs()
                        .intoArray(a, j + 2 * t);
                d = r01.sub(r23);
                hn = d.mul(nw);
                l = d.lanewise(VectorOperators.FMA, w, hn);
                c = d.lanewise(VectorOperators.FMA, wq, ROUND).sub(ROUND);
                r01.add(r23).reinterpretAsLongs().intoArray(a, j + t);
                l.sub(c.lanewise(VectorOperators.FMA, vq, hn))
                        .reinterpretAsLongs()
                        .intoArray(a, j + 3 * t);
            }
        }
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

    private void inverseSmall(long[] a, int lt, double keep) {
        final DoubleVector vq = DoubleVector.broadcast(D, q), vqi = DoubleVector.broadcast(D, qInv);
        final DoubleVector nq = DoubleVector.broadcast(D, -q), two52 = DoubleVector.broadcast(D, TWO52);
        final DoubleVector vkeep = DoubleVector.broadcast(D, keep);
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
                    s0.lanewise(VectorOperators.FMA, vqi, ROUND).sub(ROUND).mul(vkeep);
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
