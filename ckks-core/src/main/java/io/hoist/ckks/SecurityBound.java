package io.hoist.ckks;

import io.hoist.math.HeStandard;
import java.util.Locale;

/**
 * The 128-bit classical security bound on log2(QP), by ring degree and secret distribution.
 *
 * <p>Uniform ternary secret: the Homomorphic Encryption Standard up to N = 2^15 and OpenFHE's
 * extension for 2^16 and 2^17. Sparse ternary secret of Hamming weight h: the published
 * lattice-estimator figure for h = 192 — Lattigo's bootstrapping set N16QP1546H192 (log QP = 1546 at
 * N = 2^16, 128-bit) is 1546/1747 of the uniform bound, and that ratio is applied at every N — and no
 * bound at all below h = 192 (such sets are never labelled secure: the estimates we can cite, e.g.
 * for h = 64, come with smaller moduli we cannot scale from). A sparse secret never gains.
 *
 * <p>The error width: the standard's tables are computed for σ = 8/√(2π) ≈ 3.19, and a bound made
 * for one σ says nothing about a smaller one (less noise is an easier LWE instance). More noise is
 * never easier for the attacks the tables cover, but the estimates are only published near the
 * standard's value and a wide error stops decrypting, so the bound is applied for σ in
 * [{@link #MIN_SIGMA}, {@link #MAX_SIGMA}] and any other σ is labelled insecure.
 */
public final class SecurityBound {
    private SecurityBound() {}

    /** The smallest error width the bound holds for: the HE standard's σ = 8/√(2π) ≈ 3.1915, rounded down. */
    public static final double MIN_SIGMA = 3.19;

    /** The largest error width labelled secure: twice the usual 3.2, the widest any library's presets use. */
    public static final double MAX_SIGMA = 6.4;

    /** Whether the 128-bit bound applies to an error of width {@code sigma}. */
    public static boolean sigmaCovered(double sigma) {
        return sigma >= MIN_SIGMA && sigma <= MAX_SIGMA;
    }

    /** Weight from which the sparse-secret estimate applies. */
    public static final int MIN_SPARSE_WEIGHT = 192;

    /** The ratio of Lattigo's N16QP1546H192 to the uniform bound at N = 2^16. */
    private static final double SPARSE_RATIO = 1546.0 / 1747.0;

    /** Largest log2(QP) that is 128-bit secure at 2^logN for {@code secret} (0: none is). */
    public static int maxLogQP(int logN, SecretDistribution secret) {
        int uniform = maxLogQP(logN);
        if (!secret.sparse()) return uniform;
        if (secret.hammingWeight() < MIN_SPARSE_WEIGHT) return 0;
        return (int) Math.floor(uniform * SPARSE_RATIO);
    }

    /** The rule applied for {@code secret}, for messages. */
    public static String rule(SecretDistribution secret) {
        if (!secret.sparse()) return "Homomorphic Encryption Standard, ternary secret";
        if (secret.hammingWeight() < MIN_SPARSE_WEIGHT)
            return "sparse secrets below h = " + MIN_SPARSE_WEIGHT + " are never labelled secure";
        return "h ≥ 192: 1546/1747 of the ternary bound, from Lattigo's N16QP1546H192";
    }

    /** Largest log2(QP) that is 128-bit secure at 2^logN for a uniform ternary secret, or 0 if no modulus is (N &lt; 2^10). */
    public static int maxLogQP(int logN) {
        return HeStandard.maxLogQ(logN);
    }

    /** "secure (log QP = … ≤ bound)" or "NOT SECURE (…)" for reports on {@code p}. */
    static String label(CkksParameters p) {
        int bound = maxLogQP(p.logN(), p.secret());
        if (p.secure()) return "secure (log QP = " + fmt(p.logQP()) + " ≤ " + bound + ")";
        if (p.logQP() <= bound) return "NOT SECURE (" + sigmaReason(p.sigma()) + ")";
        return "NOT SECURE (log QP = " + fmt(p.logQP()) + (bound == 0 ? ": " + rule(p.secret()) : " > " + bound) + ")";
    }

    static String sigmaReason(double sigma) {
        return String.format(
                Locale.ROOT,
                "σ = %s is outside [%s, %s], the error widths the 128-bit bound is applied to",
                sigma,
                MIN_SIGMA,
                MAX_SIGMA);
    }

    private static String fmt(double x) {
        return String.format(Locale.ROOT, "%.1f", x);
    }
}
