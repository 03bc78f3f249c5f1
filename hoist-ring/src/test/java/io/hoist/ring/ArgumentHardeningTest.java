package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.math.ModArith;
import io.hoist.math.Modulus;
import io.hoist.math.Primes;
import io.hoist.random.Prng;
import java.math.BigInteger;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Arguments a caller can pass wrong to the ring layer's public methods: refused with an exception naming them, never
 * a wrong value, a hang, an allocation sized by the argument or an index error (forty-eighth session's review).
 */
class ArgumentHardeningTest {
    private static final Ring RING = new Ring(
            4,
            Primes.nttPrimes(4, 30, 2, List.of()).stream()
                    .mapToLong(Long::longValue)
                    .toArray());

    @Test
    void aModulusRefusesReductionConstantsOfAnotherModulus() {
        Modulus m = Modulus.of(97);
        assertEquals(75, m.mul(50, 50));
        assertEquals(m, new Modulus(97, m.muHi(), m.muLo()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Modulus(97, 0, 0));
        assertTrue(e.getMessage().contains("Modulus.of"), e.getMessage());
    }

    @Test
    void aNegativeExponentIsRefusedNotReadAsUnsigned() {
        assertEquals(65, Modulus.of(97).pow(3, 95)); // 3^-1 by Fermat
        assertThrows(IllegalArgumentException.class, () -> Modulus.of(97).pow(3, -1));
        assertThrows(IllegalArgumentException.class, () -> ModArith.powMod(3, -1, 97));
    }

    @Test
    void primeSearchesCheckTheirSizeAndCountBeforeLooping() {
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            assertThrows(IllegalArgumentException.class, () -> Primes.nttPrimeCount(10, 64, 1, List.of()));
            assertThrows(IllegalArgumentException.class, () -> Primes.nttPrimeCount(0, 40, 1, List.of()));
            assertThrows(IllegalArgumentException.class, () -> Primes.nttPrimes(10, 40, -1, List.of()));
            // a huge count is not an allocation: the search ends when the primes of that size run out
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> Primes.nttPrimes(10, 20, Integer.MAX_VALUE - 8, List.of()));
            assertTrue(e.getMessage().startsWith("only "), e.getMessage());
        });
    }

    @Test
    void indicesOfPrimesLimbsAndCoefficientsAreChecked() {
        assertThrows(RingMismatchException.class, () -> RING.prime(2));
        assertThrows(RingMismatchException.class, () -> RING.modulus(-1));
        assertThrows(RingMismatchException.class, () -> RING.tables(9));
        RnsPoly p = RING.newPoly(1, Domain.COEFFICIENT);
        assertThrows(RingMismatchException.class, () -> p.limb(2));
        assertThrows(RingMismatchException.class, () -> p.setCoefficient(16, 1));
        assertThrows(RingMismatchException.class, () -> p.setCoefficient(-1, BigInteger.ONE));
        assertThrows(RingMismatchException.class, () -> p.coefficient(16));
        p.setCoefficient(15, -1);
        assertEquals(RING.basis().product().subtract(BigInteger.ONE), p.coefficient(15));
        assertThrows(IllegalArgumentException.class, () -> RING.basis().prefix(3));
        assertThrows(IllegalArgumentException.class, () -> RING.basis().prefix(0));
        NttTables[] one = {RING.tables(0)};
        assertThrows(IllegalArgumentException.class, () -> RING.engine().forward(p.limbs(), one, 2));
    }

    @Test
    void automorphismsCheckTheirDegreeAndLimbLengths() {
        assertThrows(IllegalArgumentException.class, () -> Automorphism.nttPermutation(31, 5));
        long q = RING.prime(0);
        assertThrows(
                RingMismatchException.class, () -> Automorphism.applyCoefficient(new long[32], new long[16], 5, q, 4));
        assertThrows(
                RingMismatchException.class, () -> Automorphism.applyCoefficient(new long[16], new long[8], 5, q, 4));
        NttPermutation perm = Automorphism.nttPermutation(4, 5);
        assertThrows(RingMismatchException.class, () -> Automorphism.applyNtt(new long[16], new long[8], perm));
        assertThrows(
                RingMismatchException.class,
                () -> Automorphism.applyNttAdd(new long[16], new long[8], new long[16], perm, q, false));
    }

    @Test
    void deterministicTestSeedsNeedTheirSystemProperty() throws Exception {
        String was = System.getProperty(Prng.TEST_SEEDS_PROPERTY);
        try {
            System.clearProperty(Prng.TEST_SEEDS_PROPERTY);
            IllegalStateException e =
                    assertThrows(IllegalStateException.class, () -> Prng.insecureDeterministicSeedsForTesting(1));
            assertTrue(e.getMessage().contains(Prng.TEST_SEEDS_PROPERTY), e.getMessage());
            System.setProperty(Prng.TEST_SEEDS_PROPERTY, "true");
            byte[] a, b;
            try (AutoCloseable s = Prng.insecureDeterministicSeedsForTesting(1)) {
                a = Prng.newSeed();
            }
            try (AutoCloseable s = Prng.insecureDeterministicSeedsForTesting(1)) {
                b = Prng.newSeed();
            }
            assertEquals(HexFormat.of().formatHex(a), HexFormat.of().formatHex(b));
        } finally {
            if (was == null) System.clearProperty(Prng.TEST_SEEDS_PROPERTY);
            else System.setProperty(Prng.TEST_SEEDS_PROPERTY, was);
        }
    }
}
