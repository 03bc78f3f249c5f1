package io.hoist.bfv;

import io.hoist.random.Prng;

/**
 * The secret-dependent samplers, each constant time: ternary from the high word of r·3 (no modulo,
 * no rejection), SEAL's centred binomial noise as popcount(21 bits) − popcount(21 bits) (σ = √10.5 ≈
 * 3.24), and the lift of a small signed value into [0, q) by a sign mask.
 */
final class Sampling {
    private Sampling() {}

    /** Uniform in {−1, 0, 1} per coefficient (bias below 2^-62). */
    static byte[] ternary(Prng prng, int n) {
        byte[] s = new byte[n];
        for (int i = 0; i < n; i++) s[i] = (byte) (Math.unsignedMultiplyHigh(prng.nextLong(), 3) - 1);
        return s;
    }

    /** Centred binomial with 21 + 21 coins, as SEAL's default noise. */
    static byte[] cbd(Prng prng, int n) {
        byte[] e = new byte[n];
        for (int i = 0; i < n; i++) {
            long r = prng.nextLong();
            e[i] = (byte) (Long.bitCount(r & 0x1FFFFF) - Long.bitCount((r >>> 21) & 0x1FFFFF));
        }
        return e;
    }

    /** x mod q for a small signed x. */
    static long lift(int x, long q) {
        long v = x;
        return v + (q & (v >> 63));
    }

    static void lift(byte[] small, long q, long[] dst) {
        for (int i = 0; i < small.length; i++) dst[i] = lift(small[i], q);
    }
}
