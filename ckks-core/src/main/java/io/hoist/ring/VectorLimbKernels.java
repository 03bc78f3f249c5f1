package io.hoist.ring;

import io.hoist.math.ModArith;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link LimbKernels} on {@code LongVector} lanes, the scalar twin's arithmetic lane by lane:
 * 64×64→128 products rebuilt from four 32×32→64 products, Montgomery reduction of 128-bit sums,
 * Shoup products by fixed operands. Tails shorter than a vector go to the scalar twin. As in the
 * vector NTT, no helper takes or returns a vector (a non-inlined one boxes every vector), so the
 * product code is written out inside each loop.
 */
public final class VectorLimbKernels implements LimbKernels {
    private static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final long M32 = 0xFFFF_FFFFL;
    private static final long MAX_Q = 1L << 61;
    private final ScalarLimbKernels scalar = new ScalarLimbKernels();

    static boolean usable() {
        return L >= 4;
    }

    /** Coefficients per block: each term's operands are read as contiguous runs, the 128-bit accumulators stay in L1. */
    private static final int BLOCK = 256;
    private static final ThreadLocal<long[][]> SCRATCH = ThreadLocal.withInitial(() -> new long[4][BLOCK]);

    @Override
    public void dot2Montgomery(long[][] x, long[][] y, long[][] z, int terms, long[] out0, long[] out1, long q, boolean accumulate) {
        final int n = out0.length;
        final int vecEnd = n - n % L;
        final long ni = ModArith.montgomeryNegInv(q);
        final int chunk = LimbKernels.montgomeryTerms(q);
        final boolean two = z != null;
        final LongVector vq = LongVector.broadcast(S, q), vni = LongVector.broadcast(S, ni);
        final LongVector ql = LongVector.broadcast(S, q & M32), qh = LongVector.broadcast(S, q >>> 32);
        final LongVector zero = LongVector.zero(S), one = LongVector.broadcast(S, 1);
        final long[][] scratch = SCRATCH.get();
        final long[] ah0 = scratch[0], al0 = scratch[1], ah1 = scratch[2], al1 = scratch[3];
        for (int base = 0; base < vecEnd; base += BLOCK) {
            final int len = Math.min(BLOCK, vecEnd - base);
            for (int t0 = 0; t0 < terms; t0 += chunk) {
                final int t1 = Math.min(terms, t0 + chunk);
                java.util.Arrays.fill(ah0, 0L);
                java.util.Arrays.fill(al0, 0L);
                if (two) { java.util.Arrays.fill(ah1, 0L); java.util.Arrays.fill(al1, 0L); }
                for (int t = t0; t < t1; t++) {
                    final long[] xt = x[t], yt = y[t], zt = two ? z[t] : null;
                    for (int k = 0; k < len; k += L) {
                        LongVector a = LongVector.fromArray(S, xt, base + k);
                        LongVector al = a.and(M32), ah = a.lanewise(VectorOperators.LSHR, 32);
                        LongVector b = LongVector.fromArray(S, yt, base + k);
                        LongVector bl = b.and(M32), bh = b.lanewise(VectorOperators.LSHR, 32);
                        LongVector ll = al.mul(bl), lh = al.mul(bh), hl = ah.mul(bl), hh = ah.mul(bh);
                        LongVector mid = ll.lanewise(VectorOperators.LSHR, 32).add(lh.and(M32)).add(hl.and(M32));
                        LongVector hi = hh.add(lh.lanewise(VectorOperators.LSHR, 32)).add(hl.lanewise(VectorOperators.LSHR, 32))
                                .add(mid.lanewise(VectorOperators.LSHR, 32));
                        LongVector lo = a.mul(b);
                        LongVector l0 = LongVector.fromArray(S, al0, k).add(lo);
                        LongVector h0 = LongVector.fromArray(S, ah0, k).add(hi).add(one, l0.compare(VectorOperators.ULT, lo));
                        l0.intoArray(al0, k);
                        h0.intoArray(ah0, k);
                        if (two) {
                            LongVector c = LongVector.fromArray(S, zt, base + k);
                            LongVector cl = c.and(M32), ch = c.lanewise(VectorOperators.LSHR, 32);
                            LongVector ll2 = al.mul(cl), lh2 = al.mul(ch), hl2 = ah.mul(cl), hh2 = ah.mul(ch);
                            LongVector mid2 = ll2.lanewise(VectorOperators.LSHR, 32).add(lh2.and(M32)).add(hl2.and(M32));
                            LongVector hi2 = hh2.add(lh2.lanewise(VectorOperators.LSHR, 32)).add(hl2.lanewise(VectorOperators.LSHR, 32))
                                    .add(mid2.lanewise(VectorOperators.LSHR, 32));
                            LongVector lo2 = a.mul(c);
                            LongVector l1 = LongVector.fromArray(S, al1, k).add(lo2);
                            LongVector h1 = LongVector.fromArray(S, ah1, k).add(hi2).add(one, l1.compare(VectorOperators.ULT, lo2));
                            l1.intoArray(al1, k);
                            h1.intoArray(ah1, k);
                        }
                    }
                }
                // Montgomery: m = lo·(−q^-1), u = hi + ⌊m·q / 2^64⌋ + (lo ≠ 0) < 2q; out += u mod q
                for (int k = 0; k < len; k += L) {
                    LongVector l0 = LongVector.fromArray(S, al0, k), h0 = LongVector.fromArray(S, ah0, k);
                    LongVector m = l0.mul(vni);
                    LongVector mlo = m.and(M32), mhi = m.lanewise(VectorOperators.LSHR, 32);
                    LongVector ll = mlo.mul(ql), lh = mlo.mul(qh), hl = mhi.mul(ql), hh = mhi.mul(qh);
                    LongVector mid = ll.lanewise(VectorOperators.LSHR, 32).add(lh.and(M32)).add(hl.and(M32));
                    LongVector mq = hh.add(lh.lanewise(VectorOperators.LSHR, 32)).add(hl.lanewise(VectorOperators.LSHR, 32))
                            .add(mid.lanewise(VectorOperators.LSHR, 32));
                    LongVector u = h0.add(mq).add(one, l0.compare(VectorOperators.NE, 0));
                    u = u.lanewise(VectorOperators.UMIN, u.sub(vq));
                    final boolean add = accumulate || t0 > 0;   // the first chunk writes, so out may alias an input
                    LongVector r0 = add ? LongVector.fromArray(S, out0, base + k).add(u) : u;
                    r0.lanewise(VectorOperators.UMIN, r0.sub(vq)).intoArray(out0, base + k);
                    if (two) {
                        LongVector l1 = LongVector.fromArray(S, al1, k), h1 = LongVector.fromArray(S, ah1, k);
                        LongVector m2 = l1.mul(vni);
                        LongVector mlo2 = m2.and(M32), mhi2 = m2.lanewise(VectorOperators.LSHR, 32);
                        LongVector ll2 = mlo2.mul(ql), lh2 = mlo2.mul(qh), hl2 = mhi2.mul(ql), hh2 = mhi2.mul(qh);
                        LongVector mid2 = ll2.lanewise(VectorOperators.LSHR, 32).add(lh2.and(M32)).add(hl2.and(M32));
                        LongVector mq2 = hh2.add(lh2.lanewise(VectorOperators.LSHR, 32)).add(hl2.lanewise(VectorOperators.LSHR, 32))
                                .add(mid2.lanewise(VectorOperators.LSHR, 32));
                        LongVector u2 = h1.add(mq2).add(one, l1.compare(VectorOperators.NE, 0));
                        u2 = u2.lanewise(VectorOperators.UMIN, u2.sub(vq));
                        LongVector r1 = add ? LongVector.fromArray(S, out1, base + k).add(u2) : u2;
                        r1.lanewise(VectorOperators.UMIN, r1.sub(vq)).intoArray(out1, base + k);
                    }
                }
            }
        }
        if (vecEnd < n) tail(x, y, z, terms, out0, out1, q, accumulate, vecEnd);
    }

