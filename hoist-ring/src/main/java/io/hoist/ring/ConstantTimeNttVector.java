package io.hoist.ring;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector forms of {@link ConstantTimeNtt}: the stages whose butterflies are at least a vector
 * apart run lane-wise (broadcast twiddles, every conditional subtraction a lane-wise UMIN or, on AVX2, a sign test and a blend), the others in the
 * scalar twin's code, so the two forms are bit-identical. The 64-bit kernel's wide stages are
 * {@link VectorNttBackend}'s own (the same butterflies; only the tables differ); the 32-bit kernel needs one
 * {@code vpmuludq} per product: every operand is masked to its low half, the form C2 matches. The
 * Shoup products are written out in each loop, not called: C2 does not inline a helper whose compiled
 * body is big, and a vector passed to a call that is not inlined is boxed (the allocation test guards it).
 */
final class ConstantTimeNttVector {
    private ConstantTimeNttVector() {}

    private static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final long M32 = 0xFFFF_FFFFL;

    static void forward64(ConstantTimeNtt c, long[] a) {
        final int n = c.n();
        if (n < 4 * L) {
            c.forward64(a, n);
            return;
        }
        c.forward64(a, VectorNttBackend.forwardWideStages(a, n, c.q(), c.w, c.ws));
    }

    /** The transposed inverse: the scalar head (reversed first stage, t &lt; L), then GS stages on the forward twiddles. */
    static void inverse64(ConstantTimeNtt c, long[] a) {
        final int n = c.n();
        if (n < 4 * L) {
            c.inverse64(a, 1);
            return;
        }
        c.inverse64(a, L);
        VectorNttBackend.inverseWideStages(a, n, c.q(), c.w, c.ws, c.nInv, c.nInvShoup, c.lastW, c.lastWShoup);
    }

    static void forward32(ConstantTimeNtt c, long[] a) {
        final int n = c.n();
        if (n < 4 * L) {
            c.forward32(a, n);
            return;
        }
        final long q = c.q();
        final LongVector vq = LongVector.broadcast(S, q), v2q = LongVector.broadcast(S, 2 * q);
        final int[] w = c.w32, ws = c.ws32;
        final boolean tiny = c.tiny;
        int m = 1, t = n >>> 1;
        for (; t >= L; m <<= 1, t >>>= 1) {
            for (int i = 0; i < m; i++) {
                final LongVector vw = LongVector.broadcast(S, w[m + i] & M32);
                final LongVector vws = LongVector.broadcast(S, ws[m + i] & M32);
                final int j1 = 2 * i * t, j2 = j1 + t;
                for (int j = j1; j < j2; j += L) {
                    LongVector u0 = LongVector.fromArray(S, a, j), v0 = LongVector.fromArray(S, a, j + t);
                    LongVector u = (VectorLimbKernels.WIDE
                            ? u0.lanewise(VectorOperators.UMIN, u0.sub(v2q))
                            : u0.sub(v2q).blend(u0, u0.sub(v2q).compare(VectorOperators.LT, 0L)));
                    LongVector x = tiny
                            ? v0
                            : (VectorLimbKernels.WIDE
                                    ? v0.lanewise(VectorOperators.UMIN, v0.sub(v2q))
                                    : v0.sub(v2q).blend(v0, v0.sub(v2q).compare(VectorOperators.LT, 0L)));
                    LongVector p = x.and(M32)
                            .mul(vw.and(M32))
                            .sub(x.and(M32)
                                    .mul(vws.and(M32))
                                    .lanewise(VectorOperators.LSHR, 32)
                                    .and(M32)
                                    .mul(vq.and(M32)));
                    u.add(p).intoArray(a, j);
                    u.sub(p).add(v2q).intoArray(a, j + t);
                }
            }
        }
        c.forward32(a, t);
    }

