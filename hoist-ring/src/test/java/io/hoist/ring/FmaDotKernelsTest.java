package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import io.hoist.math.ModArith;
import io.hoist.ring.Kernel.Form;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The FMA form of dot2 ({@link FmaDotKernels}) bit for bit against the scalar twin and against
 * BigInteger: every prime size it takes (the kernel itself down to 2-bit primes, the dispatching
 * kernels from 2^31), chunk edges, extreme inputs, both outputs or one, accumulation and aliasing.
 */
class FmaDotKernelsTest {
    private static final LimbKernels SCALAR = new ScalarLimbKernels();
    private static final VectorLimbKernels FMA = new VectorLimbKernels(true, false);

    /** The largest prime below 2^bits (the dot products need an odd modulus, not an NTT-friendly one). */
    private static long prime(int bits) {
        if (bits == 0)
            return BigInteger.ONE.shiftLeft(31).nextProbablePrime().longValueExact(); // the smallest FMA-path prime
        for (long c = (1L << bits) - 1; ; c -= 2) if (BigInteger.valueOf(c).isProbablePrime(60)) return c;
    }

    static Stream<Arguments> cases() {
        SplittableRandom r = new SplittableRandom(0xd07f3aL);
        Stream.Builder<Arguments> b = Stream.builder();
        int[] bits = {0, 32, 33, 35, 36, 40, 44, 45, 48, 49, 50}; // 0: the smallest prime above 2^31
        int[] terms = {1, 2, 3, 4, 5, 8, 9, 17, 64};
        String[] fills = {"random", "max", "zero", "mixed"};
        for (int i = 0; i < 48; i++) {
            b.add(Arguments.of(
                    bits[r.nextInt(bits.length)],
                    terms[r.nextInt(terms.length)],
                    fills[r.nextInt(fills.length)],
                    r.nextBoolean(),
                    r.nextLong()));
        }
        // every size once with the hardest inputs and the longest chunked sums
        for (int bb : bits) b.add(Arguments.of(bb, 17, "max", true, 1L));
        return b.build();
    }

    private static long[] fill(int n, long q, String how, SplittableRandom r) {
        long[] a = new long[n];
        for (int k = 0; k < n; k++) {
            a[k] = switch (how) {
                case "max" -> q - 1;
                case "zero" -> 0;
                case "mixed" ->
                    switch (r.nextInt(4)) {
                        case 0 -> q - 1;
                        case 1 -> 0;
                        case 2 -> Math.max(0, q - 1 - r.nextInt(16));
                        default -> r.nextLong(q);
                    };
                default -> r.nextLong(q);
            };
        }
        return a;
    }

    /** {x, y, z}: {@code terms} limbs of {@code n} coefficients each, filled as {@code how} says. */
    private static long[][][] operands(int terms, int n, long q, String how, SplittableRandom r) {
        long[][][] o = new long[3][terms][];
        for (int t = 0; t < terms; t++) for (int i = 0; i < 3; i++) o[i][t] = fill(n, q, how, r);
        return o;
    }

    @ParameterizedTest(name = "{0}-bit, {1} terms, {2}, accumulate {3}")
    @MethodSource("cases")
    void fmaFormIsBitIdenticalToTheScalarTwin(int bits, int terms, String how, boolean accumulate, long seed) {
        long q = prime(bits);
        SplittableRandom r = new SplittableRandom(seed);
        // 8192: one whole-limb block; 37: vector part and scalar tail; 16388: blocks of 256 and a tail
        for (int n : new int[] {8192, 37, 16388}) {
            long[][][] o = operands(terms, n, q, how, r);
            long[][] x = o[0], y = o[1], z = o[2];
            long[] s0 = fill(n, q, "random", r), s1 = fill(n, q, "random", r), f0 = s0.clone(), f1 = s1.clone();
            long[] init = s0.clone();
            SCALAR.dot2Montgomery(x, y, z, terms, s0, s1, q, accumulate);
            FMA.dot2Montgomery(x, y, z, terms, f0, f1, q, accumulate);
            assertArrayEquals(s0, f0, bits + "-bit, n=" + n);
            assertArrayEquals(s1, f1, bits + "-bit, n=" + n + ", second output");
            for (int k = 0; k < n; k += 97)
                assertEquals(DotReference.at(x, y, terms, k, q, init[k], accumulate), f0[k], "Σ x·y·2^-64 at " + k);
            long[] a0 = new long[n], b0 = new long[n];
            SCALAR.dot2Montgomery(x, y, null, terms, a0, null, q, false);
            FMA.dot2Montgomery(x, y, null, terms, b0, null, q, false);
            assertArrayEquals(a0, b0, "single output");
        }
    }

    /** The kernel itself at every prime size it accepts, below the 2^31 where the dispatch hands over to it. */
    @ParameterizedTest(name = "{0}-bit prime")
    @MethodSource("smallBits")
    void kernelAloneHoldsForSmallPrimes(int bits) {
        long q = prime(bits);
        SplittableRandom r = new SplittableRandom(bits);
        int n = 64, terms = 70;
        long[][] x = new long[terms][], y = new long[terms][], z = new long[terms][];
        for (int t = 0; t < terms; t++) {
            x[t] = fill(n, q, t % 3 == 0 ? "max" : "random", r);
            y[t] = fill(n, q, t % 3 == 0 ? "max" : "random", r);
            z[t] = fill(n, q, "mixed", r);
        }
        long[] s0 = new long[n], s1 = new long[n], f0 = new long[n], f1 = new long[n];
        SCALAR.dot2Montgomery(x, y, z, terms, s0, s1, q, false);
        FmaDotKernels.dotBlock(
                x, null, y, z, true, terms, f0, f1, q, ModArith.montgomeryRInverse(q), false, 0, n, new double[2][n]);
        assertArrayEquals(s0, f0);
        assertArrayEquals(s1, f1);
    }