    private void tail(long[][] x, long[][] y, long[][] z, int terms, long[] out0, long[] out1, long q, boolean acc, int from) {
        int len = out0.length - from;
        long[][] xs = new long[terms][], ys = new long[terms][], zs = z == null ? null : new long[terms][];
        for (int t = 0; t < terms; t++) {
            xs[t] = java.util.Arrays.copyOfRange(x[t], from, from + len);
            ys[t] = java.util.Arrays.copyOfRange(y[t], from, from + len);
            if (zs != null) zs[t] = java.util.Arrays.copyOfRange(z[t], from, from + len);
        }
        long[] o0 = java.util.Arrays.copyOfRange(out0, from, from + len), o1 = z == null ? null : java.util.Arrays.copyOfRange(out1, from, from + len);
        scalar.dot2Montgomery(xs, ys, zs, terms, o0, o1, q, acc);
        System.arraycopy(o0, 0, out0, from, len);
        if (o1 != null) System.arraycopy(o1, 0, out1, from, len);
    }

    private static final ThreadLocal<long[][]> MULTI = ThreadLocal.withInitial(() -> new long[1][0]);

    @Override
    public void dot2MontgomeryMulti(long[][] x, long[][] y, long[][][] f, int terms, int outs, long[][] out0, long[][] out1, long q, boolean accumulate) {
        final int n = out0[0].length;
        if (q >= MAX_Q || n % L != 0 || n < BLOCK) { scalar.dot2MontgomeryMulti(x, y, f, terms, outs, out0, out1, q, accumulate); return; }
        final long ni = ModArith.montgomeryNegInv(q);
        final int chunk = LimbKernels.montgomeryTerms(q);
        final LongVector one = LongVector.broadcast(S, 1);
        long[][] holder = MULTI.get();
        if (holder[0].length < 4 * outs * BLOCK) holder[0] = new long[4 * outs * BLOCK];
        final long[] acc = holder[0];   // per output o: hi0, lo0, hi1, lo1 blocks at (4·o + c)·BLOCK
        final int[] active = new int[outs];
        for (int base = 0; base < n; base += BLOCK) {
            for (int t0 = 0; t0 < terms; t0 += chunk) {
                final int t1 = Math.min(terms, t0 + chunk);
                java.util.Arrays.fill(acc, 0, 4 * outs * BLOCK, 0L);
                for (int t = t0; t < t1; t++) {
                    int na = 0;
                    for (int o = 0; o < outs; o++) if (f[o][t] != null) active[na++] = o;
                    if (na == 0) continue;
                    final long[] xt = x[t], yt = y[t];
                    for (int k = 0; k < BLOCK; k += L) {
                        LongVector a = LongVector.fromArray(S, xt, base + k);
                        LongVector al = a.and(M32), ah = a.lanewise(VectorOperators.LSHR, 32);
                        LongVector c = LongVector.fromArray(S, yt, base + k);
                        LongVector cl = c.and(M32), ch = c.lanewise(VectorOperators.LSHR, 32);
                        for (int ai = 0; ai < na; ai++) {
                            final int o = active[ai];
                            final int s0 = 4 * o * BLOCK + k;
                            LongVector b = LongVector.fromArray(S, f[o][t], base + k);
                            LongVector bl = b.and(M32), bh = b.lanewise(VectorOperators.LSHR, 32);
                            LongVector ll = al.mul(bl), lh = al.mul(bh), hl = ah.mul(bl), hh = ah.mul(bh);
                            LongVector mid = ll.lanewise(VectorOperators.LSHR, 32).add(lh.and(M32)).add(hl.and(M32));
                            LongVector hi = hh.add(lh.lanewise(VectorOperators.LSHR, 32)).add(hl.lanewise(VectorOperators.LSHR, 32))
                                    .add(mid.lanewise(VectorOperators.LSHR, 32));
                            LongVector lo = a.mul(b);
                            LongVector l0 = LongVector.fromArray(S, acc, s0 + BLOCK).add(lo);
                            LongVector h0 = LongVector.fromArray(S, acc, s0).add(hi).add(one, l0.compare(VectorOperators.ULT, lo));
                            l0.intoArray(acc, s0 + BLOCK);
                            h0.intoArray(acc, s0);
                            LongVector ll2 = cl.mul(bl), lh2 = cl.mul(bh), hl2 = ch.mul(bl), hh2 = ch.mul(bh);
                            LongVector mid2 = ll2.lanewise(VectorOperators.LSHR, 32).add(lh2.and(M32)).add(hl2.and(M32));
                            LongVector hi2 = hh2.add(lh2.lanewise(VectorOperators.LSHR, 32)).add(hl2.lanewise(VectorOperators.LSHR, 32))
                                    .add(mid2.lanewise(VectorOperators.LSHR, 32));
                            LongVector lo2 = c.mul(b);
                            LongVector l1 = LongVector.fromArray(S, acc, s0 + 3 * BLOCK).add(lo2);
                            LongVector h1 = LongVector.fromArray(S, acc, s0 + 2 * BLOCK).add(hi2).add(one, l1.compare(VectorOperators.ULT, lo2));
                            l1.intoArray(acc, s0 + 3 * BLOCK);
                            h1.intoArray(acc, s0 + 2 * BLOCK);
                        }
                    }
                }
                final boolean add = accumulate || t0 > 0;
                for (int o = 0; o < outs; o++) {
                    redcBlock(acc, 4 * o * BLOCK, out0[o], base, add, q, ni);
                    redcBlock(acc, (4 * o + 2) * BLOCK, out1[o], base, add, q, ni);
                }
            }
        }
    }

