package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A subring polynomial's transform against lifting and transforming all N coefficients, bit for bit. */
class SubringPolyTest {

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        SplittableRandom r = new SplittableRandom(2026_12_05L);
        for (String b : List.of(ScalarNttBackend.NAME, VectorNttBackend.NAME, TunedNttBackend.NAME))
            for (int logN : new int[] {7, 10, 13})
                for (int bits : new int[] {30, 45, 50, 56, 61})
                    for (int logG = 1; logN - logG >= 6; logG++)
                        out.add(Arguments.of(b, logN, bits, logG, r.nextLong()));
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void transformIsTheFullNttOfTheLiftedPolynomial(String backend, int logN, int bits, int logG, long seed) {
        int n = 1 << logN, g = 1 << logG;
        SplittableRandom r = new SplittableRandom(seed);
        long q = Primes.nttPrimes(logN, bits, 1).get(0);
        NttTables t = NttTables.of(logN, q);
        long[] c = new long[n];
        for (int u = 0; u < n; u += g) c[u] = r.nextLong(-(1L << 50), 1L << 50);
        c[g * r.nextInt(n / g)] = r.nextBoolean() ? (1L << 62) - 1 : -(1L << 62) + 1; // the edges of the signed range
        if (logG + 1 < logN) c[g] = 7; // the stride is g, not a multiple of it
        SubringPoly sub = SubringPoly.of(c);
        assertEquals(g, sub.stride());
        NttEngine engine = new NttEngine(NttBackends.get(backend), new OpCounters());
        LimbKernels k = LimbKernels.best();
        for (long w : new long[] {1, t.montgomeryR()}) {
            long ws = ModArith.shoupQuotient(w, q);
            long[] want = new long[n];
            k.liftSigned(c, w, ws, q, want);
            engine.forward(new long[][] {want}, new NttTables[] {t}, 1);
            long[] got = new long[n];
            OpCounters counters = new OpCounters();
            sub.liftForward(w, ws, t, engine, k, counters, got);
            assertArrayEquals(want, got, "N = 2^" + logN + ", g = " + g + ", " + bits + " bits, w = " + w);
            assertEquals(1, counters.get(Op.NTT_LIMBS), "one limb transformed");
            assertEquals(0, counters.get(Op.NTT_FALLBACK_LIMBS), "none refused");
        }
    }

    @Test
    void theSmallTransformHasAtLeast64Points() {
        long[] c = new long[1 << 12];
        c[0] = 3; // a constant: stride N/2
        assertEquals(1 << 11, SubringPoly.stride(c));
        assertEquals(64, SubringPoly.of(c).stride(), "g at most N/64");
        assertNull(SubringPoly.of(new long[64]), "N = 64: nothing to gain");
    }

    @Test
    void strideIsTheLargestPowerOfTwoDividingEveryNonzeroIndex() {
        long[] c = new long[64];
        assertEquals(32, SubringPoly.stride(c), "zero");
        c[0] = 5;
        assertEquals(32, SubringPoly.stride(c), "a constant");
        c[32] = -1;
        assertEquals(32, SubringPoly.stride(c));
        c[8] = 3;
        assertEquals(8, SubringPoly.stride(c));
        c[12] = 1;
        assertEquals(4, SubringPoly.stride(c));
        c[63] = 1;
        assertEquals(1, SubringPoly.stride(c));
        assertNull(SubringPoly.of(c), "not in a proper subring");
        assertThrows(IllegalArgumentException.class, () -> SubringPoly.stride(new long[12]));
        assertThrows(IllegalArgumentException.class, () -> SubringPoly.stride(new long[1]));
    }

    @Test
    void refusesTablesOfAnotherDegree() {
        long[] c = new long[256];
        c[4] = 1;
        SubringPoly sub = SubringPoly.of(c);
        assertEquals(4, sub.stride());
        long q = Primes.nttPrimes(9, 40, 1).get(0);
        NttEngine engine = new NttEngine(NttBackends.scalar(), new OpCounters());
        assertThrows(
                RingMismatchException.class,
                () -> sub.liftForward(
                        1, 0, NttTables.of(9, q), engine, LimbKernels.best(), new OpCounters(), new long[512]));
        assertThrows(
                RingMismatchException.class,
                () -> sub.liftForward(
                        1, 0, NttTables.of(8, q), engine, LimbKernels.best(), new OpCounters(), new long[512]));
    }
}
