package io.hoist.ring;

import io.hoist.math.ModArith;
import io.hoist.math.Primes;

/**
 * The negacyclic NTT of {@link NttTables} (slot t = a(ψ^(2·brev(t)+1)), the same minimal ψ, the same
 * bit-reversed order as SEAL and Lattigo) written for secret data and small memory: no branch, no
 * division and no table index depends on a coefficient (every conditional subtraction is a mask
 * from a sign bit), and it keeps only the forward twiddles and their Shoup quotients, 16·N bytes per
 * prime against {@link NttTables}'s 32·N.
 *
 * <p>The inverse is the transpose of the forward network: with B_t = A_(N−1−t) (ψ^-(2b+1) =
 * ψ^(2(N−1−b)+1)), a = N^-1 · Mᵀ·B, and Mᵀ runs the forward stages backwards as Gentleman–Sande
 * butterflies with the forward twiddles (docs/bfv.md). Primes below 2^61, so 4q and every lazy value
 * is a non-negative long. Immutable; safe to share between threads.
 */
public final class ConstantTimeNtt {
    /** Largest prime size: lazy values stay below 4q &lt; 2^63. */
    public static final int MAX_BITS = 61;

    private static final String NAME = "constant-time";

    private final int logN;
    private final int n;
    private final long q;
    private final long[] w; // ψ^brev(k)
    private final long[] ws; // Shoup quotients
    private final long nInv;
    private final long nInvShoup;

    private ConstantTimeNtt(int logN, long q) {
        this.logN = logN;
        this.n = 1 << logN;
        this.q = q;
        long psi = Primes.primitiveRoot2N(logN, q);
        w = new long[n];
        ws = new long[n];
        long muHi = ModArith.barrettHi(q), muLo = ModArith.barrettLo(q);
        long pw = 1;
        for (int i = 0; i < n; i++) {
            w[Integer.reverse(i) >>> (32 - logN)] = pw;
            pw = ModArith.mulMod(pw, psi, q, muHi, muLo);
        }
        if (logN == 0) w[0] = 1;
        for (int i = 0; i < n; i++) ws[i] = ModArith.shoupQuotient(w[i], q);
        nInv = ModArith.invMod(n, q);
        nInvShoup = ModArith.shoupQuotient(nInv, q);
    }

    /** Tables for degree 2^logN modulo the NTT prime q &lt; 2^61 (q ≡ 1 mod 2N). */
    public static ConstantTimeNtt of(int logN, long q) {
        if (logN < 1 || logN > NttTables.MAX_LOG_N)
            throw new UnsupportedPrimeException(NAME, q, logN, "logN must be in [1, " + NttTables.MAX_LOG_N + "]");
        if (q <= 2 || 64 - Long.numberOfLeadingZeros(q) > MAX_BITS)
            throw new UnsupportedPrimeException(NAME, q, logN, "primes of at most " + MAX_BITS + " bits");
        if (q % (2L << logN) != 1 || !Primes.isPrime(q))
            throw new UnsupportedPrimeException(NAME, q, logN, "not a prime ≡ 1 mod 2N");
        return new ConstantTimeNtt(logN, q);
    }

    public int n() {
        return n;
    }

    public int logN() {
        return logN;
    }

    public long q() {
        return q;
    }

    /** Bytes of the twiddle tables this instance holds. */
    public long tableBytes() {
        return 16L * n;
    }

    /** x − m if x ≥ m, else x, for 0 ≤ x &lt; 2m &lt; 2^63: a mask from the sign, no branch. */
    static long reduceOnce(long x, long m) {
        long d = x - m;
        return d + (m & (d >> 63));
    }

    /** Forward NTT of {@code a[0..n)} in place: input in [0, q), output in [0, q). */
    public void forward(long[] a) {
        check(a);
        final long twoQ = q << 1;
        for (int m = 1, t = n >>> 1; m < n; m <<= 1, t >>>= 1) {
            for (int i = 0; i < m; i++) {
                final long wi = w[m + i], wsi = ws[m + i];
                final int j1 = 2 * i * t, j2 = j1 + t;
                for (int j = j1; j < j2; j++) {
                    long u = reduceOnce(a[j], twoQ);
                    long v = ModArith.mulShoupLazy(a[j + t], wi, wsi, q);
                    a[j] = u + v;
                    a[j + t] = u - v + twoQ;
                }
            }
        }
        for (int j = 0; j < n; j++) a[j] = reduceOnce(reduceOnce(a[j], twoQ), q);
    }

    /** Inverse NTT of {@code a[0..n)} in place: input in [0, q), output in [0, q). */
    public void inverse(long[] a) {
        check(a);
        final long twoQ = q << 1;
        for (int i = 0, j = n - 1; i < j; i++, j--) {
            long x = a[i];
            a[i] = a[j];
            a[j] = x;
        }
        for (int m = n >>> 1, t = 1; m >= 1; m >>>= 1, t <<= 1) {
            for (int i = 0; i < m; i++) {
                final long wi = w[m + i], wsi = ws[m + i];
                final int j1 = 2 * i * t, j2 = j1 + t;
                for (int j = j1; j < j2; j++) {
                    long u = a[j], v = a[j + t];
                    a[j] = reduceOnce(u + v, twoQ);
                    a[j + t] = ModArith.mulShoupLazy(u - v + twoQ, wi, wsi, q);
                }
            }
        }
        for (int j = 0; j < n; j++) a[j] = reduceOnce(ModArith.mulShoupLazy(a[j], nInv, nInvShoup, q), q);
    }

    private void check(long[] a) {
        if (a.length < n) throw new RingMismatchException("limb of " + a.length + " words for N = " + n);
    }
}
