package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The error width is part of the security decision, and prime sizes are refused with the true reason. */
class ParametersHardeningTest {
    private static CkksParameters.Builder n13() {
        return CkksParameters.builder().logN(13).logQ(50, 40, 40).logP(60).scale(0x1p40);
    }

    @ParameterizedTest
    @ValueSource(doubles = {1e-6, 0.5, 3.0, 3.18, 6.5, 100})
    void anErrorWidthOutsideTheStandardsRangeIsInsecure(double sigma) {
        InsecureParametersException e = assertThrows(
                InsecureParametersException.class, () -> n13().sigma(sigma).build());
        assertTrue(e.getMessage().contains("σ = " + sigma), e.getMessage());
        CkksParameters p = n13().sigma(sigma).allowInsecure().build();
        assertFalse(p.secure());
        assertTrue(p.securityLabel().startsWith("NOT SECURE (σ"), p.securityLabel());
    }

    @ParameterizedTest
    @ValueSource(doubles = {3.19, 3.2, 6.4})
    void theStandardsErrorWidthKeepsTheLabel(double sigma) {
        assertTrue(n13().sigma(sigma).build().secure());
    }

    @ParameterizedTest
    @ValueSource(doubles = {Double.POSITIVE_INFINITY, Double.NaN, 0, -3.2, 1024.5})
    void aNonFiniteNonPositiveOrHugeErrorWidthIsRefusedEvenWhenInsecureIsAllowed(double sigma) {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> n13().sigma(sigma).allowInsecure().build());
        assertTrue(e.getMessage().startsWith("sigma must be in (0, 1024.0]"), e.getMessage());
    }

    @Test
    void tooFewPrimesOfOneSizeAreNamedWithTheirTrueCount() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> CkksParameters.builder()
                        .logN(13)
                        .logQ(new int[] {20, 20, 20, 20, 20, 20})
                        .logP(60)
                        .allowInsecure()
                        .build());
        assertTrue(e.getMessage().contains("ask for 6 distinct primes of 20 bits, but only 5"), e.getMessage());
        IllegalArgumentException small = assertThrows(
                IllegalArgumentException.class,
                () -> CkksParameters.builder()
                        .logN(13)
                        .logQ(0)
                        .logP(60)
                        .allowInsecure()
                        .build());
        assertTrue(small.getMessage().contains("a prime of 0 bits cannot serve N = 2^13"), small.getMessage());
    }

    @Test
    void primesAreTheSameAsBeforeTheSupplyCheck() {
        // the preset's primes are a format fingerprint input: the check must not change which primes are drawn
        CkksParameters p = CkksParameters.preset("n13");
        assertEquals(4, p.qCount() + p.alpha());
        assertEquals(
                p,
                CkksParameters.builder()
                        .name("n13")
                        .logN(13)
                        .qPrimes(p.qPrimes())
                        .pPrimes(p.pPrimes())
                        .scale(0x1p40)
                        .build());
    }

    @Test
    void publicEntryPointsNameANullArgument() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> CkksContext.create(null));
        assertEquals("params is null", e.getMessage());
        assertThrows(NullPointerException.class, () -> CkksParameters.preset(null));
        CkksContext ctx = CkksContext.create(n13().build());
        assertEquals(
                "values is null",
                assertThrows(NullPointerException.class, () -> new Encoder(ctx).encode((ComplexVector) null, 2, 0x1p40))
                        .getMessage());
        assertEquals(
                "a is null",
                assertThrows(NullPointerException.class, () -> new Evaluator(ctx).rescale(null))
                        .getMessage());
    }

    @Test
    void qpPrimesAreTheLevelsQPrimesThenThePPrimesInAFreshArray() {
        CkksParameters p = CkksParameters.preset("n13");
        long[] q = p.qPrimes(), sp = p.pPrimes();
        assertArrayEquals(new long[] {q[0], q[1], sp[0]}, p.qpPrimes(1));
        assertArrayEquals(new long[] {q[0], q[1], q[2], sp[0]}, p.qpPrimes(p.maxLevel()));
        p.qpPrimes(0)[0] = 7;
        assertEquals(q[0], p.qpPrimes(0)[0]);
        assertThrows(LevelMismatchException.class, () -> p.qpPrimes(p.maxLevel() + 1));
        assertThrows(LevelMismatchException.class, () -> p.qpPrimes(-1));
    }
}
