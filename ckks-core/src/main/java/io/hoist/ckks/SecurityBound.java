package io.hoist.ckks;

/**
 * The 128-bit classical security bound on log2(QP) for a ternary secret, by ring degree
 * (Homomorphic Encryption Standard up to N = 2^15; OpenFHE's extension for 2^16 and 2^17).
 */
public final class SecurityBound {
    private SecurityBound() {}

    private static final int[] MAX_LOG_QP = {27, 54, 109, 218, 438, 881, 1747, 3523};  // logN 10 … 17

    /** Largest log2(QP) that is 128-bit secure at 2^logN, or 0 if no modulus is (N &lt; 2^10). */
    public static int maxLogQP(int logN) {
        if (logN < 10) return 0;
        if (logN > 17) return Integer.MAX_VALUE;
        return MAX_LOG_QP[logN - 10];
    }
}
