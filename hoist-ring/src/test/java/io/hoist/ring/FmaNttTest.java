package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import io.hoist.math.Primes;
import io.hoist.ring.Kernel.Form;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The FMA form of the NTTs is the scalar twin's bit-identical copy for every prime below 2^50: every
 * degree from two vectors (2^3 with AVX2, 2^4 with AVX-512) to 2^13, and larger ones at chosen sizes.
 */
class FmaNttTest {
    private static final VectorNttBackend VECTOR = new VectorNttBackend();

    /** Degrees from the smallest the form takes to 2^13, prime sizes from the smallest to the largest below 2^50. */
    static Stream<Arguments> shapes() {
        Stream.Builder<Arguments> b = Stream.builder();
        int minLogN = Integer.numberOfTrailingZeros(2 * FmaNtt.L);
        for (int logN = minLogN; logN <= 13; logN++) {
            int smallest = logN + 2;
            while (!hasPrimes(logN, smallest, 1)) smallest++;
            for (int bits : new int[] {smallest, 20, 30, 31, 32, 40, 45, 46, 47, 48, 49, 50}) {
                if (bits >= smallest) b.add(Arguments.of(logN, bits));
            }
        }
        // larger degrees, and sizes where only some stages reduce (inverse from 2^(51 − logN), forward from 2^46)
        for (int[] s : new int[][] {{14, 47}, {15, 46}, {16, 50}, {16, 47}, {16, 36}, {17, 47}, {17, 46}}) {
            b.add(Arguments.of(s[0], s[1]));
        }
        return b.build();
    }

