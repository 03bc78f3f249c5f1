package io.hoist.ring;

import io.hoist.math.ModArith;
import io.hoist.math.Modulus;

/**
 * Coefficient-wise kernels over many limbs of one prime that the layers above share: the lazy
 * two-output dot product behind key-switching inner products and diagonal accumulation.
 */
public final class LimbKernels {
    private LimbKernels() {}

    /** Products per 128-bit accumulator before a reduction: 16 products of 62-bit residues stay below 2^128. */
    public static final int LAZY_TERMS = 16;

    /**
     * out0[k] = Σ_t x[t][k]·y[t][k] and out1[k] = Σ_t x[t][k]·z[t][k] (mod q) for t &lt; terms,
     * accumulated in 128 bits and reduced once per {@value #LAZY_TERMS} terms. With
     * {@code accumulate}, the previous contents of out0/out1 (in [0, q)) are added.
     * {@code z} and {@code out1} may be null for a single dot product.
     */
    public static void dot2(long[][] x, long[][] y, long[][] z, int terms, long[] out0, long[] out1, Modulus mod, boolean accumulate) {
        final long q = mod.q(), mh = mod.muHi(), ml = mod.muLo();
        final int n = out0.length;
        final boolean two = z != null;
        for (int k = 0; k < n; k++) {
            long h0 = 0, l0 = accumulate ? out0[k] : 0, h1 = 0, l1 = two && accumulate ? out1[k] : 0;
            int inChunk = 0;
            for (int t = 0; t < terms; t++) {
                long a = x[t][k];
                long b = y[t][k];
                long p = a * b;
                h0 += Math.unsignedMultiplyHigh(a, b);
                l0 += p;
                if (Long.compareUnsigned(l0, p) < 0) h0++;
                if (two) {
                    long c = z[t][k];
                    long r = a * c;
                    h1 += Math.unsignedMultiplyHigh(a, c);
                    l1 += r;
                    if (Long.compareUnsigned(l1, r) < 0) h1++;
                }
                if (++inChunk == LAZY_TERMS - 1 && t + 1 < terms) {   // fold before the 128-bit sum can overflow
                    l0 = ModArith.reduce128(h0, l0, q, mh, ml);
                    h0 = 0;
                    if (two) { l1 = ModArith.reduce128(h1, l1, q, mh, ml); h1 = 0; }
                    inChunk = 0;
                }
            }
            out0[k] = ModArith.reduce128(h0, l0, q, mh, ml);
            if (two) out1[k] = ModArith.reduce128(h1, l1, q, mh, ml);
        }
    }
}