    /**
     * out[base+k] (+)= REDC(hi, lo) for one block, hi at acc[s..s+BLOCK) and lo right after it:
     * arrays in, arrays out, so no vector crosses the call (it boxes nothing if C2 does not inline it).
     */
    private static void redcBlock(long[] acc, int s, long[] out, int base, boolean add, long q, long ni) {
        final LongVector vq = LongVector.broadcast(S, q), vni = LongVector.broadcast(S, ni);
        final LongVector ql = LongVector.broadcast(S, q & M32), qh = LongVector.broadcast(S, q >>> 32);
        final LongVector one = LongVector.broadcast(S, 1);
        for (int k = 0; k < BLOCK; k += L) {
            LongVector l0 = LongVector.fromArray(S, acc, s + BLOCK + k), h0 = LongVector.fromArray(S, acc, s + k);
            LongVector m = l0.mul(vni);
            LongVector mlo = m.and(M32), mhi = m.lanewise(VectorOperators.LSHR, 32);
            LongVector ll = mlo.mul(ql), lh = mlo.mul(qh), hl = mhi.mul(ql), hh = mhi.mul(qh);
            LongVector mid = ll.lanewise(VectorOperators.LSHR, 32).add(lh.and(M32)).add(hl.and(M32));
            LongVector mq = hh.add(lh.lanewise(VectorOperators.LSHR, 32)).add(hl.lanewise(VectorOperators.LSHR, 32))
                    .add(mid.lanewise(VectorOperators.LSHR, 32));
            LongVector u = h0.add(mq).add(one, l0.compare(VectorOperators.NE, 0));
            u = u.lanewise(VectorOperators.UMIN, u.sub(vq));
            LongVector r = add ? LongVector.fromArray(S, out, base + k).add(u) : u;
            r.lanewise(VectorOperators.UMIN, r.sub(vq)).intoArray(out, base + k);
        }
    }

