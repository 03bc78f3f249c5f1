package io.hoist.ckks;

import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/** The prime supply of a parameter set: sizes checked against the NTT primes that exist, then primes generated. */
final class PrimeSupply {
    private PrimeSupply() {}

    /**
     * Every prime size asked for ({@code logQ}, {@code logP}: null where primes are explicit), checked
     * in range and against how many such primes exist, before any is generated.
     */
    static void check(int logN, int[] logQ, int[] logP, Set<Long> explicit) {
        TreeMap<Integer, Integer> need = new TreeMap<>();
        if (logQ != null) for (int b : logQ) need.merge(b, 1, Integer::sum);
        if (logP != null) for (int b : logP) need.merge(b, 1, Integer::sum);
        for (var e : need.entrySet()) {
            int bits = e.getKey();
            if (bits < logN + 2 || bits > ModArith.MAX_BITS) {
                throw new InvalidParametersException(
                        "a prime of " + bits + " bits cannot serve N = 2^" + logN + ": prime sizes must be in ["
                                + (logN + 2) + ", " + ModArith.MAX_BITS + "] bits (q ≡ 1 mod 2N)");
            }
            int have = Primes.nttPrimeCount(logN, bits, e.getValue(), explicit);
            if (have < e.getValue()) {
                throw new InvalidParametersException(
                        "the prime sizes ask for " + e.getValue() + " distinct primes of " + bits
                                + " bits, but only " + have + " such primes are ≡ 1 mod 2N = 2^" + (logN + 1)
                                + (explicit.isEmpty() ? "" : " (apart from the explicit ones)")
                                + "; use larger primes or fewer of them");
            }
        }
    }

    /** One fresh NTT prime of each size in {@code bits}, none of them in {@code used} (which grows). */
    static long[] generate(int logN, int[] bits, Set<Long> used) {
        List<Long> out = new ArrayList<>();
        for (int b : bits) {
            long prime = Primes.nttPrimes(logN, b, 1, used).get(0);
            used.add(prime);
            out.add(prime);
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
