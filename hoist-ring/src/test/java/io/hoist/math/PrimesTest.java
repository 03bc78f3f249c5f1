package io.hoist.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrimesTest {

    @ParameterizedTest
    @CsvSource({"10,30,8", "12,50,8", "16,59,6", "16,61,6", "17,60,4", "13,62,3", "10,20,5"})
    void nttPrimesArePrimeDistinctOfSizeAndNttFriendly(int logN, int bits, int count) {
        List<Long> ps = Primes.nttPrimes(logN, bits, count);
        assertEquals(count, ps.size());
        assertEquals(count, new HashSet<>(ps).size(), "distinct");
        long twoN = 2L << logN;
        long prev = Long.MAX_VALUE;
        for (long q : ps) {
            assertTrue(BigInteger.valueOf(q).isProbablePrime(80), q + " prime");
            assertEquals(1, q % twoN, q + " ≡ 1 mod 2N");
            assertEquals(bits, 64 - Long.numberOfLeadingZeros(q), q + " has the requested size");
            assertTrue(q < prev, "decreasing, nearest below 2^bits first");
            prev = q;
            long psi = Primes.primitiveRoot2N(logN, q);
            assertEquals(q - 1, ModArith.powMod(psi, twoN / 2, q), "ψ^N = −1");
        }
        // nearest below 2^bits: no NTT prime between the first one and 2^bits
        for (long c = ps.get(0) + twoN; c < (1L << bits); c += twoN) assertFalse(Primes.isPrime(c));
        assertEquals(ps, Primes.nttPrimes(logN, bits, count), "reproducible");
    }

    @Test
    void excludedPrimesAreSkipped() {
        List<Long> first = Primes.nttPrimes(12, 40, 3);
        List<Long> next = Primes.nttPrimes(12, 40, 3, first);
        for (long p : next) assertFalse(first.contains(p));
    }

    @Test
    void millerRabinAgreesWithBigInteger() {
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 20000; i++) {
            long n = r.nextLong(1L << 62);
            if (i < 1000) n = i;
            assertEquals(BigInteger.valueOf(n).isProbablePrime(100), Primes.isPrime(n), "n=" + n);
        }
        // strong pseudoprimes to several bases
        for (long n : new long[] {
            2047, 1373653, 25326001, 3215031751L, 2152302898747L, 3474749660383L, 341550071728321L, 3825123056546413051L
        }) {
            assertFalse(Primes.isPrime(n), n + " is composite");
        }
    }

    @Test
    void smallestPrimitiveRootOfSpecExample() {
        assertEquals(3, Primes.primitiveRoot2N(3, 17));
    }

    @Test
    void badArgumentsAreNamed() {
        assertThrows(IllegalArgumentException.class, () -> Primes.nttPrimes(16, 63, 1));
        assertThrows(IllegalArgumentException.class, () -> Primes.nttPrimes(16, 20, 1000));
        assertThrows(IllegalArgumentException.class, () -> Primes.primitiveRoot2N(4, 19));
    }
}
