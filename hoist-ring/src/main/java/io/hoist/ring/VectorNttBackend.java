package io.hoist.ring;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@code cpu-vector}: the same lazy Harvey NTT as {@link ScalarNttBackend}, on {@code LongVector} lanes.
 *
 * <p>Shoup's product needs the high 64 bits of a 64×64 product, which the Vector API does not
 * offer: it is rebuilt from three 32×32→64 products (vpmuludq on x86), without the carries of the
 * lowest one, so the quotient is short by at most 2 and the product lies in [0, 4q); one conditional
 * subtraction of 2q brings it back to [0, 2q) (docs/ring.md, "Lazy Shoup quotients"). Stages whose butterfly
 * distance t is at least the lane count L load U and V contiguously with one broadcast twiddle;
 * the last log2(L) stages (t &lt; L) gather U and V out of two adjacent vectors with a two-table
 * {@code selectFrom} (vpermt2q) and take per-lane twiddles from tables expanded once per prime.
 *
 * <p>Why the Shoup product is written out at each butterfly instead of in a helper: a helper
 * that takes or returns vectors and is not inlined boxes every vector on the heap and runs
 * 10–100× slower. {@code VectorNttTest} guards this by measuring allocated bytes per transform.
 *
 * <p>Conditional subtractions are {@code UMIN(x, x − m)} where the CPU has an unsigned lane minimum
 * (AVX-512's vpminuq); on AVX2, which emulates it with two sign flips, the sign of x − m chooses
 * (vpcmpgtq and a blend), which is exact because every lane value stays below 2^63.
 *
 * <p>Accepts primes below 2^61 (lazy values below 4q must stay positive as signed longs) and
 * N ≥ 2L; the engine falls back to {@code cpu-scalar} per limb for anything else.
 */
public final class VectorNttBackend extends LimbNttBackend {
    public static final String NAME = "cpu-vector";
    static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;
    static final int L = S.length();
    static final int LOG_L = Integer.numberOfTrailingZeros(L);
    private static final long M32 = 0xFFFF_FFFFL;
    public static final int MAX_PRIME_BITS = 61;
    /** Native 64-bit lane multiplies (see {@link VectorLimbKernels#WIDE}). */
    private static final boolean WIDE = VectorLimbKernels.WIDE;

    /** selectFrom index vectors per small stage log2(t): U, V gather and out0, out1 scatter. */
    private static final long[][] IDX_U = new long[LOG_L][], IDX_V = new long[LOG_L][];

    private static final long[][] IDX_O0 = new long[LOG_L][], IDX_O1 = new long[LOG_L][];

    static {
        for (int lt = 0; lt < LOG_L; lt++) {
            int t = 1 << lt;
            IDX_U[lt] = new long[L];
            IDX_V[lt] = new long[L];
            IDX_O0[lt] = new long[L];
            IDX_O1[lt] = new long[L];
            for (int k = 0; k < L; k++) {
                int pu = (k / t) * 2 * t + (k % t);
                IDX_U[lt][k] = pu;
                IDX_V[lt][k] = pu + t;
            }
            for (int p = 0; p < 2 * L; p++) {
                int r = p % (2 * t);
                long src = r < t ? (p / (2 * t)) * t + r : L + (p / (2 * t)) * t + (r - t);
                if (p < L) IDX_O0[lt][p] = src;
                else IDX_O1[lt][p - L] = src;
            }
        }
    }

    static long[] idxU(int lt) {
        return IDX_U[lt];
    }

    static long[] idxV(int lt) {
        return IDX_V[lt];
    }

    static long[] idxO0(int lt) {
        return IDX_O0[lt];
    }

    static long[] idxO1(int lt) {
        return IDX_O1[lt];
    }

    /** Per-prime twiddles of the small stages, expanded to one entry per lane. */
    private record Expanded(long[][] fw, long[][] fws, long[][] iw, long[][] iws) {}

    private final Map<NttTables, Expanded> expanded = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean accepts(NttTables t) {
        return L >= 2
                && t.primeBits() <= MAX_PRIME_BITS
                && t.n() >= 2 * L; // L = 1 would skip the fused final reduction
    }

    @Override
    public void prepare(NttTables t) {
        if (accepts(t)) expand(t);
    }

    /** The forward twiddles of the small stages expanded to one per lane, per log2(t) (shared, not to be written). */
    long[][] forwardTwiddles(NttTables t) {
        return expand(t).fw;
    }

    /** As {@link #forwardTwiddles}, inverse. */
    long[][] inverseTwiddles(NttTables t) {
        return expand(t).iw;
    }

    private Expanded expand(NttTables t) {
        return expanded.computeIfAbsent(t, VectorNttBackend::buildExpanded);
    }

    private static Expanded buildExpanded(NttTables tb) {
        int n = tb.n();
        long[][] fw = new long[LOG_L][], fws = new long[LOG_L][], iw = new long[LOG_L][], iws = new long[LOG_L][];
        for (int lt = 0; lt < LOG_L; lt++) {
            int t = 1 << lt;
            int m = n / (2 * t); // first twiddle index of the stage with butterfly distance t (both directions)
            fw[lt] = new long[n / 2];
            fws[lt] = new long[n / 2];
            iw[lt] = new long[n / 2];
            iws[lt] = new long[n / 2];
            for (int c = 0; c < n / (2 * L); c++) {
                for (int k = 0; k < L; k++) {
                    int src = m + c * (L / t) + k / t;
                    fw[lt][c * L + k] = tb.psiRev[src];
                    fws[lt][c * L + k] = tb.psiRevShoup[src];
                    iw[lt][c * L + k] = tb.psiInvRev[src];
                    iws[lt][c * L + k] = tb.psiInvRevShoup[src];
                }
            }
        }
        return new Expanded(fw, fws, iw, iws);
    }

    @Override
    void forwardLimb(long[] a, NttTables t) {
        Expanded e = expand(t);
        forwardKernel(a, t, e.fw, e.fws);
    }

    @Override
    void inverseLimb(long[] a, NttTables t) {
        Expanded e = expand(t);
        inverseKernel(a, t, e.iw, e.iws);
    }

    private static void forwardKernel(long[] a, NttTables tb, long[][] sw, long[][] sws) {
        final int n = tb.n();
        final long q = tb.q();
        final LongVector vq = LongVector.broadcast(S, q);
        final LongVector v2q = LongVector.broadcast(S, 2 * q);
        final LongVector ql = vq.and(M32), qh = vq.lanewise(VectorOperators.LSHR, 32);
        int t = forwardWideStages(a, n, q, tb.psiRev, tb.psiRevShoup);
        for (; t >= 1; t >>>= 1) {
            final int lt = Integer.numberOfTrailingZeros(t);
            final LongVector iu = LongVector.fromArray(S, IDX_U[lt], 0), iv = LongVector.fromArray(S, IDX_V[lt], 0);
            final LongVector io0 = LongVector.fromArray(S, IDX_O0[lt], 0), io1 = LongVector.fromArray(S, IDX_O1[lt], 0);
            final long[] tw = sw[lt], tws = sws[lt];
            final boolean last = t == 1;
            // one induction variable, so C2 drops the range checks of every access (with two it kept the
            // twiddles' check: 2–5 % of a transform at 50 bits)
            for (int c = 0; c < n >>> 1; c += L) {
                final int base = 2 * c;
                LongVector x0 = LongVector.fromArray(S, a, base), x1 = LongVector.fromArray(S, a, base + L);
                LongVector u = iu.selectFrom(x0, x1), v = iv.selectFrom(x0, x1);
                LongVector vw = LongVector.fromArray(S, tw, c), wsv = LongVector.fromArray(S, tws, c);
                LongVector wl = wsv.and(M32), wh = wsv.lanewise(VectorOperators.LSHR, 32);
                u = (WIDE
                        ? u.lanewise(VectorOperators.UMIN, u.sub(v2q))
                        : u.sub(v2q).blend(u, u.sub(v2q).compare(VectorOperators.LT, 0L)));
                LongVector vl = v.and(M32), vh = v.lanewise(VectorOperators.LSHR, 32);
                // ⌊·/2^64⌋ of the Shoup quotient less 0, 1 or 2 (the carries of the dropped low partial product)
                LongVector hi = vh.mul(wh)
                        .add(vl.mul(wh).lanewise(VectorOperators.LSHR, 32))
                        .add(vh.mul(wl).lanewise(VectorOperators.LSHR, 32));
                LongVector p = (WIDE
                        ? v.mul(vw).sub(hi.mul(vq))
                        : vl.mul(vw.and(M32))
                                .add(vl.mul(vw.lanewise(VectorOperators.LSHR, 32))
                                        .add(vh.mul(vw.and(M32)))
                                        .lanewise(VectorOperators.LSHL, 32))
                                .sub(hi.and(M32)
                                        .mul(ql)
                                        .add(hi.and(M32)
                                                .mul(qh)
                                                .add(hi.lanewise(VectorOperators.LSHR, 32)
                                                        .mul(ql))
                                                .lanewise(VectorOperators.LSHL, 32))));
                p = (WIDE
                        ? p.lanewise(VectorOperators.UMIN, p.sub(v2q))
                        : p.sub(v2q).blend(p, p.sub(v2q).compare(VectorOperators.LT, 0L))); // [0, 4q) → [0, 2q)
                LongVector y0 = u.add(p), y1 = u.sub(p).add(v2q);
                if (last) { // final reduction [0, 4q) → [0, q) merged into the last stage
                    y0 = (WIDE
                            ? y0.lanewise(VectorOperators.UMIN, y0.sub(v2q))
                            : y0.sub(v2q).blend(y0, y0.sub(v2q).compare(VectorOperators.LT, 0L)));
                    y0 = (WIDE
                            ? y0.lanewise(VectorOperators.UMIN, y0.sub(vq))
                            : y0.sub(vq).blend(y0, y0.sub(vq).compare(VectorOperators.LT, 0L)));
                    y1 = (WIDE
                            ? y1.lanewise(VectorOperators.UMIN, y1.sub(v2q))
                            : y1.sub(v2q).blend(y1, y1.sub(v2q).compare(VectorOperators.LT, 0L)));
                    y1 = (WIDE
                            ? y1.lanewise(VectorOperators.UMIN, y1.sub(vq))
                            : y1.sub(vq).blend(y1, y1.sub(vq).compare(VectorOperators.LT, 0L)));
                }
                io0.selectFrom(y0, y1).intoArray(a, base);
                io1.selectFrom(y0, y1).intoArray(a, base + L);
            }
        }
    }

    private static void inverseKernel(long[] a, NttTables tb, long[][] sw, long[][] sws) {
        final int n = tb.n();
        final long q = tb.q();
        final LongVector vq = LongVector.broadcast(S, q);
        final LongVector v2q = LongVector.broadcast(S, 2 * q);
        final LongVector ql = vq.and(M32), qh = vq.lanewise(VectorOperators.LSHR, 32);
        int t = 1;
        for (; t < L; t <<= 1) {
            final int lt = Integer.numberOfTrailingZeros(t);
            final LongVector iu = LongVector.fromArray(S, IDX_U[lt], 0), iv = LongVector.fromArray(S, IDX_V[lt], 0);
            final LongVector io0 = LongVector.fromArray(S, IDX_O0[lt], 0), io1 = LongVector.fromArray(S, IDX_O1[lt], 0);
            final long[] tw = sw[lt], tws = sws[lt];
            // one induction variable, so C2 drops the range checks of every access (with two it kept the
            // twiddles' check: 2–5 % of a transform at 50 bits)
            for (int c = 0; c < n >>> 1; c += L) {
                final int base = 2 * c;
                LongVector x0 = LongVector.fromArray(S, a, base), x1 = LongVector.fromArray(S, a, base + L);
                LongVector u = iu.selectFrom(x0, x1), v = iv.selectFrom(x0, x1);
                LongVector vw = LongVector.fromArray(S, tw, c), wsv = LongVector.fromArray(S, tws, c);
                LongVector wl = wsv.and(M32), wh = wsv.lanewise(VectorOperators.LSHR, 32);
                LongVector s = u.add(v);
                s = (WIDE
                        ? s.lanewise(VectorOperators.UMIN, s.sub(v2q))
                        : s.sub(v2q).blend(s, s.sub(v2q).compare(VectorOperators.LT, 0L)));
                LongVector d = u.sub(v).add(v2q);
                LongVector dl = d.and(M32), dh = d.lanewise(VectorOperators.LSHR, 32);
                // ⌊·/2^64⌋ of the Shoup quotient less 0, 1 or 2 (the carries of the dropped low partial product)
                LongVector hi = dh.mul(wh)
                        .add(dl.mul(wh).lanewise(VectorOperators.LSHR, 32))
                        .add(dh.mul(wl).lanewise(VectorOperators.LSHR, 32));
                LongVector p = (WIDE
                        ? d.mul(vw).sub(hi.mul(vq))
                        : dl.mul(vw.and(M32))
                                .add(dl.mul(vw.lanewise(VectorOperators.LSHR, 32))
                                        .add(dh.mul(vw.and(M32)))
                                        .lanewise(VectorOperators.LSHL, 32))
                                .sub(hi.and(M32)
                                        .mul(ql)
                                        .add(hi.and(M32)
                                                .mul(qh)
                                                .add(hi.lanewise(VectorOperators.LSHR, 32)
                                                        .mul(ql))
                                                .lanewise(VectorOperators.LSHL, 32))));
                p = (WIDE
                        ? p.lanewise(VectorOperators.UMIN, p.sub(v2q))
                        : p.sub(v2q).blend(p, p.sub(v2q).compare(VectorOperators.LT, 0L))); // [0, 4q) → [0, 2q)
                io0.selectFrom(s, p).intoArray(a, base);
                io1.selectFrom(s, p).intoArray(a, base + L);
            }
        }
        inverseWideStages(a, n, q, tb.psiInvRev, tb.psiInvRevShoup, tb.nInv, tb.nInvShoup, tb.lastInv, tb.lastInvShoup);
    }

    /**
     * The forward stages whose butterflies are at least a vector apart (t = N/2 … L), Cooley–Tukey on
     * [0, 4q) with twiddles w[m + i] and Shoup quotients ws: shared by this backend and
     * {@link ConstantTimeNtt}'s vector form (lane-wise, so constant time). Returns the next t, L/2.
     */
    static int forwardWideStages(long[] a, int n, long q, long[] w, long[] ws) {
        final LongVector vq = LongVector.broadcast(S, q);
        final LongVector v2q = LongVector.broadcast(S, 2 * q);
        final LongVector ql = vq.and(M32), qh = vq.lanewise(VectorOperators.LSHR, 32);
        int m = 1, t = n >>> 1;
        for (; t >= L; m <<= 1, t >>>= 1) {
            for (int i = 0; i < m; i++) {
                final LongVector vw = LongVector.broadcast(S, w[m + i]);
                final LongVector wl = LongVector.broadcast(S, ws[m + i]).and(M32);
                final LongVector wh = LongVector.broadcast(S, ws[m + i]).lanewise(VectorOperators.LSHR, 32);
                final int j1 = 2 * i * t, j2 = j1 + t;
                for (int j = j1; j < j2; j += L) {
                    LongVector u = LongVector.fromArray(S, a, j);
                    LongVector v = LongVector.fromArray(S, a, j + t);
                    u = (WIDE
                            ? u.lanewise(VectorOperators.UMIN, u.sub(v2q))
                            : u.sub(v2q).blend(u, u.sub(v2q).compare(VectorOperators.LT, 0L)));
                    // v·w mod q, Shoup, from 32-bit halves
                    LongVector vl = v.and(M32), vh = v.lanewise(VectorOperators.LSHR, 32);
                    // ⌊·/2^64⌋ of the Shoup quotient less 0, 1 or 2 (the carries of the dropped low partial product)
                    LongVector hi = vh.mul(wh)
                            .add(vl.mul(wh).lanewise(VectorOperators.LSHR, 32))
                            .add(vh.mul(wl).lanewise(VectorOperators.LSHR, 32));
                    LongVector p = (WIDE
                            ? v.mul(vw).sub(hi.mul(vq))
                            : vl.mul(vw.and(M32))
                                    .add(vl.mul(vw.lanewise(VectorOperators.LSHR, 32))
                                            .add(vh.mul(vw.and(M32)))
                                            .lanewise(VectorOperators.LSHL, 32))
                                    .sub(hi.and(M32)
                                            .mul(ql)
                                            .add(hi.and(M32)
                                                    .mul(qh)
                                                    .add(hi.lanewise(VectorOperators.LSHR, 32)
                                                            .mul(ql))
                                                    .lanewise(VectorOperators.LSHL, 32))));
                    p = (WIDE
                            ? p.lanewise(VectorOperators.UMIN, p.sub(v2q))
                            : p.sub(v2q).blend(p, p.sub(v2q).compare(VectorOperators.LT, 0L))); // [0, 4q) → [0, 2q)
                    u.add(p).intoArray(a, j);
                    u.sub(p).add(v2q).intoArray(a, j + t);
                }
            }
        }
        return t;
    }

    /**
     * The Gentleman–Sande stages from t = L on, the last one (t = N/2) multiplying by nInv and by
     * {@code last} (the last twiddle with N^-1 folded in), output in [0, q): with the inverse twiddles
     * for this backend, with the forward ones for {@link ConstantTimeNtt}'s transposed inverse.
     */
    static void inverseWideStages(
            long[] a, int n, long q, long[] w, long[] ws, long nInv, long nInvShoup, long last, long lastShoup) {
        final LongVector vq = LongVector.broadcast(S, q);
        final LongVector v2q = LongVector.broadcast(S, 2 * q);
        final LongVector ql = vq.and(M32), qh = vq.lanewise(VectorOperators.LSHR, 32);
        int t = L;
        for (int m = n / (2 * t); m > 1; m >>>= 1, t <<= 1) {
            // m counts blocks of this stage; m == 1 is the last stage, handled below with N^-1
            for (int i = 0, j1 = 0; i < m; i++, j1 += 2 * t) {
                final LongVector vw = LongVector.broadcast(S, w[m + i]);
                final LongVector wl = LongVector.broadcast(S, ws[m + i]).and(M32);
                final LongVector wh = LongVector.broadcast(S, ws[m + i]).lanewise(VectorOperators.LSHR, 32);
                final int j2 = j1 + t;
                for (int j = j1; j < j2; j += L) {
                    LongVector u = LongVector.fromArray(S, a, j);
                    LongVector v = LongVector.fromArray(S, a, j + t);
                    LongVector s = u.add(v);
                    s = (WIDE
                            ? s.lanewise(VectorOperators.UMIN, s.sub(v2q))
                            : s.sub(v2q).blend(s, s.sub(v2q).compare(VectorOperators.LT, 0L)));
                    LongVector d = u.sub(v).add(v2q);
                    LongVector dl = d.and(M32), dh = d.lanewise(VectorOperators.LSHR, 32);
                    // ⌊·/2^64⌋ of the Shoup quotient less 0, 1 or 2 (the carries of the dropped low partial product)
                    LongVector hi = dh.mul(wh)
                            .add(dl.mul(wh).lanewise(VectorOperators.LSHR, 32))
                            .add(dh.mul(wl).lanewise(VectorOperators.LSHR, 32));
                    s.intoArray(a, j);
                    LongVector p = (WIDE
                            ? d.mul(vw).sub(hi.mul(vq))
                            : dl.mul(vw.and(M32))
                                    .add(dl.mul(vw.lanewise(VectorOperators.LSHR, 32))
                                            .add(dh.mul(vw.and(M32)))
                                            .lanewise(VectorOperators.LSHL, 32))
                                    .sub(hi.and(M32)
                                            .mul(ql)
                                            .add(hi.and(M32)
                                                    .mul(qh)
                                                    .add(hi.lanewise(VectorOperators.LSHR, 32)
                                                            .mul(ql))
                                                    .lanewise(VectorOperators.LSHL, 32))));
                    (WIDE
                                    ? p.lanewise(VectorOperators.UMIN, p.sub(v2q))
                                    : p.sub(v2q).blend(p, p.sub(v2q).compare(VectorOperators.LT, 0L)))
                            .intoArray(a, j + t); // [0, 4q) → [0, 2q)
                }
            }
        }
        // last stage, t = N/2: (u+v)·N^-1 and (u−v)·ψ^-brev(1)·N^-1, reduced to [0, q)
        final LongVector vn = LongVector.broadcast(S, nInv);
        final LongVector nl = LongVector.broadcast(S, nInvShoup).and(M32),
                nh = LongVector.broadcast(S, nInvShoup).lanewise(VectorOperators.LSHR, 32);
        final LongVector vw = LongVector.broadcast(S, last);
        final LongVector wl = LongVector.broadcast(S, lastShoup).and(M32),
                wh = LongVector.broadcast(S, lastShoup).lanewise(VectorOperators.LSHR, 32);
        for (int j = 0; j < t; j += L) {
            LongVector u = LongVector.fromArray(S, a, j);
            LongVector v = LongVector.fromArray(S, a, j + t);
            LongVector s = u.add(v);
            LongVector d = u.sub(v).add(v2q);
            LongVector sl = s.and(M32), sh = s.lanewise(VectorOperators.LSHR, 32);
            // ⌊·/2^64⌋ of the Shoup quotient less 0, 1 or 2 (the carries of the dropped low partial product)
            LongVector hi = sh.mul(nh)
                    .add(sl.mul(nh).lanewise(VectorOperators.LSHR, 32))
                    .add(sh.mul(nl).lanewise(VectorOperators.LSHR, 32));
            LongVector r0 = (WIDE
                    ? s.mul(vn).sub(hi.mul(vq))
                    : sl.mul(vn.and(M32))
                            .add(sl.mul(vn.lanewise(VectorOperators.LSHR, 32))
                                    .add(sh.mul(vn.and(M32)))
                                    .lanewise(VectorOperators.LSHL, 32))
                            .sub(hi.and(M32)
                                    .mul(ql)
                                    .add(hi.and(M32)
                                            .mul(qh)
                                            .add(hi.lanewise(VectorOperators.LSHR, 32)
                                                    .mul(ql))
                                            .lanewise(VectorOperators.LSHL, 32))));
            LongVector dl = d.and(M32), dh = d.lanewise(VectorOperators.LSHR, 32);
            hi = dh.mul(wh)
                    .add(dl.mul(wh).lanewise(VectorOperators.LSHR, 32))
                    .add(dh.mul(wl).lanewise(VectorOperators.LSHR, 32));
            LongVector r1 = (WIDE
                    ? d.mul(vw).sub(hi.mul(vq))
                    : dl.mul(vw.and(M32))
                            .add(dl.mul(vw.lanewise(VectorOperators.LSHR, 32))
                                    .add(dh.mul(vw.and(M32)))
                                    .lanewise(VectorOperators.LSHL, 32))
                            .sub(hi.and(M32)
                                    .mul(ql)
                                    .add(hi.and(M32)
                                            .mul(qh)
                                            .add(hi.lanewise(VectorOperators.LSHR, 32)
                                                    .mul(ql))
                                            .lanewise(VectorOperators.LSHL, 32))));
            r0 = (WIDE
                    ? r0.lanewise(VectorOperators.UMIN, r0.sub(v2q))
                    : r0.sub(v2q).blend(r0, r0.sub(v2q).compare(VectorOperators.LT, 0L)));
            r1 = (WIDE
                    ? r1.lanewise(VectorOperators.UMIN, r1.sub(v2q))
                    : r1.sub(v2q).blend(r1, r1.sub(v2q).compare(VectorOperators.LT, 0L)));
            (WIDE
                            ? r0.lanewise(VectorOperators.UMIN, r0.sub(vq))
                            : r0.sub(vq).blend(r0, r0.sub(vq).compare(VectorOperators.LT, 0L)))
                    .intoArray(a, j);
            (WIDE
                            ? r1.lanewise(VectorOperators.UMIN, r1.sub(vq))
                            : r1.sub(vq).blend(r1, r1.sub(vq).compare(VectorOperators.LT, 0L)))
                    .intoArray(a, j + t);
        }
    }
}