    static void inverse32(ConstantTimeNtt c, long[] a) {
        final int n = c.n();
        if (n < 4 * L) {
            c.inverse32(a, 1);
            return;
        }
        c.inverse32(a, L);
        final long q = c.q();
        final LongVector vq = LongVector.broadcast(S, q), v2q = LongVector.broadcast(S, 2 * q);
        final int[] w = c.w32, ws = c.ws32;
        final boolean tiny = c.tiny;
        int t = L, m = n / (2 * L);
        for (; m > 1; m >>>= 1, t <<= 1) {
            for (int i = 0; i < m; i++) {
                final LongVector vw = LongVector.broadcast(S, w[m + i] & M32);
                final LongVector vws = LongVector.broadcast(S, ws[m + i] & M32);
                final int j1 = 2 * i * t, j2 = j1 + t;
                for (int j = j1; j < j2; j += L) {
                    LongVector u = LongVector.fromArray(S, a, j), v = LongVector.fromArray(S, a, j + t);
                    LongVector s0 = u.add(v), d0 = u.sub(v).add(v2q);
                    (VectorLimbKernels.WIDE
                                    ? s0.lanewise(VectorOperators.UMIN, s0.sub(v2q))
                                    : s0.sub(v2q).blend(s0, s0.sub(v2q).compare(VectorOperators.LT, 0L)))
                            .intoArray(a, j);
                    LongVector x = tiny
                            ? d0
                            : (VectorLimbKernels.WIDE
                                    ? d0.lanewise(VectorOperators.UMIN, d0.sub(v2q))
                                    : d0.sub(v2q).blend(d0, d0.sub(v2q).compare(VectorOperators.LT, 0L)));
                    x.and(M32)
                            .mul(vw.and(M32))
                            .sub(x.and(M32)
                                    .mul(vws.and(M32))
                                    .lanewise(VectorOperators.LSHR, 32)
                                    .and(M32)
                                    .mul(vq.and(M32)))
                            .intoArray(a, j + t);
                }
            }
        }
        final LongVector vn = LongVector.broadcast(S, c.nInv), vns = LongVector.broadcast(S, c.nInvShoup);
        final LongVector vl = LongVector.broadcast(S, c.lastW), vls = LongVector.broadcast(S, c.lastWShoup);
        for (int j = 0; j < t; j += L) {
            LongVector u = LongVector.fromArray(S, a, j), v = LongVector.fromArray(S, a, j + t);
            LongVector s0 = u.add(v), d0 = u.sub(v).add(v2q);
            LongVector
                    x =
                            (VectorLimbKernels.WIDE
                                    ? s0.lanewise(VectorOperators.UMIN, s0.sub(v2q))
                                    : s0.sub(v2q).blend(s0, s0.sub(v2q).compare(VectorOperators.LT, 0L))),
                    y =
                            (VectorLimbKernels.WIDE
                                    ? d0.lanewise(VectorOperators.UMIN, d0.sub(v2q))
                                    : d0.sub(v2q).blend(d0, d0.sub(v2q).compare(VectorOperators.LT, 0L)));
            LongVector r0 = x.and(M32)
                    .mul(vn.and(M32))
                    .sub(x.and(M32)
                            .mul(vns.and(M32))
                            .lanewise(VectorOperators.LSHR, 32)
                            .and(M32)
                            .mul(vq.and(M32)));
            LongVector r1 = y.and(M32)
                    .mul(vl.and(M32))
                    .sub(y.and(M32)
                            .mul(vls.and(M32))
                            .lanewise(VectorOperators.LSHR, 32)
                            .and(M32)
                            .mul(vq.and(M32)));
            (VectorLimbKernels.WIDE
                            ? r0.lanewise(VectorOperators.UMIN, r0.sub(vq))
                            : r0.sub(vq).blend(r0, r0.sub(vq).compare(VectorOperators.LT, 0L)))
                    .intoArray(a, j);
            (VectorLimbKernels.WIDE
                            ? r1.lanewise(VectorOperators.UMIN, r1.sub(vq))
                            : r1.sub(vq).blend(r1, r1.sub(vq).compare(VectorOperators.LT, 0L)))
                    .intoArray(a, j + t);
        }
    }
}
