package io.hoist.ring.fpga;

/**
 * The kernel's word-level Montgomery multiplier (spec fpga-ntt-backend.md): W = 17-bit words,
 * λ = 4 steps, R = 2^68. Because every accepted prime is ≡ 1 (mod 2^17), q' = −q^-1 mod 2^17 = −1,
 * so a step needs no multiplication by q': t' = (−t_l) mod 2^W, c = [t_l ≠ 0],
 * t ← (t ≫ W) + q_h·t' + c with q_h = q ≫ W. After λ steps t ≡ a·b·R^-1 (mod q) and t &lt; 2q.
 */
public final class Wlm {
    private Wlm() {}

    public static final int W = 17;
    public static final int LAMBDA = 4;
    /** log2 R. */
    public static final int LOG_R = W * LAMBDA;

    private static final long MASK = (1L << W) - 1;

    /** a·b·2^-68 mod q in [0, q) for a, b &lt; q &lt; 2^62 and q ≡ 1 (mod 2^17). */
    public static long mul(long a, long b, long q) {
        long lo = a * b, hi = Math.unsignedMultiplyHigh(a, b); // t = a·b, up to 124 bits
        final long qh = q >>> W;
        for (int step = 0; step < LAMBDA; step++) {
            long tl = lo & MASK;
            long tPrime = (-tl) & MASK; // t_l·q' mod 2^W with q' = −1
            long c = tl != 0 ? 1 : 0; // the carry of t_l + t' = 2^W (or 0)
            lo = (lo >>> W) | (hi << (64 - W)); // t_h = t ≫ W (128-bit shift)
            hi >>>= W;
            long add = qh * tPrime + c; // < 2^45 · 2^17 + 1: one word
            long s = lo + add;
            if (Long.compareUnsigned(s, lo) < 0) hi++;
            lo = s;
        }
        // t < 2q < 2^63 here, so hi == 0
        return Long.compareUnsigned(lo, q) >= 0 ? lo - q : lo;
    }

    /** Whether the multiplier's shortcut q' = −1 holds: q ≡ 1 (mod 2^17). */
    public static boolean supports(long q) {
        return (q & MASK) == 1;
    }
}
