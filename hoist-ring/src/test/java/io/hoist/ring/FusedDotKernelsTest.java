package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import io.hoist.math.ModArith;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fused dot products ({@link FusedDotKernels}) bit for bit against the scalar twin and BigInteger: every
 * number of terms they take and one more, both lane forms, the prime sizes at their bounds, extreme inputs,
 * accumulation, aliasing, a scalar tail; called directly and through each form of {@link VectorLimbKernels}.
 */
class FusedDotKernelsTest {
    private static final LimbKernels SCALAR = new ScalarLimbKernels();
    private static final LimbKernels[] FORMS = {
        new VectorLimbKernels(), new VectorLimbKernels(true, false), new VectorLimbKernels(true, true)
    };

    /** The largest prime below 2^bits. */
    private static long prime(int bits) {
        for (long c = (1L << bits) - 1; ; c -= 2) if (BigInteger.valueOf(c).isProbablePrime(60)) return c;
    }

    private static long[] fill(int n, long q, String how, SplittableRandom r) {
        long[] a = new long[n];
        for (int k = 0; k < n; k++) {
            a[k] = switch (how) {
                case "max" -> q - 1;
                case "mixed" -> r.nextInt(3) == 0 ? q - 1 - r.nextInt(4) : r.nextInt(5) == 0 ? 0 : r.nextLong(q);
                default -> r.nextLong(q);
            };
        }
        return a;
    }

    static Stream<Arguments> cases() {
        SplittableRandom r = new SplittableRandom(0xf05edL);
        Stream.Builder<Arguments> b = Stream.builder();
        // 32 and 49–50 bits: the FMA form's ends (at 50 bits it takes at most 4 terms); 51–62: integer only
        int[] bits = {32, 40, 49, 50, 51, 55, 60, 61, 62};
        String[] fills = {"random", "max", "mixed"};
        for (int terms = 1; terms <= FusedDotKernels.MAX_TERMS + 1; terms++)
            for (int bb : bits)
                b.add(Arguments.of(bb, terms, fills[r.nextInt(fills.length)], r.nextBoolean(), r.nextLong()));
        return b.build();
    }

    @ParameterizedTest(name = "{0}-bit, {1} terms, {2}, accumulate {3}")
    @MethodSource("cases")
    void everyFormMatchesTheScalarTwinAndBigInteger(int bits, int terms, String how, boolean accumulate, long seed) {
        long q = prime(bits);
        SplittableRandom r = new SplittableRandom(seed);
        // 4096: whole vectors; 37: a scalar tail after the vectors
        for (int n : new int[] {4096, 37}) {
            long[][] x = new long[terms][], y = new long[terms][], z = new long[terms][];
            for (int t = 0; t < terms; t++) {
                x[t] = fill(n, q, how, r);
                y[t] = fill(n, q, how, r);
                z[t] = fill(n, q, how, r);
            }
            long[] init0 = fill(n, q, "max", r), init1 = fill(n, q, "random", r);
            long[] s0 = init0.clone(), s1 = init1.clone();
            SCALAR.dot2Montgomery(x, y, z, terms, s0, s1, q, accumulate);
            for (int k = 0; k < n; k += 31)
                assertEquals(
                        DotReference.at(x, z, terms, k, q, init1[k], accumulate),
                        s1[k],
                        "scalar twin, Σ x·z·2^-64 at " + k);
            for (LimbKernels form : FORMS) {
                long[] v0 = init0.clone(), v1 = init1.clone();
                form.dot2Montgomery(x, y, z, terms, v0, v1, q, accumulate);
                assertArrayEquals(s0, v0, form.form() + ", n=" + n);
                assertArrayEquals(s1, v1, form.form() + ", n=" + n + ", second output");
            }
            int len = n - n % FusedDotKernels.L;
            long[] f0 = init0.clone(), f1 = init1.clone();
            if (FusedDotKernels.fmaTakes(terms, q)) {
                FusedDotKernels.fma(x, y, z, terms, f0, f1, q, ModArith.montgomeryRInverse(q), accumulate, len);
                assertPrefixEquals(s0, f0, len, "fma");
                assertPrefixEquals(s1, f1, len, "fma");
            }
            f0 = init0.clone();
            f1 = init1.clone();
            if (FusedDotKernels.integerTakes(terms, q)) {
                FusedDotKernels.integer(x, y, z, terms, f0, f1, q, ModArith.montgomeryNegInv(q), accumulate, len);
                assertPrefixEquals(s0, f0, len, "integer");
                assertPrefixEquals(s1, f1, len, "integer");
            }
        }
    }

