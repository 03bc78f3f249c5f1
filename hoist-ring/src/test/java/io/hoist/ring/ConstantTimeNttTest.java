package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.math.Primes;
import io.hoist.testing.SeededFuzz;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Both kernels (64-bit, and 32-bit for primes below 2^31) in both forms are the ring's NTT bit for
 * bit, for N = 2^10 … 2^16 (and a few small rings), forward and inverse; the vector form allocates
 * nothing once warm (its vector-valued helpers are inlined).
 */
class ConstantTimeNttTest {
    static Stream<Arguments> cases() {
        return IntStream.of(4, 5, 10, 11, 12, 13, 14, 15, 16)
                .boxed()
                .flatMap(logN -> IntStream.of(20, 30, 31, 36, 50, 61)
                        .filter(b -> b >= logN + 2)
                        .mapToObj(b -> Arguments.of(logN, b)));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void everyFormIsTheRingsNttBitForBit(int logN, int bits) {
        long q = Primes.nttPrimes(logN, bits, 1).getFirst();
        NttTables tables = NttTables.of(logN, q);
        SplittableRandom r = new SplittableRandom(q ^ logN);
        long[] in = r.longs(1 << logN, 0, q).toArray();
        in[0] = q - 1;
        long[] ref = in.clone();
        ScalarNttBackend.forwardKernel(ref, tables);
        long[] refInv = in.clone();
        ScalarNttBackend.inverseKernel(refInv, tables);
        for (ConstantTimeNtt.Form f : ConstantTimeNtt.Form.values()) {
            if (f == ConstantTimeNtt.Form.VECTOR && !KernelCalibration.vectorUsable()) continue;
            ConstantTimeNtt c = ConstantTimeNtt.of(logN, q, f);
            assertEquals(bits <= 31 && q < 1L << 31, c.small());
            long[] a = in.clone();
            c.forward(a);
            assertArrayEquals(ref, a, f + " forward, q = " + q + " (" + bits + " bits), N = 2^" + logN);
            c.inverse(a);
            assertArrayEquals(in, a, f + " inverse of forward");
            long[] b = in.clone();
            c.inverse(b);
            assertArrayEquals(refInv, b, f + " inverse");
            assertEquals((c.small() ? 8L : 16L) << logN, c.tableBytes());
        }
    }

    @ParameterizedTest
    @MethodSource("small")
    void theDefaultBackendTakesThe32BitKernelForWordSizedPrimes(int bits) {
        Assumptions.assumeTrue(KernelCalibration.vectorUsable(), "no Vector API here");
        TunedNttBackend tuned = new TunedNttBackend(KernelChoice.all(Kernel.Form.VECTOR, KernelChoice.Source.OVERRIDE));
        for (int logN : new int[] {10, 13}) {
            long q = Primes.nttPrimes(logN, bits, 1).getFirst();
            NttTables t = NttTables.of(logN, q);
            long[] a = new SplittableRandom(logN).longs(1 << logN, 0, q).toArray(), b = a.clone();
            tuned.forward(new long[][] {a}, new NttTables[] {t}, 1);
            ScalarNttBackend.forwardKernel(b, t);
            assertArrayEquals(b, a, "forward, " + bits + "-bit prime");
            tuned.inverse(new long[][] {a}, new NttTables[] {t}, 1);
            ScalarNttBackend.inverseKernel(b, t);
            assertArrayEquals(b, a, "inverse, " + bits + "-bit prime");
        }
    }

    @ParameterizedTest
    @MethodSource("small")
    void theVectorFormAllocatesNothingWhenWarm(int bits) {
        Assumptions.assumeTrue(KernelCalibration.vectorUsable(), "no Vector API here");
        long q = Primes.nttPrimes(12, bits, 1).getFirst();
        ConstantTimeNtt c = ConstantTimeNtt.of(12, q, ConstantTimeNtt.Form.VECTOR);
        long[] a = new SplittableRandom(3).longs(4096, 0, q).toArray();
        for (int i = 0; i < 20_000; i++) {
            c.forward(a);
            c.inverse(a);
        }
        long before = SeededFuzz.allocatedBytes();
        for (int i = 0; i < 1000; i++) {
            c.forward(a);
            c.inverse(a);
        }
        long per = (SeededFuzz.allocatedBytes() - before) / 1000;
        assertTrue(per < 64, "bytes allocated per forward + inverse: " + per);
    }

    static Stream<Integer> small() {
        return Stream.of(30, 50);
    }

    @ParameterizedTest
    @MethodSource("small")
    void badPrimesAreRefusedByName(int bits) {
        assertThrows(UnsupportedPrimeException.class, () -> ConstantTimeNtt.of(12, (1L << 62) + 1));
        assertThrows(UnsupportedPrimeException.class, () -> ConstantTimeNtt.of(12, 12289 * 3));
        assertThrows(UnsupportedPrimeException.class, () -> ConstantTimeNtt.of(1, 17));
        long q = Primes.nttPrimes(10, bits, 1).getFirst();
        assertThrows(
                RingMismatchException.class, () -> ConstantTimeNtt.of(10, q).forward(new long[512]));
    }
}