    @Override
    public void mulShoup(long[] x, long w, long ws, long q, long[] out, int from, int len) {
        if (q >= MAX_Q) { scalar.mulShoup(x, w, ws, q, out, from, len); return; }
        final LongVector vq = LongVector.broadcast(S, q), vw = LongVector.broadcast(S, w);
        final LongVector wl = LongVector.broadcast(S, ws & M32), wh = LongVector.broadcast(S, ws >>> 32);
        int end = from + len, vecEnd = from + len - len % L;
        for (int k = from; k < vecEnd; k += L) {
            LongVector v = LongVector.fromArray(S, x, k);
            LongVector vl = v.and(M32), vh = v.lanewise(VectorOperators.LSHR, 32);
            LongVector ll = vl.mul(wl), lh = vl.mul(wh), hl = vh.mul(wl), hh = vh.mul(wh);
            LongVector mid = ll.lanewise(VectorOperators.LSHR, 32).add(lh.and(M32)).add(hl.and(M32));
            LongVector hi = hh.add(lh.lanewise(VectorOperators.LSHR, 32)).add(hl.lanewise(VectorOperators.LSHR, 32))
                    .add(mid.lanewise(VectorOperators.LSHR, 32));
            LongVector r = v.mul(vw).sub(hi.mul(vq));
            r.lanewise(VectorOperators.UMIN, r.sub(vq)).intoArray(out, k);
        }
        if (vecEnd < end) scalar.mulShoup(x, w, ws, q, out, vecEnd, end - vecEnd);
    }

