package io.hoist.math;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** NTT-friendly primes and primitive roots, deterministic and reproducible. */
public final class Primes {
    private Primes() {}

    /** Bases that make Miller–Rabin deterministic for every n &lt; 3.3·10^24, hence all 64-bit n. */
    private static final long[] MR_BASES = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};

    /** Deterministic primality test for 1 &lt; n &lt; 2^62. */
    public static boolean isPrime(long n) {
        if (n < 2) return false;
        for (long p : MR_BASES) {
            if (n == p) return true;
            if (n % p == 0) return false;
        }
        if (64 - Long.numberOfLeadingZeros(n) > ModArith.MAX_BITS) {
            throw new IllegalArgumentException("primality test supports n < 2^" + ModArith.MAX_BITS + ": " + n);
        }
        long muHi = ModArith.barrettHi(n), muLo = ModArith.barrettLo(n);
        long d = n - 1;
        int s = Long.numberOfTrailingZeros(d);
        d >>>= s;
        outer:
        for (long a : MR_BASES) {
            long x = 1, b = a, e = d;
            while (e != 0) {
                if ((e & 1) != 0) x = ModArith.mulMod(x, b, n, muHi, muLo);
                b = ModArith.mulMod(b, b, n, muHi, muLo);
                e >>>= 1;
            }
            if (x == 1 || x == n - 1) continue;
            for (int r = 1; r < s; r++) {
                x = ModArith.mulMod(x, x, n, muHi, muLo);
                if (x == n - 1) continue outer;
            }
            return false;
        }
        return true;
    }

    /**
     * The {@code count} largest primes q &lt; 2^bits with q ≡ 1 (mod 2N) and exactly {@code bits} bits,
     * skipping any in {@code exclude}; in decreasing order.
     */
    public static List<Long> nttPrimes(int logN, int bits, int count, Collection<Long> exclude) {
        checkSize(logN, bits);
        if (count < 0) throw new IllegalArgumentException("prime count must be >= 0: " + count);
        long step = 2L << logN;
        long lowest = 1L << (bits - 1);
        List<Long> out = new ArrayList<>(Math.min(count, 64));
        for (long c = (1L << bits) - step + 1; c > lowest && out.size() < count; c -= step) {
            if (!exclude.contains(c) && isPrime(c)) out.add(c);
        }
        if (out.size() < count) {
            throw new IllegalArgumentException("only " + out.size() + " primes of " + bits + " bits are ≡ 1 mod 2^"
                    + (logN + 1) + "; asked for " + count);
        }
        return out;
    }

    /**
     * How many of the primes {@link #nttPrimes} would return exist, up to {@code limit}: the count
     * asked for when there are enough, fewer when the size runs out.
     */
    public static int nttPrimeCount(int logN, int bits, int limit, Collection<Long> exclude) {
        checkSize(logN, bits);
        long step = 2L << logN;
        long lowest = 1L << (bits - 1);
        int found = 0;
        for (long c = (1L << bits) - step + 1; c > lowest && found < limit; c -= step) {
            if (!exclude.contains(c) && isPrime(c)) found++;
        }
        return found;
    }

    public static List<Long> nttPrimes(int logN, int bits, int count) {
        return nttPrimes(logN, bits, count, List.of());
    }

    /** The smallest primitive 2N-th root of unity ψ mod q (ψ^N ≡ -1), for prime q ≡ 1 mod 2N. */
    public static long primitiveRoot2N(int logN, long q) {
        long twoN = 2L << logN;
        if (q % twoN != 1) throw new IllegalArgumentException("q=" + q + " is not ≡ 1 mod 2N=" + twoN);
        long exp = (q - 1) / twoN;
        long best = -1;
        for (long x = 2; x < q; x++) {
            long psi = ModArith.powMod(x, exp, q);
            if (ModArith.powMod(psi, twoN >>> 1, q) == q - 1) {
                // every primitive 2N-th root is psi^odd; take the smallest for reproducibility
                long muHi = ModArith.barrettHi(q), muLo = ModArith.barrettLo(q);
                long psi2 = ModArith.mulMod(psi, psi, q, muHi, muLo);
                long cur = psi;
                best = psi;
                for (long k = 1; k < twoN; k += 2) {
                    if (cur < best) best = cur;
                    cur = ModArith.mulMod(cur, psi2, q, muHi, muLo);
                }
                return best;
            }
        }
        throw new IllegalArgumentException("no primitive 2N-th root modulo " + q);
    }

    private static void checkSize(int logN, int bits) {
        if (logN < 1 || logN > 20) throw new IllegalArgumentException("logN out of range [1, 20]: " + logN);
        if (bits < logN + 2 || bits > ModArith.MAX_BITS) {
            throw new IllegalArgumentException(
                    "prime size must be in [" + (logN + 2) + ", " + ModArith.MAX_BITS + "] bits: " + bits);
        }
    }
}
