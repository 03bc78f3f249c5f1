package io.hoist.ring;

import io.hoist.math.ModArith;

/**
 * {@code cpu-scalar}: the reference negacyclic NTT with Harvey's lazy butterflies.
 *
 * <p>Forward values stay in [0, 4q), inverse values in [0, 2q); one final pass reduces to [0, q).
 * Unsigned comparisons keep it correct for every q &lt; 2^62.
 */
public final class ScalarNttBackend extends LimbNttBackend {
    public static final String NAME = "cpu-scalar";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean accepts(NttTables t) {
        return true;
    }

    @Override
    void forwardLimb(long[] a, NttTables t) {
        forwardKernel(a, t);
    }

    @Override
    void inverseLimb(long[] a, NttTables t) {
        inverseKernel(a, t);
    }

    /** Cooley–Tukey, natural in, bit-reversed out. */
    static void forwardKernel(long[] a, NttTables tb) {
        final int n = tb.n();
        final long q = tb.q(), twoQ = q << 1;
        final long[] w = tb.psiRev, ws = tb.psiRevShoup;
        final boolean small = q < 1L << 61;
        for (int m = 1, t = n >>> 1; m < n; m <<= 1, t >>>= 1) {
            for (int i = 0; i < m; i++) {
                final long wi = w[m + i], wsi = ws[m + i];
                final int j1 = 2 * i * t, j2 = j1 + t;
                for (int j = j1; j < j2; j++) {
                    // masked: a secret key's transform runs here too
                    long u = small ? ModArith.reduceOnce(a[j], twoQ) : ModArith.subIfAtLeast(a[j], twoQ);
                    long v = ModArith.mulShoupLazy(a[j + t], wi, wsi, q);
                    a[j] = u + v;
                    a[j + t] = u - v + twoQ;
                }
            }
        }
        reduceFrom4q(a, q);
    }

    /** Gentleman–Sande, bit-reversed in, natural out, N^-1 folded into the last stage. */
    static void inverseKernel(long[] a, NttTables tb) {
        final int n = tb.n();
        final long q = tb.q(), twoQ = q << 1;
        final long[] w = tb.psiInvRev, ws = tb.psiInvRevShoup;
        final boolean small = q < 1L << 61;
        int t = 1;
        for (int m = n; m > 2; m >>>= 1, t <<= 1) {
            final int h = m >>> 1;
            for (int i = 0, j1 = 0; i < h; i++, j1 += 2 * t) {
                final long wi = w[h + i], wsi = ws[h + i];
                final int j2 = j1 + t;
                for (int j = j1; j < j2; j++) {
                    long u = a[j], v = a[j + t];
                    // masked either way; the signed mask is shorter and exact while 4q stays below 2^63
                    a[j] = small ? ModArith.reduceOnce(u + v, twoQ) : ModArith.subIfAtLeast(u + v, twoQ);
                    a[j + t] = ModArith.mulShoupLazy(u - v + twoQ, wi, wsi, q);
                }
            }
        }
        // last stage (m = 2, t = N/2) with N^-1 folded in
        final long ni = tb.nInv, nis = tb.nInvShoup, li = tb.lastInv, lis = tb.lastInvShoup;
        for (int j = 0; j < t; j++) {
            long u = a[j], v = a[j + t];
            a[j] = ModArith.mulShoup(u + v, ni, nis, q);
            a[j + t] = ModArith.mulShoup(u - v + twoQ, li, lis, q);
        }
    }

    static void reduceFrom4q(long[] a, long q) {
        final long twoQ = q << 1;
        for (int j = 0; j < a.length; j++) {
            a[j] = ModArith.reduceOnce(ModArith.subIfAtLeast(a[j], twoQ), q);
        }
    }
}