    /** Whether there are {@code count} NTT primes of {@code bits} bits for degree 2^logN. */
    private static boolean hasPrimes(int logN, int bits, int count) {
        try {
            Primes.nttPrimes(logN, bits, count);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void forwardAndInverseAreBitIdenticalToScalar(int logN, int bits) {
        int n = 1 << logN;
        // the largest primes of the size: the error bounds are tightest just below 2^bits
        for (long q : Primes.nttPrimes(logN, bits, hasPrimes(logN, bits, 2) ? 2 : 1)) {
            NttTables t = NttTables.of(logN, q);
            assertTrue(FmaNtt.accepts(t));
            FmaNtt f = FmaNtt.of(t, VECTOR);
            SplittableRandom r = new SplittableRandom(31L * logN + bits);
            for (long[] a : inputs(r, n, q)) {
                long[] x = a.clone(), y = a.clone();
                ScalarNttBackend.forwardKernel(x, t);
                f.forward(y);
                assertArrayEquals(x, y, "forward, N = 2^" + logN + ", q = " + q);
                ScalarNttBackend.inverseKernel(x, t);
                f.inverse(y);
                assertArrayEquals(x, y, "inverse, N = 2^" + logN + ", q = " + q);
                assertArrayEquals(a, y, "round trip");
                long[] z = a.clone(), s = a.clone();
                f.inverse(z); // the inverse on arbitrary (not transformed) input too
                ScalarNttBackend.inverseKernel(s, t);
                assertArrayEquals(s, z, "inverse of raw input, N = 2^" + logN + ", q = " + q);
            }
        }
    }

    /** Random residues and the extremes: all q − 1, all zero, alternating 0 and q − 1, one spike. */
    private static List<long[]> inputs(SplittableRandom r, int n, long q) {
        long[] ones = new long[n], zeros = new long[n], alt = new long[n], spike = new long[n];
        Arrays.fill(ones, q - 1);
        for (int i = 0; i < n; i++) alt[i] = (i & 1) == 0 ? 0 : q - 1;
        spike[r.nextInt(n)] = q - 1;
        return List.of(NttTest.random(r, n, q), NttTest.random(r, n, q), ones, zeros, alt, spike);
    }

    @Test
    void refusesPrimesFromTwoToTheFiftyAndTooShortLimbs() {
        NttTables big = NttTables.of(12, Primes.nttPrimes(12, 51, 1).get(0));
        assertFalse(FmaNtt.accepts(big));
        assertThrows(UnsupportedPrimeException.class, () -> FmaNtt.of(big, VECTOR));
        int tiny = Integer.numberOfTrailingZeros(FmaNtt.L); // N = L: fewer than two vectors
        assertFalse(
                FmaNtt.accepts(NttTables.of(tiny, Primes.nttPrimes(tiny, 30, 1).get(0))));
    }

    /** The tuned backend in the FMA form: FMA below 2^50, the 64-bit vector kernel above, one batch. */
    @Test
    void tunedBackendRunsFmaBelowTwoToTheFiftyAndVectorAbove() {
        EnumMap<Kernel, Form> forms = new EnumMap<>(Kernel.class);
        for (Kernel k : Kernel.values()) forms.put(k, k.has(Form.FMA) ? Form.FMA : Form.VECTOR);
        TunedNttBackend tuned = new TunedNttBackend(new KernelChoice(forms, Map.of(), KernelChoice.Source.OVERRIDE));
        assertEquals(Form.FMA, tuned.form(true));
        assertBatchMatchesScalar(tuned, 5, 30, 55, 49);
        assertEquals(2, tuned.fmaPrimes(), "the 30- and 49-bit primes ran the FMA transform");
    }

    /** The vector form: word-sized primes run the FMA transform where FMA instructions are in use, others the 64-bit kernel. */
    @Test
    void tunedVectorFormRunsFmaForWordSizedPrimes() {
        TunedNttBackend tuned = new TunedNttBackend(KernelChoice.all(Form.VECTOR, KernelChoice.Source.OVERRIDE));
        assertBatchMatchesScalar(tuned, 6, 30, 40, 20);
        assertEquals(
                KernelCalibration.fmaUsable() ? 2 : 0,
                tuned.fmaPrimes(),
                "the 30- and 20-bit primes ran the FMA transform (the 40-bit one the 64-bit kernel)");
    }

    /** One batch of random limbs at N = 2^12, one prime of each size, forward and back on {@code tuned} and cpu-scalar. */
    private static void assertBatchMatchesScalar(TunedNttBackend tuned, long seed, int... bits) {
        int logN = 12, n = 1 << logN, k = bits.length;
        NttTables[] ts = new NttTables[k];
        for (int i = 0; i < k; i++)
            ts[i] = NttTables.of(logN, Primes.nttPrimes(logN, bits[i], 1).get(0));
        SplittableRandom r = new SplittableRandom(seed);
        long[][] a = new long[k][], b = new long[k][];
        for (int i = 0; i < k; i++) {
            a[i] = NttTest.random(r, n, ts[i].q());
            b[i] = a[i].clone();
        }
        tuned.forward(a, ts, k);
        NttBackends.scalar().forward(b, ts, k);
        assertArrayEquals(b, a, "forward");
        tuned.inverse(a, ts, k);
        NttBackends.scalar().inverse(b, ts, k);
        assertArrayEquals(b, a, "inverse");
    }

    /** A lost inlining boxes every vector (about 1 MB per transform): allocation, not time, is the guard. */
    @Test
    void allocatesNothingPerTransformAfterWarmup() {
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().threadId();
        int logN = 13;
        // a prime that needs the reducing stages and one that needs none: both loop forms compiled
        FmaNtt big = FmaNtt.of(NttTables.of(logN, Primes.nttPrimes(logN, 50, 1).get(0)), VECTOR);
        FmaNtt small =
                FmaNtt.of(NttTables.of(logN, Primes.nttPrimes(logN, 40, 1).get(0)), VECTOR);
        long[] a = NttTest.random(new SplittableRandom(3), 1 << logN, (long) small.q);
        long perTransform = Long.MAX_VALUE;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 200; i++) {
                big.forward(a);
                big.inverse(a);
                small.forward(a);
                small.inverse(a);
            }
            long before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < 50; i++) {
                big.forward(a);
                big.inverse(a);
                small.forward(a);
                small.inverse(a);
            }
            perTransform = (mx.getThreadAllocatedBytes(id) - before) / 200;
            if (perTransform < 1024) break;
        }
        assertTrue(perTransform < 1024, "the FMA NTT allocates " + perTransform + " bytes per transform after warm-up");
    }
}