    @Override
    public void sumShoup(long[][] y, int yOff, int terms, long[] w, long[] ws, long d, long[] out, int off, int len) {
        if (d >= MAX_Q) { scalar.sumShoup(y, yOff, terms, w, ws, d, out, off, len); return; }
        final LongVector vd = LongVector.broadcast(S, d), v2d = LongVector.broadcast(S, 2 * d);
        int vecEnd = len - len % L;
        for (int k = 0; k < vecEnd; k += L) {
            LongVector acc = LongVector.zero(S);
            for (int i = 0; i < terms; i++) {
                LongVector v = LongVector.fromArray(S, y[i], yOff + k);
                long wsi = ws[i];
                LongVector vl = v.and(M32), vh = v.lanewise(VectorOperators.LSHR, 32);
                LongVector wl = LongVector.broadcast(S, wsi & M32), wh = LongVector.broadcast(S, wsi >>> 32);
                LongVector ll = vl.mul(wl), lh = vl.mul(wh), hl = vh.mul(wl), hh = vh.mul(wh);
                LongVector mid = ll.lanewise(VectorOperators.LSHR, 32).add(lh.and(M32)).add(hl.and(M32));
                LongVector hi = hh.add(lh.lanewise(VectorOperators.LSHR, 32)).add(hl.lanewise(VectorOperators.LSHR, 32))
                        .add(mid.lanewise(VectorOperators.LSHR, 32));
                acc = acc.add(v.mul(w[i]).sub(hi.mul(vd)));
                acc = acc.lanewise(VectorOperators.UMIN, acc.sub(v2d));
            }
            acc.lanewise(VectorOperators.UMIN, acc.sub(vd)).intoArray(out, off + k);
        }
        if (vecEnd < len) scalar.sumShoup(y, yOff + vecEnd, terms, w, ws, d, out, off + vecEnd, len - vecEnd);
    }

    @Override
    public void subMulShoup(long[] a, long[] b, long[] out, long w, long ws, long q) {
        if (q >= MAX_Q) { scalar.subMulShoup(a, b, out, w, ws, q); return; }
        final LongVector vq = LongVector.broadcast(S, q), vw = LongVector.broadcast(S, w);
        final LongVector wl = LongVector.broadcast(S, ws & M32), wh = LongVector.broadcast(S, ws >>> 32);
        int n = out.length, vecEnd = n - n % L;
        for (int k = 0; k < vecEnd; k += L) {
            LongVector v = LongVector.fromArray(S, a, k).sub(LongVector.fromArray(S, b, k)).add(vq);   // in (0, 2q)
            LongVector vl = v.and(M32), vh = v.lanewise(VectorOperators.LSHR, 32);
            LongVector ll = vl.mul(wl), lh = vl.mul(wh), hl = vh.mul(wl), hh = vh.mul(wh);
            LongVector mid = ll.lanewise(VectorOperators.LSHR, 32).add(lh.and(M32)).add(hl.and(M32));
            LongVector hi = hh.add(lh.lanewise(VectorOperators.LSHR, 32)).add(hl.lanewise(VectorOperators.LSHR, 32))
                    .add(mid.lanewise(VectorOperators.LSHR, 32));
            LongVector r = v.mul(vw).sub(hi.mul(vq));
            r.lanewise(VectorOperators.UMIN, r.sub(vq)).intoArray(out, k);
        }
        for (int k = vecEnd; k < n; k++) {
            long d = a[k] - b[k];
            if (d < 0) d += q;
            out[k] = ModArith.mulShoup(d, w, ws, q);
        }
    }
}