    private static void assertPrefixEquals(long[] want, long[] got, int len, String what) {
        for (int k = 0; k < len; k++) assertEquals(want[k], got[k], what + " at " + k);
    }

    @Test
    void takesExactlyTheSumsThatStayExact() {
        long q50 = prime(50), q49 = prime(49), q62 = prime(62), q61 = prime(61);
        assertTrue(FusedDotKernels.fmaTakes(4, q50)); // 4·q ≤ 2^52
        assertFalse(FusedDotKernels.fmaTakes(5, q50));
        assertTrue(FusedDotKernels.fmaTakes(FusedDotKernels.MAX_TERMS, q49));
        assertFalse(FusedDotKernels.fmaTakes(1, q62)); // not an FMA prime
        assertFalse(FusedDotKernels.fmaTakes(0, q49));
        assertFalse(FusedDotKernels.fmaTakes(FusedDotKernels.MAX_TERMS + 1, q49));
        assertTrue(FusedDotKernels.integerTakes(4, q62)); // 4·q² < q·2^64
        assertFalse(FusedDotKernels.integerTakes(5, q62));
        assertTrue(FusedDotKernels.integerTakes(FusedDotKernels.MAX_TERMS, q61));
        assertThrows(
                IllegalArgumentException.class,
                () -> FusedDotKernels.integer(
                        new long[7][8], new long[7][8], new long[7][8], 7, new long[8], new long[8], q61, 1, false, 8));
    }

    /** An output may be one of the inputs (element by element, every read of a coefficient precedes its write). */
    @Test
    void outputsMayAliasInputs() {
        for (LimbKernels form : FORMS) {
            for (int bits : new int[] {45, 60}) {
                long q = prime(bits);
                SplittableRandom r = new SplittableRandom(bits);
                int n = 1024, terms = 3;
                long[][] x = new long[terms][], y = new long[terms][], z = new long[terms][];
                for (int t = 0; t < terms; t++) {
                    x[t] = fill(n, q, "random", r);
                    y[t] = fill(n, q, "random", r);
                    z[t] = fill(n, q, "random", r);
                }
                long[] s0 = new long[n], s1 = new long[n];
                SCALAR.dot2Montgomery(x, y, z, terms, s0, s1, q, false);
                long[] a = x[0], b = z[2];
                form.dot2Montgomery(x, y, z, terms, a, b, q, false);
                assertArrayEquals(s0, a, form.form() + ", " + bits + "-bit, out0 = x[0]");
                assertArrayEquals(s1, b, form.form() + ", " + bits + "-bit, out1 = z[2]");
            }
        }
    }

    /** A fused method that C2 did not compile whole would box its vectors: a warm call allocates nothing. */
    @Test
    void warmCallsAllocateNothing() {
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        int n = 4096;
        for (LimbKernels form : FORMS) {
            for (int bits : new int[] {40, 60}) {
                for (int terms : new int[] {3, 5}) {
                    long q = prime(bits);
                    SplittableRandom r = new SplittableRandom(terms);
                    long[][] x = new long[terms][], y = new long[terms][], z = new long[terms][];
                    for (int t = 0; t < terms; t++) {
                        x[t] = fill(n, q, "random", r);
                        y[t] = fill(n, q, "random", r);
                        z[t] = fill(n, q, "random", r);
                    }
                    long[] o0 = new long[n], o1 = new long[n];
                    long id = Thread.currentThread().threadId(), per = Long.MAX_VALUE;
                    long deadline = System.nanoTime() + 60_000_000_000L;
                    while (System.nanoTime() < deadline) {
                        for (int i = 0; i < 300; i++) form.dot2Montgomery(x, y, z, terms, o0, o1, q, (i & 1) == 0);
                        long before = mx.getThreadAllocatedBytes(id);
                        for (int i = 0; i < 100; i++) form.dot2Montgomery(x, y, z, terms, o0, o1, q, (i & 1) == 0);
                        per = (mx.getThreadAllocatedBytes(id) - before) / 100;
                        if (per < 1024) break;
                    }
                    assertTrue(per < 1024, form.form() + ", " + bits + "-bit, " + terms + " terms: " + per + " B/call");
                }
            }
        }
    }
}
