package io.hoist.ckks;

import io.hoist.math.ModArith;
import io.hoist.random.Prng;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import io.hoist.ring.ScalarLimbKernels;
import java.util.Arrays;

/** Samples the small and uniform polynomials of the scheme from a {@link Prng}. */
public final class Sampler {
    private Sampler() {}

    /**
     * The widest error the sampler takes: its table has ⌊6σ⌋ entries and every sample reads all of them, so the
     * cost grows with σ (the usual σ = 3.2 reads 19).
     */
    public static final double MAX_SIGMA = 1024;

    /**
     * Discrete Gaussian D<sub>Z,σ</sub> on [−⌊6σ⌋, ⌊6σ⌋], as signed coefficients, in constant time: each sample
     * compares one 63-bit uniform value with every entry of the table of tail probabilities of |x| (so no branch,
     * no address and no loop bound depends on it) and applies a uniform sign by a mask (docs/ring.md, "Sampling").
     */
    public static long[] gaussian(Prng prng, int n, double sigma) {
        checkLength(n);
        long[] tails = tailTable(sigma);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = fromUniform(prng.nextLong(), tails);
        return out;
    }

    /** One sample from 64 uniform bits: the high 63 pick |x| from the table, the low one its sign. */
    static long fromUniform(long bits, long[] tails) {
        long r = bits >>> 1;
        long magnitude = 0;
        for (long t : tails) magnitude += (t - r) >>> 63; // 1 exactly when r > t, that is |x| ≥ j
        long sign = -(bits & 1);
        return (magnitude ^ sign) - sign;
    }

    /**
     * Entry j − 1 is 2^63 − 1 − round(2^63·P(|x| ≥ j)) for j = 1 … ⌊6σ⌋, so a uniform r in [0, 2^63) exceeds it with
     * probability P(|x| ≥ j). The tails are summed from the far end, so small probabilities keep their precision.
     */
    static long[] tailTable(double sigma) {
        // a non-positive or non-finite width has no distribution; a huge one a table too long to scan per sample
        if (!(sigma > 0) || !(sigma <= MAX_SIGMA))
            throw new IllegalArgumentException("sigma must be in (0, " + MAX_SIGMA + "]: " + sigma);
        int bound = (int) Math.floor(6 * sigma);
        double[] tail = new double[bound + 2];
        // StrictMath: the same table, so the same noise from the same stream, on every JVM and CPU
        for (int j = bound; j >= 1; j--)
            tail[j] = tail[j + 1] + 2 * StrictMath.exp(-(double) j * j / (2 * sigma * sigma));
        double total = 1 + tail[1];
        long[] table = new long[bound];
        for (int j = 1; j <= bound; j++) table[j - 1] = Long.MAX_VALUE - Math.round(tail[j] / total * 0x1p63);
        return table;
    }

    /** Ternary coefficients: uniform over {−1, 0, 1}, or exactly h nonzero ±1 if the distribution is sparse. */
    public static long[] ternary(Prng prng, int n, SecretDistribution dist) {
        checkLength(n);
        if (dist.hammingWeight() > n)
            throw new IllegalArgumentException(
                    "Hamming weight " + dist.hammingWeight() + " exceeds the " + n + " coefficients");
        long[] out = new long[n];
        if (!dist.sparse()) {
            for (int i = 0; i < n; i++) out[i] = prng.uniform(3) - 1;
        } else {
            sparseTernary(prng, dist.hammingWeight(), out);
        }
        return out;
    }

