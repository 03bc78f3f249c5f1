package io.hoist.ring;

import java.util.Arrays;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The blocked Montgomery dot-product kernels of {@link VectorLimbKernels#dot2Montgomery}: one block
 * of coefficients, terms outer, 128-bit sums in L1 scratch rows, and the variant for primes below
 * 2^31. Arrays in, arrays out: no vector crosses a call (see {@link VectorLimbKernels}).
 */
final class VectorDotKernels {
    private static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final long M32 = 0xFFFF_FFFFL;

    private VectorDotKernels() {}

    /**
     * Coefficients [base, base+len) of dot2Montgomery, len a multiple of the lane count and at most
     * BLOCK: terms outer, coefficients inner, so every operand is read as one run; 128-bit sums (hi, lo
     * with the carry) in L1 scratch rows, one Montgomery reduction per {@code chunk} terms. Each
     * product is rebuilt from its four 32×32-bit partial products (a 64-bit lane multiply is three
     * multiplies on AVX2), the two middle ones summed in one lane (docs/ring.md). Arrays in, arrays
     * out: no vector crosses the call.
     *
     * <p>{@code z} and {@code out1} are never null: with one output ({@code two} false) the caller
     * passes y and out0 in their place. C2 hoists the second output's range checks out of the loops
     * when its profile has seen two outputs; a null z then failed the hoisted check, and the first
     * one-output call deoptimised the kernel (recompiled up to six times in a first evaluation).
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
            long ni,
            int chunk,
            boolean accumulate,
            int base,
            int len,
            long[][] scratch) {
        if (q < SMALL_Q) {
            dotBlockSmall(x, xOff, y, z, two, terms, out0, out1, q, ni, accumulate, base, len, scratch);
            return;
        }
        final LongVector one = LongVector.broadcast(S, 1);
        final long[] ah0 = scratch[0], al0 = scratch[1], ah1 = scratch[2], al1 = scratch[3];
        for (int t0 = 0; t0 < terms; t0 += chunk) {
            final int t1 = Math.min(terms, t0 + chunk);
            Arrays.fill(ah0, 0, len, 0L);
            Arrays.fill(al0, 0, len, 0L);
            if (two) {
                Arrays.fill(ah1, 0, len, 0L);
                Arrays.fill(al1, 0, len, 0L);
            }
            for (int t = t0; t < t1; t++) {
                final long[] xt = x[t], yt = y[t], zt = z[t];
                final int xb = (xOff == null ? 0 : xOff[t]) + base;
                for (int k = 0; k < len; k += L) {
                    LongVector a = LongVector.fromArray(S, xt, xb + k);
                    LongVector al = a.and(M32), ah = a.lanewise(VectorOperators.LSHR, 32);
                    LongVector b = LongVector.fromArray(S, yt, base + k);
                    LongVector bl = b.and(M32), bh = b.lanewise(VectorOperators.LSHR, 32);
                    // a, b < 2^63, so the cross sum al·bh + ah·bl < 2^64 needs no carry word
                    LongVector ll = al.mul(bl),
                            hh = ah.mul(bh),
                            cross = al.mul(bh).add(ah.mul(bl));
                    LongVector lo = ll.add(cross.lanewise(VectorOperators.LSHL, 32));
                    LongVector hi = hh.add(cross.lanewise(VectorOperators.LSHR, 32))
                            .add(one, lo.compare(VectorOperators.ULT, ll));
                    LongVector l0 = LongVector.fromArray(S, al0, k).add(lo);
                    LongVector h0 =
                            LongVector.fromArray(S, ah0, k).add(hi).add(one, l0.compare(VectorOperators.ULT, lo));
                    l0.intoArray(al0, k);
                    h0.intoArray(ah0, k);
                    if (two) {
                        LongVector c = LongVector.fromArray(S, zt, base + k);
                        LongVector cl = c.and(M32), ch = c.lanewise(VectorOperators.LSHR, 32);
                        LongVector ll2 = al.mul(cl),
                                hh2 = ah.mul(ch),
                                cross2 = al.mul(ch).add(ah.mul(cl));
                        LongVector lo2 = ll2.add(cross2.lanewise(VectorOperators.LSHL, 32));
                        LongVector hi2 = hh2.add(cross2.lanewise(VectorOperators.LSHR, 32))
                                .add(one, lo2.compare(VectorOperators.ULT, ll2));
                        LongVector l1 = LongVector.fromArray(S, al1, k).add(lo2);
                        LongVector h1 =
                                LongVector.fromArray(S, ah1, k).add(hi2).add(one, l1.compare(VectorOperators.ULT, lo2));
                        l1.intoArray(al1, k);
                        h1.intoArray(ah1, k);
                    }
                }
            }
            final boolean add = accumulate || t0 > 0; // the first chunk writes, so out may alias an input
            redc(ah0, al0, out0, base, len, add, q, ni);
            if (two) redc(ah1, al1, out1, base, len, add, q, ni);
        }
    }

    /**
     * out[base+k] (+)= (hi[k]·2^64 + lo[k])·2^-64 mod q for k &lt; len (hi null: zero), the sums below
     * q·2^64: Montgomery, m = lo·(−q^-1), u = hi + ⌊m·q / 2^64⌋ + (lo ≠ 0) &lt; 2q.
     */
    static void redc(long[] hi, long[] lo, long[] out, int base, int len, boolean add, long q, long ni) {
        final LongVector vq = LongVector.broadcast(S, q), vni = LongVector.broadcast(S, ni);
        final LongVector ql = vq.and(M32), qh = vq.lanewise(VectorOperators.LSHR, 32);
        final LongVector nil = vni.and(M32), nih = vni.lanewise(VectorOperators.LSHR, 32);
        final LongVector one = LongVector.broadcast(S, 1);
        final LongVector zero = LongVector.zero(S);
        for (int k = 0; k < len; k += L) {
            LongVector l0 = LongVector.fromArray(S, lo, k), h0 = hi == null ? zero : LongVector.fromArray(S, hi, k);
            LongVector m = (VectorLimbKernels.WIDE
                    ? l0.mul(vni)
                    : l0.and(M32)
                            .mul(nil)
                            .add(l0.and(M32)
                                    .mul(nih)
                                    .add(l0.lanewise(VectorOperators.LSHR, 32).mul(nil))
                                    .lanewise(VectorOperators.LSHL, 32)));
            LongVector mlo = m.and(M32), mhi = m.lanewise(VectorOperators.LSHR, 32);
            LongVector ll = mlo.mul(ql), lh = mlo.mul(qh), hl = mhi.mul(ql), hh = mhi.mul(qh);
            LongVector mid =
                    ll.lanewise(VectorOperators.LSHR, 32).add(lh.and(M32)).add(hl.and(M32));
            LongVector mq = hh.add(lh.lanewise(VectorOperators.LSHR, 32))
                    .add(hl.lanewise(VectorOperators.LSHR, 32))
                    .add(mid.lanewise(VectorOperators.LSHR, 32));
            LongVector u = h0.add(mq).add(one, l0.compare(VectorOperators.NE, 0));
            u = (VectorLimbKernels.WIDE
                    ? u.lanewise(VectorOperators.UMIN, u.sub(vq))
                    : u.sub(vq).blend(u, u.sub(vq).compare(VectorOperators.LT, 0L)));
            LongVector r = add ? LongVector.fromArray(S, out, base + k).add(u) : u;
            (VectorLimbKernels.WIDE
                            ? r.lanewise(VectorOperators.UMIN, r.sub(vq))
                            : r.sub(vq).blend(r, r.sub(vq).compare(VectorOperators.LT, 0L)))
                    .intoArray(out, base + k);
        }
    }

    /**
     * {@link #dotBlock} for two outputs that share their terms' y and z (two giant steps over the same
     * babies): out0, out1 = Σ x_t ⊙ (y_t, z_t) and out2, out3 = Σ w_t ⊙ (y_t, z_t), each y_t and z_t
     * block read once for both; eight rows of 128-bit sums in {@code scratch[0..8)}, with AVX-512 loaded and stored
     * once per two terms (their products summed in registers first): the n13 demo's P limb, 256 terms from memory,
     * 0.78 of the time with one term per pass in a harness (docs/benchmarks.md, thirty-fourth session). Exact sums,
     * so the bits of {@link #dotBlock}. Primes of at least 2^31.
     */
    static void dualBlock(
            long[][] x,
            int[] xOff,
            long[][] w,
            int[] wOff,
            long[][] y,
            long[][] z,
            int terms,
            long[] out0,
            long[] out1,
            long[] out2,
            long[] out3,
            long q,
            long ni,
            int chunk,
            boolean accumulate,
            int base,
            int len,
            long[][] scratch) {
        for (int t0 = 0; t0 < terms; t0 += chunk) {
            final int t1 = Math.min(terms, t0 + chunk);
            for (int r = 0; r < 8; r++) Arrays.fill(scratch[r], 0, len, 0L);
            // AVX-512 sums two terms per pass, an odd last one alone; without 64-bit lane multiplies every term runs
            // alone, as two per pass measured slower there (docs/ring.md, "Four outputs per pass")
            final int paired = VectorLimbKernels.WIDE ? t0 + ((t1 - t0) & ~1) : t0;
            if (paired > t0) dualPairs(x, xOff, w, wOff, y, z, t0, paired, base, len, scratch);
            if (paired < t1) dualSingles(x, xOff, w, wOff, y, z, paired, t1, base, len, scratch);
            final boolean add = accumulate || t0 > 0;
            redc(scratch[0], scratch[1], out0, base, len, add, q, ni);
            redc(scratch[2], scratch[3], out1, base, len, add, q, ni);
            redc(scratch[4], scratch[5], out2, base, len, add, q, ni);
            redc(scratch[6], scratch[7], out3, base, len, add, q, ni);
        }
    }

    /** Terms [t0, t1) of {@link #dualBlock}, an even number, added into its rows two at a time. */
    private static void dualPairs(
            long[][] x,
            int[] xOff,
            long[][] w,
            int[] wOff,
            long[][] y,
            long[][] z,
            int t0,
            int t1,
            int base,
            int len,
            long[][] scratch) {
        final LongVector one = LongVector.broadcast(S, 1);
        // the products as in dotBlock, two terms per pass (their sum added to the rows once), an inner loop
        // over the two sides (a helper taking vectors would box them)
        for (int t = t0; t < t1; t += 2) {
            final int u = t + 1;
            final long[] xt = x[t], wt = w[t], yt = y[t], zt = z[t];
            final long[] xu = x[u], wu = w[u], yu = y[u], zu = z[u];
            final int xb = (xOff == null ? 0 : xOff[t]) + base, wb = (wOff == null ? 0 : wOff[t]) + base;
            final int xc = (xOff == null ? 0 : xOff[u]) + base, wc = (wOff == null ? 0 : wOff[u]) + base;
            for (int k = 0; k < len; k += L) {
                LongVector b = LongVector.fromArray(S, yt, base + k);
                LongVector bl = b.and(M32), bh = b.lanewise(VectorOperators.LSHR, 32);
                LongVector c = LongVector.fromArray(S, zt, base + k);
                LongVector cl = c.and(M32), ch = c.lanewise(VectorOperators.LSHR, 32);
                LongVector b2 = LongVector.fromArray(S, yu, base + k);
                LongVector b2l = b2.and(M32), b2h = b2.lanewise(VectorOperators.LSHR, 32);
                LongVector c2 = LongVector.fromArray(S, zu, base + k);
                LongVector c2l = c2.and(M32), c2h = c2.lanewise(VectorOperators.LSHR, 32);
                for (int side = 0; side < 2; side++) {
                    LongVector a =
                            side == 0 ? LongVector.fromArray(S, xt, xb + k) : LongVector.fromArray(S, wt, wb + k);
                    LongVector al = a.and(M32), ah = a.lanewise(VectorOperators.LSHR, 32);
                    LongVector a2 =
                            side == 0 ? LongVector.fromArray(S, xu, xc + k) : LongVector.fromArray(S, wu, wc + k);
                    LongVector a2l = a2.and(M32), a2h = a2.lanewise(VectorOperators.LSHR, 32);
                    final long[] ah0 = scratch[4 * side], al0 = scratch[4 * side + 1];
                    final long[] ah1 = scratch[4 * side + 2], al1 = scratch[4 * side + 3];
                    // a·b + a2·b2 (each below 2^126, the pair below 2^127) into the first row pair
                    LongVector ll = al.mul(bl), cross = al.mul(bh).add(ah.mul(bl));
                    LongVector lo = ll.add(cross.lanewise(VectorOperators.LSHL, 32));
                    LongVector hi = ah.mul(bh)
                            .add(cross.lanewise(VectorOperators.LSHR, 32))
                            .add(one, lo.compare(VectorOperators.ULT, ll));
                    LongVector ll2 = a2l.mul(b2l), cross2 = a2l.mul(b2h).add(a2h.mul(b2l));
                    LongVector lo2 = ll2.add(cross2.lanewise(VectorOperators.LSHL, 32));
                    LongVector sum = lo.add(lo2);
                    hi = hi.add(a2h.mul(b2h))
                            .add(cross2.lanewise(VectorOperators.LSHR, 32))
                            .add(one, lo2.compare(VectorOperators.ULT, ll2))
                            .add(one, sum.compare(VectorOperators.ULT, lo));
                    LongVector l0 = LongVector.fromArray(S, al0, k).add(sum);
                    LongVector.fromArray(S, ah0, k)
                            .add(hi)
                            .add(one, l0.compare(VectorOperators.ULT, sum))
                            .intoArray(ah0, k);
                    l0.intoArray(al0, k);
                    // a·c + a2·c2 into the second
                    LongVector mm = al.mul(cl), crossc = al.mul(ch).add(ah.mul(cl));
                    LongVector loc = mm.add(crossc.lanewise(VectorOperators.LSHL, 32));
                    LongVector hic = ah.mul(ch)
                            .add(crossc.lanewise(VectorOperators.LSHR, 32))
                            .add(one, loc.compare(VectorOperators.ULT, mm));
                    LongVector mm2 = a2l.mul(c2l), crossc2 = a2l.mul(c2h).add(a2h.mul(c2l));
                    LongVector loc2 = mm2.add(crossc2.lanewise(VectorOperators.LSHL, 32));
                    LongVector sumc = loc.add(loc2);
                    hic = hic.add(a2h.mul(c2h))
                            .add(crossc2.lanewise(VectorOperators.LSHR, 32))
                            .add(one, loc2.compare(VectorOperators.ULT, mm2))
                            .add(one, sumc.compare(VectorOperators.ULT, loc));
                    LongVector l1 = LongVector.fromArray(S, al1, k).add(sumc);
                    LongVector.fromArray(S, ah1, k)
                            .add(hic)
                            .add(one, l1.compare(VectorOperators.ULT, sumc))
                            .intoArray(ah1, k);
                    l1.intoArray(al1, k);
                }
            }
        }
    }

    /** Terms [t0, t1) of {@link #dualBlock} added into its rows one at a time. */
    private static void dualSingles(
            long[][] x,
            int[] xOff,
            long[][] w,
            int[] wOff,
            long[][] y,
            long[][] z,
            int t0,
            int t1,
            int base,
            int len,
            long[][] scratch) {
        final LongVector one = LongVector.broadcast(S, 1);
        // the products as in dotBlock, an inner loop over the two sides (a helper taking vectors would box them)
        for (int t = t0; t < t1; t++) {
            final long[] xt = x[t], wt = w[t], yt = y[t], zt = z[t];
            final int xb = (xOff == null ? 0 : xOff[t]) + base, wb = (wOff == null ? 0 : wOff[t]) + base;
            for (int k = 0; k < len; k += L) {
                LongVector b = LongVector.fromArray(S, yt, base + k);
                LongVector bl = b.and(M32), bh = b.lanewise(VectorOperators.LSHR, 32);
                LongVector c = LongVector.fromArray(S, zt, base + k);
                LongVector cl = c.and(M32), ch = c.lanewise(VectorOperators.LSHR, 32);
                for (int side = 0; side < 2; side++) {
                    LongVector a =
                            side == 0 ? LongVector.fromArray(S, xt, xb + k) : LongVector.fromArray(S, wt, wb + k);
                    LongVector al = a.and(M32), ah = a.lanewise(VectorOperators.LSHR, 32);
                    final long[] ah0 = scratch[4 * side], al0 = scratch[4 * side + 1];
                    final long[] ah1 = scratch[4 * side + 2], al1 = scratch[4 * side + 3];
                    LongVector ll = al.mul(bl),
                            hh = ah.mul(bh),
                            cross = al.mul(bh).add(ah.mul(bl));
                    LongVector lo = ll.add(cross.lanewise(VectorOperators.LSHL, 32));
                    LongVector hi = hh.add(cross.lanewise(VectorOperators.LSHR, 32))
                            .add(one, lo.compare(VectorOperators.ULT, ll));
                    LongVector l0 = LongVector.fromArray(S, al0, k).add(lo);
                    LongVector.fromArray(S, ah0, k)
                            .add(hi)
                            .add(one, l0.compare(VectorOperators.ULT, lo))
                            .intoArray(ah0, k);
                    l0.intoArray(al0, k);
                    LongVector ll2 = al.mul(cl),
                            hh2 = ah.mul(ch),
                            cross2 = al.mul(ch).add(ah.mul(cl));
                    LongVector lo2 = ll2.add(cross2.lanewise(VectorOperators.LSHL, 32));
                    LongVector hi2 = hh2.add(cross2.lanewise(VectorOperators.LSHR, 32))
                            .add(one, lo2.compare(VectorOperators.ULT, ll2));
                    LongVector l1 = LongVector.fromArray(S, al1, k).add(lo2);
                    LongVector.fromArray(S, ah1, k)
                            .add(hi2)
                            .add(one, l1.compare(VectorOperators.ULT, lo2))
                            .intoArray(ah1, k);
                    l1.intoArray(al1, k);
                }
            }
        }
    }

    /** Primes below 2^31: a product of two residues is one 32×32-bit multiply and several fit one 64-bit sum. */
    static final long SMALL_Q = 1L << 31;

    /** Terms whose products (each below (q−1)²) fit one 64-bit sum, at most 1024. */
    static int smallTerms(long q) {
        return (int) Math.max(1, Math.min(1024, Long.divideUnsigned(-1L, (q - 1) * (q - 1))));
    }

    /**
     * {@link #dotBlock} for q &lt; 2^31: each product is a single 32×32 → 64-bit lane multiply, summed
     * in 64 bits for {@link #smallTerms} terms, then one Montgomery reduction of (0, sum). Same
     * result, bit for bit; about a quarter of the arithmetic.
     */
    static void dotBlockSmall(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            boolean two,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            long ni,
            boolean accumulate,
            int base,
            int len,
            long[][] scratch) {
        final int c = smallTerms(q);
        final long[] s0 = scratch[0], s1 = scratch[1];
        for (int t0 = 0; t0 < terms; t0 += c) {
            final int t1 = Math.min(terms, t0 + c);
            Arrays.fill(s0, 0, len, 0L);
            if (two) Arrays.fill(s1, 0, len, 0L);
            for (int t = t0; t < t1; t++) {
                final long[] xt = x[t], yt = y[t], zt = z[t];
                final int xb = (xOff == null ? 0 : xOff[t]) + base;
                for (int k = 0; k < len; k += L) {
                    LongVector a = LongVector.fromArray(S, xt, xb + k).and(M32);
                    LongVector b = LongVector.fromArray(S, yt, base + k).and(M32);
                    LongVector.fromArray(S, s0, k).add(a.mul(b)).intoArray(s0, k);
                    if (two) {
                        LongVector w = LongVector.fromArray(S, zt, base + k).and(M32);
                        LongVector.fromArray(S, s1, k).add(a.mul(w)).intoArray(s1, k);
                    }
                }
            }
            final boolean add = accumulate || t0 > 0;
            redcLow(s0, out0, base, len, add, q, ni);
            if (two) redcLow(s1, out1, base, len, add, q, ni);
        }
    }

    /**
     * {@link #dotBlockSmall} with every x[t] in {@link PackedLimbs}' layout, base a multiple of 16:
     * one load of x gives the factors of two runs of coefficients, its low halves and its high halves.
     * Its own method, so its type profile is not shared with the unpacked kernel's.
     */
    static void dotBlockSmallPacked(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            boolean two,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            long ni,
            boolean accumulate,
            int base,
            int len,
            long[][] scratch) {
        final int c = smallTerms(q), g = PackedLimbs.GROUP;
        final long[] s0 = scratch[0], s1 = scratch[1];
        final int words = base >>> 1;
        for (int t0 = 0; t0 < terms; t0 += c) {
            final int t1 = Math.min(terms, t0 + c);
            Arrays.fill(s0, 0, len, 0L);
            if (two) Arrays.fill(s1, 0, len, 0L);
            for (int t = t0; t < t1; t++) {
                final long[] xt = x[t], yt = y[t], zt = z[t];
                final int xw = (xOff == null ? 0 : xOff[t]) + words;
                for (int k = 0; k < len; k += 2 * g) {
                    for (int i = 0; i < g; i += L) {
                        final int lo = k + i, hi = k + g + i;
                        LongVector p = LongVector.fromArray(S, xt, xw + (k >>> 1) + i);
                        LongVector a = p.and(M32), a2 = p.lanewise(VectorOperators.LSHR, 32);
                        LongVector b = LongVector.fromArray(S, yt, base + lo).and(M32);
                        LongVector b2 = LongVector.fromArray(S, yt, base + hi).and(M32);
                        LongVector.fromArray(S, s0, lo).add(a.mul(b)).intoArray(s0, lo);
                        LongVector.fromArray(S, s0, hi).add(a2.mul(b2)).intoArray(s0, hi);
                        if (two) {
                            LongVector w =
                                    LongVector.fromArray(S, zt, base + lo).and(M32);
                            LongVector w2 =
                                    LongVector.fromArray(S, zt, base + hi).and(M32);
                            LongVector.fromArray(S, s1, lo).add(a.mul(w)).intoArray(s1, lo);
                            LongVector.fromArray(S, s1, hi).add(a2.mul(w2)).intoArray(s1, hi);
                        }
                    }
                }
            }
            final boolean add = accumulate || t0 > 0;
            redcLow(s0, out0, base, len, add, q, ni);
            if (two) redcLow(s1, out1, base, len, add, q, ni);
        }
    }

    /** out[base+k] (+)= s[k]·2^-64 mod q: Montgomery reduction of (hi = 0, lo = s[k]). */
    static void redcLow(long[] s, long[] out, int base, int len, boolean add, long q, long ni) {
        redc(null, s, out, base, len, add, q, ni);
    }
}
