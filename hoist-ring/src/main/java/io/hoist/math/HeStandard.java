package io.hoist.math;

/**
 * The 128-bit classical bound on log2 of the whole modulus (all primes, special ones included) for a
 * uniform ternary secret and an error of width σ ≈ 3.19: the Homomorphic Encryption Standard up to N
 * = 2^15, OpenFHE's extension for 2^16 and 2^17. Shared by every scheme on the ring layer (CKKS's
 * {@code SecurityBound} adds its sparse-secret and σ rules on top), so BFV and CKKS sets are judged
 * by the same table.
 */
public final class HeStandard {
    private HeStandard() {}

    private static final int[] MAX_LOG_Q = {27, 54, 109, 218, 438, 881, 1747, 3523}; // logN 10 … 17

    /** Largest log2(Q) that is 128-bit secure at N = 2^logN, 0 below 2^10, unbounded above 2^17. */
    public static int maxLogQ(int logN) {
        if (logN < 10) return 0;
        if (logN > 17) return Integer.MAX_VALUE;
        return MAX_LOG_Q[logN - 10];
    }
}