    static Stream<Integer> smallBits() {
        return Stream.of(2, 3, 5, 8, 12, 17, 20, 25, 28, 30);
    }

    /** 300 terms at 45 bits cross the in-place reduction (every 128 terms) twice, with the largest products. */
    @Test
    void longSumsCrossTheChunkEdges() {
        long q = prime(45);
        int n = 16, terms = 300;
        long[][][] o = operands(terms, n, q, "max", new SplittableRandom(4));
        long[] s0 = new long[n], s1 = new long[n], f0 = new long[n], f1 = new long[n];
        SCALAR.dot2Montgomery(o[0], o[1], o[2], terms, s0, s1, q, false);
        FmaDotKernels.dotBlock(
                o[0],
                null,
                o[1],
                o[2],
                true,
                terms,
                f0,
                f1,
                q,
                ModArith.montgomeryRInverse(q),
                false,
                0,
                n,
                new double[2][n]);
        assertArrayEquals(s0, f0);
        assertArrayEquals(s1, f1);
        assertEquals(128, FmaDotKernels.chunk(q));
    }

    @Test
    void outputMayAliasAnInput() {
        long q = prime(40);
        SplittableRandom r = new SplittableRandom(3);
        int n = 1024, terms = 6;
        long[][][] o = operands(terms, n, q, "random", r);
        long[][] x = o[0], y = o[1], z = o[2];
        long[] want0 = new long[n], want1 = new long[n];
        SCALAR.dot2Montgomery(x, y, z, terms, want0, want1, q, false);
        FMA.dot2Montgomery(x, y, z, terms, x[0], y[1], q, false);
        assertArrayEquals(want0, x[0]);
        assertArrayEquals(want1, y[1]);
    }

    @Test
    void montgomeryRInverseIsTwoToTheMinus64() {
        for (int bits : new int[] {3, 20, 31, 50, 61, 62}) {
            long q = prime(bits);
            BigInteger bq = BigInteger.valueOf(q);
            assertEquals(BigInteger.ONE.shiftLeft(64).modInverse(bq).longValue(), ModArith.montgomeryRInverse(q));
        }
    }

    @Test
    void tunedKernelsRunTheFmaFormWhenChosen() {
        EnumMap<Kernel, Form> forms = new EnumMap<>(Kernel.class);
        for (Kernel k : Kernel.values()) forms.put(k, Form.VECTOR);
        forms.put(Kernel.DOT2, Form.FMA);
        TunedLimbKernels tuned = new TunedLimbKernels(new KernelChoice(forms, Map.of(), KernelChoice.Source.OVERRIDE));
        assertEquals("fma", tuned.dot2Kernels().form());
        assertEquals("vector", new VectorLimbKernels().form());
        // where dot2's vector form lost calibration, primes outside the FMA range run the scalar twin: same results
        TunedLimbKernels lost =
                new TunedLimbKernels(new KernelChoice(forms, Map.of(Kernel.DOT2, 1.2), KernelChoice.Source.CALIBRATED));
        for (int bits : new int[] {30, 40, 55}) {
            long q = prime(bits);
            long[][][] o = operands(5, 64, q, "random", new SplittableRandom(bits));
            long[] s0 = new long[64], s1 = new long[64], f0 = new long[64], f1 = new long[64];
            SCALAR.dot2Montgomery(o[0], o[1], o[2], 5, s0, s1, q, false);
            lost.dot2Montgomery(o[0], o[1], o[2], 5, f0, f1, q, false);
            assertArrayEquals(s0, f0, bits + " bits");
            assertArrayEquals(s1, f1, bits + " bits");
        }
    }

    @Test
    void fmaDotAllocatesNothingAfterWarmup() {
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long q = prime(40);
        SplittableRandom r = new SplittableRandom(9);
        int n = 4096, terms = 4;
        long[][][] o = operands(terms, n, q, "random", r);
        long[][] x = o[0], y = o[1], z = o[2];
        long[] o0 = new long[n], o1 = new long[n];
        long id = Thread.currentThread().threadId(), per = Long.MAX_VALUE;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 300; i++) {
                FMA.dot2Montgomery(x, y, z, terms, o0, o1, q, (i & 1) == 0);
                FMA.dot2Montgomery(x, y, null, terms, o0, null, q, (i & 1) == 1);
            }
            long before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < 100; i++) {
                FMA.dot2Montgomery(x, y, z, terms, o0, o1, q, (i & 1) == 0);
                FMA.dot2Montgomery(x, y, null, terms, o0, null, q, (i & 1) == 1);
            }
            per = (mx.getThreadAllocatedBytes(id) - before) / 200;
            if (per < 1024) break;
        }
        assertTrue(per < 1024, "the FMA dot allocates " + per + " bytes per call after warm-up");
    }
}
