package io.hoist.bfv;

import io.hoist.math.HeStandard;
import io.hoist.math.Primes;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A BFV parameter set as SEAL defines one: the ring degree N, the coefficient primes at the key level
 * (the last one is the special prime, used by keys only; ciphertexts live on the others) and the
 * plaintext modulus t. Immutable and validating: every prime is an NTT prime for N of at most 60 bits
 * (SEAL's limit), the primes are distinct, t is below every data prime and coprime to them, and the
 * set is 128-bit secure by the same table as CKKS ({@link HeStandard}) unless built with
 * {@link #insecure}.
 */
public final class BfvParameters {
    /** SEAL's limit on a coefficient or plaintext prime. */
    public static final int MAX_PRIME_BITS = 60;

    private static final Map<String, BfvParameters> PRESETS = new LinkedHashMap<>();

    static {
        // SEAL's CoeffModulus::BFVDefault(N) and PlainModulus::Batching(N, 20)
        PRESETS.put("seal4096", of(4096, 1032193, 68719403009L, 68719230977L, 137438822401L));
        PRESETS.put(
                "seal8192",
                of(8192, 1032193, 8796092858369L, 8796092792833L, 17592186028033L, 17592185438209L, 17592184717313L));
        PRESETS.put(
                "seal16384",
                of(
                        16384,
                        786433, // Batching(16384, 20): 1032193 is not ≡ 1 mod 2N = 32768 (the review of 2026-12-07)
                        0xfffffffd8001L,
                        0xfffffffa0001L,
                        0xfffffff00001L,
                        0x1fffffff68001L,
                        0x1fffffff50001L,
                        0x1ffffffee8001L,
                        0x1ffffffea0001L,
                        0x1ffffffe88001L,
                        0x1ffffffe48001L));
        // SEAL-Embedded's style: CoeffModulus::Create(4096, {30, 30, 30}), every prime below 2^31
        PRESETS.put("small4096", of(4096, 1032193, 1073651713L, 1073668097L, 1073692673L));
    }

    private final int logN;
    private final long[] primes;
    private final long t;
    private final boolean secure;

    private BfvParameters(int logN, long t, long[] primes, boolean secure) {
        this.logN = logN;
        this.t = t;
        this.primes = primes;
        this.secure = secure;
    }

    /** A 128-bit secure set; the primes are the key level, the last one the special prime. */
    public static BfvParameters of(int n, long t, long... primes) {
        BfvParameters p = build(n, t, primes);
        if (!p.secure)
            throw new InvalidBfvParametersException("the primes total " + p.totalPrimeBits() + " bits, more than the "
                    + p.maxTotalBits() + " that are 128-bit secure at N = " + n
                    + " (Homomorphic Encryption Standard); use insecure(...) for tests");
        return p;
    }

    /** The same validation without the security bound: for tests on small rings and for studies. */
    public static BfvParameters insecure(int n, long t, long... primes) {
        return build(n, t, primes);
    }

    private static BfvParameters build(int n, long t, long[] primesIn) {
        if (n < 16 || n > 1 << 17 || Integer.bitCount(n) != 1)
            throw new InvalidBfvParametersException("N must be a power of two in [16, 2^17]: " + n);
        int logN = Integer.numberOfTrailingZeros(n);
        if (primesIn == null || primesIn.length < 2 || primesIn.length > 64)
            throw new InvalidBfvParametersException(
                    "need 2 to 64 coefficient primes (the last is the special prime), got "
                            + (primesIn == null ? 0 : primesIn.length));
        long[] primes = primesIn.clone();
        for (int j = 0; j < primes.length; j++) {
            long q = primes[j];
            if (q < 3 || 64 - Long.numberOfLeadingZeros(q) > MAX_PRIME_BITS)
                throw new InvalidBfvParametersException(
                        "q_" + j + " = " + q + " is not in [3, 2^" + MAX_PRIME_BITS + ")");
            if (q % (2L * n) != 1)
                throw new InvalidBfvParametersException("q_" + j + " = " + q + " is not ≡ 1 mod 2N = " + 2L * n);
            if (!Primes.isPrime(q)) throw new InvalidBfvParametersException("q_" + j + " = " + q + " is not prime");
            for (int i = 0; i < j; i++)
                if (primes[i] == q)
                    throw new InvalidBfvParametersException("q_" + i + " and q_" + j + " are equal: " + q);
        }
        if (t < 2 || 64 - Long.numberOfLeadingZeros(t) > MAX_PRIME_BITS)
            throw new InvalidBfvParametersException("t = " + t + " is not in [2, 2^" + MAX_PRIME_BITS + ")");
        for (int j = 0; j < primes.length; j++)
            if (primes[j] % t == 0 || t % primes[j] == 0)
                throw new InvalidBfvParametersException(
                        "t = " + t + " shares a factor with q_" + j + " = " + primes[j]);
        for (int j = 0; j < primes.length - 1; j++)
            if (t >= primes[j])
                throw new InvalidBfvParametersException(
                        "t = " + t + " is not below the data prime q_" + j + " = " + primes[j]);
        BfvParameters probe = new BfvParameters(logN, t, primes, false);
        return new BfvParameters(logN, t, primes, probe.totalPrimeBits() <= probe.maxTotalBits());
    }

    /** A preset by name: {@code seal4096}, {@code seal8192}, {@code seal16384}, {@code small4096}. */
    public static BfvParameters preset(String name) {
        BfvParameters p = PRESETS.get(name);
        if (p == null)
            throw new InvalidBfvParametersException("unknown BFV preset '" + name + "'; known: " + presetNames());
        return p;
    }

    public static List<String> presetNames() {
        return List.copyOf(PRESETS.keySet());
    }

    public int n() {
        return 1 << logN;
    }

    public int logN() {
        return logN;
    }

    public long t() {
        return t;
    }

    /** All primes, the special prime last (a copy). */
    public long[] keyPrimes() {
        return primes.clone();
    }

    /** The primes ciphertexts live on: all but the special prime (a copy). */
    public long[] dataPrimes() {
        return Arrays.copyOf(primes, primes.length - 1);
    }

    public long prime(int j) {
        if (j < 0 || j >= primes.length)
            throw new BfvOperandException("prime " + j + " does not exist: the key level has " + primes.length);
        return primes[j];
    }

    public int keyLevelSize() {
        return primes.length;
    }

    public int dataLevelSize() {
        return primes.length - 1;
    }

    /** Sum of the primes' bit sizes, as SEAL counts a coefficient modulus against the bound. */
    public int totalPrimeBits() {
        int b = 0;
        for (long q : primes) b += 64 - Long.numberOfLeadingZeros(q);
        return b;
    }

    /** The 128-bit bound on {@link #totalPrimeBits()} at this N. */
    public int maxTotalBits() {
        return HeStandard.maxLogQ(logN);
    }

    public boolean secure() {
        return secure;
    }

    /** Whether t is a prime ≡ 1 mod 2N, so the slots of {@link BatchEncoder} exist. */
    public boolean batching() {
        return t % (2L << logN) == 1 && Primes.isPrime(t);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BfvParameters p && p.logN == logN && p.t == t && Arrays.equals(p.primes, primes);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * logN + Long.hashCode(t)) + Arrays.hashCode(primes);
    }

    @Override
    public String toString() {
        return "BFV N=" + n() + " q=" + Arrays.toString(primes) + " (" + totalPrimeBits() + " bits) t=" + t
                + (secure ? "" : " NOT SECURE");
    }
}
