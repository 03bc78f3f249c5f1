package io.hoist.math;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ModArithTest {
    private static final long[] MODULI = {
        3,
        17,
        65537,
        (1L << 30) - 35,
        0x3FFFFFFFFFFFFFFFL - 56,
        Primes.nttPrimes(10, 61, 1).get(0),
        Primes.nttPrimes(10, 62, 1).get(0),
        Primes.nttPrimes(12, 50, 1).get(0),
        1_000_000_007L
    };

    @Test
    void mulModMatchesBigIntegerIncludingEdges() {
        SplittableRandom r = new SplittableRandom(7);
        for (long q : MODULI) {
            if ((q & 1) == 0) continue;
            Modulus m = Modulus.of(q);
            long[] edges = {0, 1, q - 1, q - 2, q >>> 1, (q >>> 1) + 1};
            for (long a : edges)
                for (long b : edges) assertEquals(ModArith.mulModSlow(a, b, q), m.mul(a, b), a + "*" + b + " mod " + q);
            for (int i = 0; i < 20000; i++) {
                long a = r.nextLong(q), b = r.nextLong(q);
                assertEquals(ModArith.mulModSlow(a, b, q), m.mul(a, b), a + "*" + b + " mod " + q);
            }
        }
    }

    /** Odd moduli of every size from 2 to 62 bits (seeded), each with edge and random operands. */
    static Stream<Long> oddModuliOfEverySize() {
        SplittableRandom r = new SplittableRandom(61);
        Stream.Builder<Long> b = Stream.builder();
        for (long q : MODULI) b.add(q);
        for (int bits = 2; bits <= ModArith.MAX_BITS; bits++) {
            long lo = 1L << (bits - 1), top = bits == 2 ? 3 : (1L << bits) - 1;
            b.add(top); // all ones: the largest odd modulus of this size
            b.add(lo + 1);
            b.add((lo + r.nextLong(lo)) | 1);
        }
        return b.build().distinct();
    }

    @ParameterizedTest
    @MethodSource("oddModuliOfEverySize")
    void barrettShoupQuotientIsTheBitLoopsAndBigIntegers(long q) {
        Modulus m = Modulus.of(q);
        BigInteger bq = BigInteger.valueOf(q);
        SplittableRandom r = new SplittableRandom(q);
        long[] edges = {0, 1, 2 % q, q - 1, q - 2 < 0 ? 0 : q - 2, q >>> 1, (q >>> 1) + 1 < q ? (q >>> 1) + 1 : 0};
        for (int i = 0; i < edges.length + 2000; i++) {
            long w = i < edges.length ? edges[i] : r.nextLong(q);
            long want = BigInteger.valueOf(w).shiftLeft(64).divide(bq).longValue();
            assertEquals(want, ModArith.shoupQuotient(w, q), "bit loop, w = " + w + ", q = " + q);
            assertEquals(want, m.shoupQuotient(w), "Barrett, w = " + w + ", q = " + q);
        }
        assertThrows(IllegalArgumentException.class, () -> m.shoupQuotient(q));
        assertThrows(IllegalArgumentException.class, () -> m.shoupQuotient(-1));
    }

    /** floor(2^128 / q) in two words against BigInteger, for odd moduli of every size and the largest longs. */
    @ParameterizedTest
    @MethodSource("oddModuliOfEverySize")
    void barrettConstantsAreTheBigIntegerQuotient(long q) {
        for (long m : new long[] {q, Long.MAX_VALUE - 2 * (q % 1000), Long.MAX_VALUE}) {
            BigInteger mu = BigInteger.ONE.shiftLeft(128).divide(BigInteger.valueOf(m));
            assertEquals(mu.shiftRight(64).longValue(), ModArith.barrettHi(m), "high word, q = " + m);
            assertEquals(mu.longValue(), ModArith.barrettLo(m), "low word, q = " + m);
        }
        assertThrows(IllegalArgumentException.class, () -> ModArith.barrettHi(q + 1), "even");
    }

    /** Inverses by the extended Euclidean algorithm against BigInteger.modInverse, and a shared factor refused. */
    @ParameterizedTest
    @MethodSource("oddModuliOfEverySize")
    void invModIsBigIntegersModInverse(long q) {
        SplittableRandom r = new SplittableRandom(q ^ 7);
        BigInteger bq = BigInteger.valueOf(q);
        for (int i = 0; i < 200; i++) {
            long a = i < 3 ? new long[] {1, q - 1, -1}[i] : r.nextLong();
            BigInteger ba = new BigInteger(Long.toUnsignedString(a));
            if (!ba.gcd(bq).equals(BigInteger.ONE)) {
                long shared = a;
                assertThrows(ArithmeticException.class, () -> ModArith.invMod(shared, q), a + " mod " + q);
                continue;
            }
            assertEquals(ba.modInverse(bq).longValue(), ModArith.invMod(a, q), a + " mod " + q);
        }
        assertThrows(ArithmeticException.class, () -> ModArith.invMod(3 * q, q), "a multiple of q");
    }

    /** The same at 63 bits, beyond the kernels' moduli: the largest long and a prime below it. */
    @Test
    void invModAtSixtyThreeBits() {
        SplittableRandom r = new SplittableRandom(63);
        for (long q : new long[] {Long.MAX_VALUE, Long.MAX_VALUE - 24}) { // 2^63 − 25 is prime
            BigInteger bq = BigInteger.valueOf(q);
            for (int i = 0; i < 500; i++) {
                long a = r.nextLong(1, q);
                if (!BigInteger.valueOf(a).gcd(bq).equals(BigInteger.ONE)) continue;
                assertEquals(BigInteger.valueOf(a).modInverse(bq).longValue(), ModArith.invMod(a, q), a + " mod " + q);
            }
        }
        assertTrue(BigInteger.valueOf(Long.MAX_VALUE - 24).isProbablePrime(50));
        assertThrows(IllegalArgumentException.class, () -> ModArith.invMod(3, 1));
    }

    @Test
    void reduce128HandlesSumsOfSixteenProducts() {
        SplittableRandom r = new SplittableRandom(8);
        long q = Primes.nttPrimes(10, 62, 1).get(0);
        Modulus m = Modulus.of(q);
        BigInteger two64 = BigInteger.ONE.shiftLeft(64);
        for (int trial = 0; trial < 2000; trial++) {
            BigInteger sum = BigInteger.ZERO;
            for (int i = 0; i < 16; i++) {
                long a = trial == 0 ? q - 1 : r.nextLong(q), b = trial == 0 ? q - 1 : r.nextLong(q);
                sum = sum.add(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)));
            }
            assertTrue(sum.bitLength() <= 128);
            long hi = sum.shiftRight(64).longValue(), lo = sum.mod(two64).longValue();
            assertEquals(sum.mod(BigInteger.valueOf(q)).longValue(), m.reduce(hi, lo));
        }
    }

    @Test
    void shoupMatchesSlowProductForAnyWordInput() {
        SplittableRandom r = new SplittableRandom(9);
        for (long q : MODULI) {
            for (int i = 0; i < 5000; i++) {
                long w = i == 0 ? q - 1 : r.nextLong(q);
                long ws = ModArith.shoupQuotient(w, q);
                assertEquals(
                        BigInteger.valueOf(w)
                                .shiftLeft(64)
                                .divide(BigInteger.valueOf(q))
                                .longValue(),
                        ws);
                long x = i < 2 ? -1L : r.nextLong(); // any unsigned 64-bit input, including 2^64 − 1
                long lazy = ModArith.mulShoupLazy(x, w, ws, q);
                BigInteger want = new BigInteger(Long.toUnsignedString(x))
                        .multiply(BigInteger.valueOf(w))
                        .mod(BigInteger.valueOf(q));
                assertTrue(Long.compareUnsigned(lazy, 2 * q) < 0, "lazy Shoup result not below 2q");
                assertEquals(want.longValue(), lazy % q == lazy ? lazy : lazy - q);
                assertEquals(want.longValue(), ModArith.mulShoup(x, w, ws, q));
            }
        }
    }

    @Test
    void subIfAtLeastIsTheUnsignedConditionalSubtraction() {
        long[] edges = {0, 1, 2, Long.MAX_VALUE - 1, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, -2, -1};
        SplittableRandom r = new SplittableRandom(31);
        long[] xs = new long[edges.length + 4000];
        System.arraycopy(edges, 0, xs, 0, edges.length);
        for (int i = edges.length; i < xs.length; i++) xs[i] = r.nextLong() >>> r.nextInt(64);
        for (int i = 0; i < xs.length; i++) {
            long x = xs[i];
            for (long m : new long[] {xs[(i * 7 + 3) % xs.length], x, x + 1, x - 1, edges[i % edges.length]}) {
                long want = Long.compareUnsigned(x, m) >= 0 ? x - m : x;
                assertEquals(
                        want, ModArith.subIfAtLeast(x, m), Long.toUnsignedString(x) + " − " + Long.toUnsignedString(m));
            }
        }
    }

    @Test
    void powInvAndCentered() {
        long q = 65537;
        assertEquals(1, ModArith.powMod(3, q - 1, q));
        assertEquals(1, ModArith.mulModSlow(ModArith.invMod(12345, q), 12345, q));
        assertThrows(ArithmeticException.class, () -> ModArith.invMod(q, q));
        assertEquals(-1, ModArith.centered(q - 1, q));
        assertEquals(5, ModArith.centered(5, q));
    }

    @Test
    void modulusRejectsBadValues() {
        assertThrows(IllegalArgumentException.class, () -> Modulus.of(4));
        assertThrows(IllegalArgumentException.class, () -> Modulus.of(1L << 62 | 1));
    }
}