    /**
     * Exactly h nonzero ±1 (uniform signs) at a uniform h-subset of positions, data-obliviously: every coefficient
     * gets a random 62-bit key, the first h start as ±1 and the rest as 0, and a bitonic sorting network over the keys
     * carries the values along. The compare-exchanges follow a fixed pattern and swap by masks, so no branch and no
     * memory address depends on the secret (a Fisher–Yates shuffle writes at secret positions). Sorting by independent
     * keys applies a uniform permutation (ties, of probability below n²/2^63, only keep an order).
     */
    static void sparseTernary(Prng prng, int h, long[] out) {
        int n = out.length;
        int m = Integer.highestOneBit(Math.max(1, n - 1)) << (n > 1 ? 1 : 0);
        long[] key = new long[m], val = new long[m];
        for (int k = 0; k < n; k++) {
            key[k] = prng.nextLong() >>> 2;
            long sign = 1 - 2 * (prng.nextLong() & 1);
            val[k] = sign & -(long) ((k - h) >>> 31); // ±1 for k < h, 0 after: a mask, not a branch
        }
        for (int k = n; k < m; k++) key[k] = (1L << 62) + k; // padding sorts after every coefficient
        for (int size = 2; size <= m; size <<= 1) {
            for (int half = size >> 1; half > 0; half >>= 1) {
                for (int i = 0; i < m; i++) {
                    int l = i ^ half;
                    if (l <= i) continue; // public indices only
                    long a = key[i], b = key[l];
                    // both below 2^63: b − a is negative exactly when a > b; descending runs swap the other way
                    long greater = (b - a) >> 63, less = (a - b) >> 63;
                    long swap = (i & size) == 0 ? greater : less;
                    long dk = (a ^ b) & swap;
                    key[i] = a ^ dk;
                    key[l] = b ^ dk;
                    long dv = (val[i] ^ val[l]) & swap;
                    val[i] ^= dv;
                    val[l] ^= dv;
                }
            }
        }
        System.arraycopy(val, 0, out, 0, n);
        Arrays.fill(key, 0);
        Arrays.fill(val, 0);
    }

    /** Signed coefficients into a polynomial of {@code ring} at {@code level} (coefficient domain). */
    public static RnsPoly fromSigned(Ring ring, int level, long[] coeffs) {
        checkSigned(coeffs, ring.n());
        RnsPoly p = ring.newPoly(level, Domain.COEFFICIENT);
        LimbKernels kernels = ring.engine().kernels();
        for (int i = 0; i <= level; i++) lift(kernels, coeffs, ring.prime(i), p.limb(i));
        return p;
    }

    /**
     * One limb: out[k] = coeffs[k] mod q in [0, q) for signed coefficients (|c| &lt; 2^63), out as long
     * as coeffs.
     */
    public static void fromSigned(long[] coeffs, long q, long[] out) {
        if (q <= 1 || q >= 1L << 62) throw new IllegalArgumentException("modulus " + q + " outside (1, 2^62)");
        checkSigned(coeffs, out.length);
        lift(SCALAR, coeffs, q, out);
    }

    /** The one-limb form's kernels: no engine at hand, and no calibration started from a pure function. */
    private static final LimbKernels SCALAR = new ScalarLimbKernels();

    /** The engine's lift with w = 1: branch-free, since a noise sample's sign is random (docs/ring.md). */
    private static void lift(LimbKernels kernels, long[] coeffs, long q, long[] out) {
        kernels.liftSigned(coeffs, 1, ModArith.shoupQuotient(1, q), q, out); // |c| mod q = |c|·1 (Shoup)
    }

    private static void checkSigned(long[] coeffs, int n) {
        if (coeffs.length != n) throw new IllegalArgumentException(coeffs.length + " coefficients for " + n);
        for (long c : coeffs) if (c == Long.MIN_VALUE) throw new IllegalArgumentException("coefficient out of range");
    }

    /** Uniform polynomial (each residue uniform), marked as NTT domain: uniform there is uniform anywhere. */
    public static RnsPoly uniformNtt(Prng prng, Ring ring, int level) {
        RnsPoly p = ring.newPoly(level, Domain.NTT);
        fillUniform(prng, ring, p);
        return p;
    }

    public static void fillUniform(Prng prng, Ring ring, RnsPoly p) {
        for (int i = 0; i < p.limbCount(); i++) {
            long q = ring.prime(i);
            long[] l = p.limb(i);
            for (int k = 0; k < l.length; k++) l[k] = prng.uniform(q);
        }
    }

    private static void checkLength(int n) {
        if (n < 0) throw new IllegalArgumentException("coefficient count must be >= 0: " + n);
    }
}
