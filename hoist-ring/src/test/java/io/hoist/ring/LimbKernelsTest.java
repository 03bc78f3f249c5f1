package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The vector kernels against their scalar twins (bit-identical) and the scalar ones against BigInteger. */
class LimbKernelsTest {
    private final LimbKernels scalar = new ScalarLimbKernels();
    private final LimbKernels vector = new VectorLimbKernels();
    private final SplittableRandom r = new SplittableRandom(71);

    private long[] rand(int n, long q) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) a[i] = r.nextLong(q);
        if (n > 1) {
            a[0] = q - 1;
            a[1] = 0;
        }
        return a;
    }

    @Test
    void dot2MontgomeryMatchesBigIntegerAndScalarTwin() {
        for (int bits : new int[] {30, 45, 59, 60, 61, 62}) {
            long q = Primes.nttPrimes(10, bits, 1).get(0);
            for (int terms : new int[] {1, 3, 5, 9, 17, 40}) {
                // 16388: past VectorLimbKernels.WHOLE_LIMB_MAX, so blocks of 256 and a scalar tail
                for (int n : terms <= 5 ? new int[] {1024, 37, 16388} : new int[] {1024, 37}) {
                    long[][] x = new long[terms][], y = new long[terms][], z = new long[terms][];
                    for (int t = 0; t < terms; t++) {
                        x[t] = rand(n, q);
                        y[t] = rand(n, q);
                        z[t] = rand(n, q);
                    }
                    long[] s0 = rand(n, q), s1 = rand(n, q), v0 = s0.clone(), v1 = s1.clone();
                    long[] init0 = s0.clone();
                    scalar.dot2Montgomery(x, y, z, terms, s0, s1, q, true);
                    vector.dot2Montgomery(x, y, z, terms, v0, v1, q, true);
                    assertArrayEquals(s0, v0, bits + "-bit, " + terms + " terms, n=" + n);
                    assertArrayEquals(s1, v1);
                    for (int k = 0; k < n; k += 7)
                        assertEquals(
                                DotReference.at(x, y, terms, k, q, init0[k], true), s0[k], "Σ x·y·2^-64 + out at " + k);
                    long[] a0 = rand(n, q), b0 = a0.clone();
                    boolean acc = terms % 2 == 1; // the one-output kernel is its own method: both branches
                    scalar.dot2Montgomery(x, y, null, terms, a0, null, q, acc);
                    vector.dot2Montgomery(x, y, null, terms, b0, null, q, acc);
                    assertArrayEquals(a0, b0, "single output, accumulate " + acc);
                }
            }
        }
    }

    @Test
    void shoupKernelsMatchScalarTwinAndReference() {
        for (int bits : new int[] {30, 50, 60, 61, 62}) {
            long q = Primes.nttPrimes(10, bits, 1).get(0);
            for (int n : new int[] {1024, 1000, 1003, 5}) {
                long[] a = rand(n, q), b = rand(n, q);
                long w = r.nextLong(q), ws = ModArith.shoupQuotient(w, q);
                long[] s = new long[n], v = new long[n];
                scalar.subMulShoup(a, b, s, w, ws, q);
                vector.subMulShoup(a, b, v, w, ws, q);
                assertArrayEquals(s, v);
                for (int k = 0; k < n; k++)
                    assertEquals(ModArith.mulModSlow(ModArith.subMod(a[k], b[k], q), w, q), s[k]);
                scalar.mulShoup(a, w, ws, q, s, 0, n);
                vector.mulShoup(a, w, ws, q, v, 0, n);
                assertArrayEquals(s, v);
                for (int k = 0; k < n; k++) assertEquals(ModArith.mulModSlow(a[k], w, q), s[k]);
                for (int terms : new int[] {1, 2, 6, 13}) {
                    long[][] y = new long[terms][];
                    long[] wv = new long[terms], wsv = new long[terms];
                    for (int i = 0; i < terms; i++) {
                        y[i] = new long[n];
                        for (int k = 0; k < n; k++)
                            y[i][k] = r.nextLong() >>> 2; // any word below 2^62, as BConv feeds it
                        wv[i] = r.nextLong(q);
                        wsv[i] = ModArith.shoupQuotient(wv[i], q);
                    }
                    long[] so = new long[n + 3], vo = new long[n + 3];
                    scalar.sumShoup(y, terms, wv, wsv, q, so, 3, n);
                    vector.sumShoup(y, terms, wv, wsv, q, vo, 3, n);
                    assertArrayEquals(so, vo);
                    for (int k = 0; k < n; k += 11) {
                        BigInteger want = BigInteger.ZERO;
                        for (int i = 0; i < terms; i++)
                            want = want.add(BigInteger.valueOf(y[i][k]).multiply(BigInteger.valueOf(wv[i])));
                        assertEquals(want.mod(BigInteger.valueOf(q)).longValue(), so[3 + k]);
                    }
                    // out may be one of the terms at the same offset (MutableCiphertext.addScaled sums in place)
                    for (int alias : new int[] {0, terms - 1}) {
                        long[][] ys = y.clone(), yv = y.clone();
                        ys[alias] = y[alias].clone();
                        yv[alias] = y[alias].clone();
                        scalar.sumShoup(ys, terms, wv, wsv, q, ys[alias], 0, n);
                        vector.sumShoup(yv, terms, wv, wsv, q, yv[alias], 0, n);
                        assertArrayEquals(
                                Arrays.copyOfRange(so, 3, n + 3), ys[alias], "scalar, out = y[" + alias + "]");
                        assertArrayEquals(
                                Arrays.copyOfRange(so, 3, n + 3), yv[alias], "vector, out = y[" + alias + "]");
                    }
                }
            }
        }
    }

    @Test
    void automorphismVectorFormMatchesTheScalarTwin() {
        for (int bits : new int[] {30, 50, 60, 62}) {
            for (int logN : new int[] {1, 2, 3, 10, 12}) {
                long q = Primes.nttPrimes(logN, bits, 1).get(0);
                int n = 1 << logN;
                for (long g : new long[] {5, 25, 2L * n - 1, Automorphism.galoisElement(logN, -7), 2L * n - 5}) {
                    NttPermutation p = Automorphism.nttPermutation(logN, g);
                    long[] x = rand(n, q), y = rand(n, q), acc = rand(n, q);
                    for (boolean withY : new boolean[] {false, true}) {
                        for (boolean accumulate : new boolean[] {false, true}) {
                            long[] s = acc.clone(), v = acc.clone();
                            scalar.automorphismNtt(x, withY ? y : null, s, p, q, accumulate);
                            vector.automorphismNtt(x, withY ? y : null, v, p, q, accumulate);
                            assertArrayEquals(
                                    s,
                                    v,
                                    bits + " bits, N=2^" + logN + ", g=" + g + ", y " + withY + ", acc " + accumulate);
                        }
                    }
                }
            }
        }
    }

    /**
     * Every automorphism maps each aligned block of a power-of-two number of slots onto one source block
     * ({@link NttPermutation#permutesBlocks}), checked here against the table slot by slot: every odd g up
     * to N = 2^9, a seeded sample of 40 above, up to 2^13.
     */
    @Test
    void everyAutomorphismPermutesAlignedBlocks() {
        SplittableRandom gs = new SplittableRandom(29);
        for (int logN = 0; logN <= 13; logN++) {
            int n = 1 << logN;
            long[] elements = logN <= 9
                    ? LongStream.range(0, n).map(i -> 2 * i + 1).toArray()
                    : gs.longs(40, 0, n).map(i -> 2 * i + 1).toArray();
            for (long g : elements) {
                NttPermutation p = Automorphism.nttPermutation(logN, g);
                for (int lanes = 1; lanes <= 16; lanes *= 2) {
                    boolean blocks = n % lanes == 0;
                    for (int t = 0; t < n && blocks; t++) blocks = p.at(t) / lanes == p.at(t - t % lanes) / lanes;
                    String at = "N=2^" + logN + " g=" + g + " lanes " + lanes;
                    assertEquals(lanes <= n, blocks, at);
                    assertEquals(blocks, p.permutesBlocks(lanes), at);
                }
            }
        }
    }

    /** A permutation that moves slots across blocks says so, and the vector kernel then gathers as the scalar one. */
    @Test
    void aPermutationAcrossBlocksFallsBackToTheScalarLoop() {
        int n = 64;
        int[] table = new int[n];
        for (int t = 0; t < n; t++) table[t] = (t * 17 + 3) % n; // odd stride: neighbours land in other blocks
        NttPermutation p = new NttPermutation(table);
        for (int lanes = 2; lanes <= 16; lanes *= 2) assertFalse(p.permutesBlocks(lanes), "lanes " + lanes);
        assertTrue(p.permutesBlocks(1));
        assertFalse(p.permutesBlocks(3));
        long q = Primes.nttPrimes(6, 50, 1).get(0);
        long[] x = rand(n, q), y = rand(n, q);
        for (boolean accumulate : new boolean[] {false, true}) {
            long[] s = rand(n, q), v = s.clone();
            scalar.automorphismNtt(x, y, s, p, q, accumulate);
            vector.automorphismNtt(x, y, v, p, q, accumulate);
            assertArrayEquals(s, v, "accumulate " + accumulate);
            for (int t = 0; t < n && !accumulate; t++) assertEquals(ModArith.addMod(x[table[t]], y[table[t]], q), s[t]);
        }
    }

    /** Every form of mulMod: the scalar twin, the integer lanes, the FMA lanes (and its integer and scalar others). */
    private LimbKernels[] mulModForms() {
        return new LimbKernels[] {scalar, vector, new VectorLimbKernels(true, false), new VectorLimbKernels(true, true)
        };
    }

    @Test
    void mulModIncludingAliasedOutputs() {
        for (int bits : new int[] {20, 31, 40, 49, 50, 60, 61, 62}) {
            long q = Primes.nttPrimes(10, bits, 1).get(0);
            for (LimbKernels k : mulModForms()) {
                for (int len : new int[] {1000, 1024, 5}) {
                    long[] a = rand(len, q), b = rand(len, q), acc = rand(len, q);
                    Arrays.fill(a, 0, len / 4, q - 1); // the largest products
                    Arrays.fill(b, 0, len / 4, q - 1);
                    long[] want = new long[len], wantAcc = new long[len];
                    for (int i = 0; i < len; i++) {
                        want[i] = ModArith.mulModSlow(a[i], b[i], q);
                        wantAcc[i] = ModArith.addMod(acc[i], want[i], q);
                    }
                    String what = k.form() + ", " + bits + "-bit prime, " + len + " coefficients";
                    long[] out = rand(len, q);
                    k.mulMod(a, b, out, q, false);
                    assertArrayEquals(want, out, what);
                    k.mulMod(a, b, acc, q, true);
                    assertArrayEquals(wantAcc, acc, "accumulate, " + what);
                    long[] alias = a.clone();
                    k.mulMod(alias, b, alias, q, false);
                    assertArrayEquals(want, alias, "out aliases an input, " + what);
                }
            }
        }
    }

    @Test
    void mulModRefusesShortFactors() {
        long q = Primes.nttPrimes(10, 40, 1).get(0);
        for (LimbKernels k : mulModForms()) {
            assertThrows(
                    IllegalArgumentException.class, () -> k.mulMod(new long[8], new long[7], new long[8], q, false));
            assertThrows(
                    IllegalArgumentException.class,
                    () -> k.mulModSum(new long[8], new long[8], new long[8], new long[3], new long[8], q));
        }
    }

    @Test
    void mulModSumIsTheSumOfTwoProducts() {
        for (int bits : new int[] {20, 30, 40, 49, 50, 60, 61, 62}) {
            long q = Primes.nttPrimes(10, bits, 1).get(0);
            for (LimbKernels k : mulModForms()) {
                for (int len : new int[] {1000, 1024, 5}) {
                    long[] a0 = rand(len, q), b0 = rand(len, q), a1 = rand(len, q), b1 = rand(len, q);
                    Arrays.fill(a0, 0, len / 4, q - 1); // the largest sums
                    Arrays.fill(b0, 0, len / 4, q - 1);
                    Arrays.fill(a1, 0, len / 4, q - 1);
                    Arrays.fill(b1, 0, len / 4, q - 1);
                    long[] want = new long[len], out = rand(len, q);
                    for (int i = 0; i < len; i++) {
                        want[i] = ModArith.addMod(
                                ModArith.mulModSlow(a0[i], b0[i], q), ModArith.mulModSlow(a1[i], b1[i], q), q);
                    }
                    k.mulModSum(a0, b0, a1, b1, out, q);
                    assertArrayEquals(want, out, k.form() + ", " + bits + "-bit prime, " + len + " coefficients");
                }
            }
        }
    }

    @Test
    void automorphismFromScratchEqualsTheGatheringForm() {
        for (int logN : new int[] {3, 10, 13}) {
            int n = 1 << logN;
            long q = Primes.nttPrimes(logN, 50, 1).get(0);
            NttPermutation p = Automorphism.nttPermutation(logN, Automorphism.galoisElement(logN, 3));
            for (LimbKernels k : new LimbKernels[] {scalar, vector}) {
                for (boolean withY : new boolean[] {false, true}) {
                    for (boolean acc : new boolean[] {false, true}) {
                        long[] x = rand(n, q), y = withY ? rand(n, q) : null, out0 = rand(n, q);
                        long[] out1 = out0.clone(), scratch = x.clone();
                        k.automorphismNtt(x, y, out0, p, q, acc);
                        k.automorphismNttFromScratch(scratch, y, out1, p, q, acc);
                        assertArrayEquals(out0, out1, k.form() + " logN " + logN + " y " + withY + " acc " + acc);
                    }
                }
            }
        }
    }

    @Test
    void dot2AllocatesNothingAfterWarmup() {
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long q = Primes.nttPrimes(12, 55, 1).get(0);
        int n = 4096, terms = 4;
        long[][] x = new long[terms][], y = new long[terms][], z = new long[terms][];
        for (int t = 0; t < terms; t++) {
            x[t] = rand(n, q);
            y[t] = rand(n, q);
            z[t] = rand(n, q);
        }
        long[] o0 = new long[n], o1 = new long[n];
        long id = Thread.currentThread().threadId(), per = Long.MAX_VALUE;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 300; i++) vector.dot2Montgomery(x, y, z, terms, o0, o1, q, false);
            long before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < 100; i++) vector.dot2Montgomery(x, y, z, terms, o0, o1, q, false);
            per = (mx.getThreadAllocatedBytes(id) - before) / 100;
            if (per < 1024) break;
        }
        assertTrue(per < 1024, "dot2Montgomery allocates " + per + " bytes per call after warm-up");
    }

    /**
     * The Shoup kernels share vector helpers with the dot products, and the automorphism shuffles lanes:
     * a helper C2 did not inline, or a shuffle it did not intrinsify, would box.
     */
    @Test
    void shoupKernelsAllocateNothingAfterWarmup() {
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long q = Primes.nttPrimes(12, 55, 1).get(0);
        int n = 4096;
        long[] a = rand(n, q), b = rand(n, q), out = new long[n];
        long[][] ys = {rand(n, q), rand(n, q), rand(n, q)};
        long w = 12345, ws = ModArith.shoupQuotient(w, q);
        long[] wv = {w, w + 1, w + 2}, wsv = {ws, ModArith.shoupQuotient(w + 1, q), ModArith.shoupQuotient(w + 2, q)};
        NttPermutation p = Automorphism.nttPermutation(12, 5);
        long[] perm = new long[n];
        long id = Thread.currentThread().threadId(), per = Long.MAX_VALUE;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 300; i++) {
                vector.mulShoup(a, w, ws, q, out, 0, n);
                vector.sumShoup(ys, 0, 3, wv, wsv, q, out, 0, n);
                vector.subMulShoup(a, b, out, w, ws, q);
                vector.automorphismNtt(a, (i & 1) == 0 ? b : null, perm, p, q, (i & 2) == 0);
            }
            long before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < 100; i++) {
                vector.mulShoup(a, w, ws, q, out, 0, n);
                vector.sumShoup(ys, 0, 3, wv, wsv, q, out, 0, n);
                vector.subMulShoup(a, b, out, w, ws, q);
                vector.automorphismNtt(a, (i & 1) == 0 ? b : null, perm, p, q, (i & 2) == 0);
            }
            per = (mx.getThreadAllocatedBytes(id) - before) / 100;
            if (per < 1024) break;
        }
        assertTrue(
                per < 1024,
                "mulShoup + sumShoup + subMulShoup + automorphismNtt allocate " + per
                        + " bytes per call after warm-up");
    }

    /**
     * The one-pass products ({@link MulModKernels}, both branches of accumulate, FMA and integer lanes) allocate
     * nothing once compiled: a vector C2 kept as an object would box every lane group of a tensor product.
     */
    @Test
    void oneProductPassAllocatesNothingAfterWarmup() {
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        // without the CPU's FMA (UseFMA off) DoubleVector.fma runs in software: only the integer lanes are guarded
        LimbKernels fma = KernelCalibration.fmaUsable() ? new VectorLimbKernels(true, false) : vector;
        long small = Primes.nttPrimes(12, 45, 1).get(0),
                large = Primes.nttPrimes(12, 60, 1).get(0);
        int n = 4096;
        long[] a = rand(n, small), b = rand(n, small), c = rand(n, small), d = rand(n, small), out = new long[n];
        long id = Thread.currentThread().threadId(), per = Long.MAX_VALUE;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 300; i++) products(fma, a, b, c, d, out, (i & 1) == 0 ? small : large, i);
            long before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < 100; i++) products(fma, a, b, c, d, out, (i & 1) == 0 ? small : large, i);
            per = (mx.getThreadAllocatedBytes(id) - before) / 100;
            if (per < 1024) break;
        }
        assertTrue(per < 1024, "mulMod + mulModSum allocate " + per + " bytes per call after warm-up");
    }

    private static void products(LimbKernels k, long[] a, long[] b, long[] c, long[] d, long[] out, long q, int i) {
        k.mulMod(a, b, out, q, (i & 2) == 0);
        k.mulModSum(a, b, c, d, out, q);
    }

    /** A vector kernel that C2 does not intrinsify boxes every vector: liftSigned once allocated 16 GB per LT evaluation. */
    @Test
    void liftSignedAndSmallPrimeDotsAllocateNothingAfterWarmup() {
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long q = Primes.nttPrimes(12, 55, 1).get(0),
                small = Primes.nttPrimes(12, 30, 1).get(0);
        int n = 4096;
        long[] c = new long[n], out = new long[n];
        SplittableRandom r = new SplittableRandom(5);
        for (int k = 0; k < n; k++) c[k] = r.nextLong() >> 3;
        long[][] x = {rand(n, small), rand(n, small)},
                y = {rand(n, small), rand(n, small)},
                z = {rand(n, small), rand(n, small)};
        long[][] xp = {PackedLimbs.pack(x[0]), PackedLimbs.pack(x[1])};
        long[] o0 = new long[n], o1 = new long[n];
        long w = 12345, ws = ModArith.shoupQuotient(w, q);
        long id = Thread.currentThread().threadId(), per = Long.MAX_VALUE;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 300; i++) {
                vector.liftSigned(c, w, ws, q, out);
                vector.dot2Montgomery(x, y, z, 2, o0, o1, small, false);
                vector.dot2MontgomeryPacked(xp, y, z, 2, o0, o1, small, true);
            }
            long before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < 100; i++) {
                vector.liftSigned(c, w, ws, q, out);
                vector.dot2Montgomery(x, y, z, 2, o0, o1, small, false);
                vector.dot2MontgomeryPacked(xp, y, z, 2, o0, o1, small, true);
            }
            per = (mx.getThreadAllocatedBytes(id) - before) / 100;
            if (per < 1024) break;
        }
        assertTrue(
                per < 1024,
                "liftSigned + small-prime dots (plain and packed) allocate " + per + " bytes per call after warm-up");
    }

    /** Every form's packed dot products against the scalar twin's unpacked ones, bit for bit. */
    @Test
    void packedDotProductsEqualTheUnpackedOnesInEveryForm() {
        LimbKernels[] forms = {
            scalar, vector, new VectorLimbKernels(true, false), new VectorLimbKernels(true, true), LimbKernels.best()
        };
        SplittableRandom r = new SplittableRandom(29);
        for (int bits : new int[] {20, 30, 31}) {
            long q = Primes.nttPrimes(10, bits, 1).get(0);
            assertTrue(PackedLimbs.packs(q, 1024));
            for (int terms : new int[] {1, 3, 17, 40}) {
                // 16400: past VectorLimbKernels.WHOLE_LIMB_MAX, so blocks of 256 and a last one of 16
                for (int n : terms <= 3 ? new int[] {1024, 16, 16400} : new int[] {1024, 48}) {
                    long[][] x = new long[terms][],
                            xp = new long[terms][],
                            y = new long[terms][],
                            z = new long[terms][];
                    for (int t = 0; t < terms; t++) {
                        x[t] = rand(n, q);
                        xp[t] = PackedLimbs.pack(x[t]);
                        y[t] = rand(n, q);
                        z[t] = rand(n, q);
                    }
                    boolean acc = r.nextBoolean();
                    long[] init0 = rand(n, q), init1 = rand(n, q);
                    long[] want0 = init0.clone(), want1 = init1.clone(), one = init0.clone();
                    scalar.dot2Montgomery(x, y, z, terms, want0, want1, q, acc);
                    scalar.dot2Montgomery(x, y, null, terms, one, null, q, !acc);
                    for (LimbKernels k : forms) {
                        long[] o0 = init0.clone(), o1 = init1.clone(), o = init0.clone();
                        k.dot2MontgomeryPacked(xp, y, z, terms, o0, o1, q, acc);
                        k.dot2MontgomeryPacked(xp, y, null, terms, o, null, q, !acc);
                        String what = k.form() + ", " + bits + "-bit, " + terms + " terms, n=" + n;
                        assertArrayEquals(want0, o0, what);
                        assertArrayEquals(want1, o1, what);
                        assertArrayEquals(one, o, what + ", one output");
                    }
                }
            }
            // several outputs with absent terms
            int n = 1024, terms = 9, outs = 3;
            long[][] x = new long[terms][], y = new long[terms][];
            long[][][] f = new long[outs][terms][], fp = new long[outs][terms][];
            for (int t = 0; t < terms; t++) {
                x[t] = rand(n, q);
                y[t] = rand(n, q);
            }
            for (int o = 0; o < outs; o++)
                for (int t = 0; t < terms; t++) if ((o + t) % 3 != 0) fp[o][t] = PackedLimbs.pack(f[o][t] = rand(n, q));
            long[][] s0 = new long[outs][n], s1 = new long[outs][n];
            scalar.dot2MontgomeryMulti(x, y, f, false, terms, outs, s0, s1, q, false);
            for (LimbKernels k : forms) {
                long[][] v0 = new long[outs][n], v1 = new long[outs][n];
                k.dot2MontgomeryMulti(x, y, fp, true, terms, outs, v0, v1, q, false);
                assertArrayEquals(s0, v0, k.form() + ", " + bits + "-bit multi");
                assertArrayEquals(s1, v1, k.form() + ", " + bits + "-bit multi");
            }
        }
    }

    /**
     * Outputs with the same terms, which the vector forms sum four or two at a time ({@link
     * FmaDotKernels#groupBlock}, {@link VectorDotKernels#dualBlock}), equal the scalar twin's output by
     * output in every form: whole limbs and blocks of {@link VectorLimbKernels#GROUP_BLOCK}, integer
     * pairs in blocks above {@link VectorLimbKernels#WHOLE_LIMB_MAX}, diagonals in slabs at offsets, five
     * outputs with the same terms (a four and one alone), a pair, a lone output, and an output without
     * terms (zeroed, or kept when accumulating); a short output inside a four is refused.
     */
    @Test
    void pairedOutputsEqualTheScalarTwinOutputByOutput() {
        LimbKernels[] forms = {
            vector, new VectorLimbKernels(true, false), new VectorLimbKernels(true, true), LimbKernels.best()
        };
        SplittableRandom r = new SplittableRandom(47);
        int terms = 9, outs = 9; // 9 terms: more than a chunk at 61 bits (8), so the pairs reduce between chunks
        // 32–50 bits: the FMA fours and pairs (and the integer pairs in the plain vector form); 60–61: the integer
        // pairs
        for (int bits : new int[] {32, 40, 49, 50, 60, 61}) {
            // 2·WHOLE_LIMB_MAX: the integer pairs in blocks
            for (int n : new int[] {1024, 2 * VectorLimbKernels.GROUP_BLOCK, 2 * VectorLimbKernels.WHOLE_LIMB_MAX}) {
                long q = Primes.nttPrimes(14, bits, 1).get(0);
                long[][] x = new long[terms][], y = new long[terms][];
                for (int t = 0; t < terms; t++) {
                    x[t] = rand(n, q);
                    y[t] = rand(n, q);
                    Arrays.fill(x[t], 0, 64, q - 1); // the largest remainders
                    Arrays.fill(y[t], 0, 64, q - 1);
                }
                // outputs 0–4 the same terms (a four, then one alone: 5 differs); 5, 6 a pair; 7 alone; 8 none
                boolean[][] present = new boolean[outs][terms];
                for (int t = 0; t < terms; t++) {
                    // 7 terms for the fours: an odd count, across a chunk edge at 50 bits (chunks of 4)
                    for (int o = 0; o < 5; o++) present[o][t] = t % 4 != 1;
                    present[5][t] = present[6][t] = true;
                    present[7][t] = t % 2 == 0;
                }
                long[] slab = new long[outs * terms * (n + 8)];
                long[][][] f = new long[outs][terms][], fs = new long[outs][terms][];
                int[][] off = new int[outs][terms];
                for (int o = 0; o < outs; o++)
                    for (int t = 0; t < terms; t++) {
                        if (!present[o][t]) continue;
                        f[o][t] = rand(n, q);
                        Arrays.fill(f[o][t], 0, 64, q - 1);
                        off[o][t] = ((outs - 1 - o) * terms + t) * (n + 8) + 8;
                        System.arraycopy(f[o][t], 0, slab, off[o][t], n);
                        fs[o][t] = slab;
                    }
                for (boolean acc : new boolean[] {false, true}) {
                    long[][] init0 = new long[outs][], init1 = new long[outs][];
                    for (int o = 0; o < outs; o++) {
                        init0[o] = rand(n, q);
                        init1[o] = rand(n, q);
                    }
                    long[][] want0 = deepCopy(init0), want1 = deepCopy(init1);
                    scalar.dot2MontgomeryMulti(x, y, f, false, terms, outs, want0, want1, q, acc);
                    for (LimbKernels k : forms) {
                        String what = k.form() + ", " + bits + "-bit, n=" + n + ", accumulate " + acc;
                        long[][] o0 = deepCopy(init0), o1 = deepCopy(init1);
                        k.dot2MontgomeryMulti(x, y, f, false, terms, outs, o0, o1, q, acc);
                        assertArrayEquals(want0, o0, what);
                        assertArrayEquals(want1, o1, what);
                        long[][] s0 = deepCopy(init0), s1 = deepCopy(init1);
                        k.dot2MontgomeryMulti(x, y, fs, off, false, terms, outs, s0, s1, q, acc);
                        assertArrayEquals(want0, s0, what + ", in a slab");
                        assertArrayEquals(want1, s1, what + ", in a slab");
                    }
                }
                // a second output shorter than its first: refused with a message, never an index exception
                long[][] b0 = new long[outs][n], b1 = new long[outs][n];
                b1[3] = new long[n / 2];
                for (LimbKernels k : forms) {
                    IllegalArgumentException e = assertThrows(
                            IllegalArgumentException.class,
                            () -> k.dot2MontgomeryMulti(x, y, f, false, terms, outs, b0, b1, q, false));
                    assertTrue(e.getMessage().contains("second output"), e.getMessage());
                }
            }
        }
    }

    /**
     * Limbs held several to an array at word offsets (a transform's diagonals in slabs) give the same
     * sums, bit for bit, as separate limbs, in every form, plain and packed, through the single- and the
     * multi-output entry points; offsets that leave an array too short are refused with a message.
     */
    @Test
    void limbsAtOffsetsInSlabsEqualSeparateLimbsInEveryForm() {
        LimbKernels[] forms = {
            scalar, vector, new VectorLimbKernels(true, false), new VectorLimbKernels(true, true), LimbKernels.best()
        };
        SplittableRandom r = new SplittableRandom(31);
        for (int bits : new int[] {30, 45, 60}) {
            long q = Primes.nttPrimes(10, bits, 1).get(0);
            // 1030: not a multiple of any lane count, so the vector forms run their scalar tail from the offset
            for (int n : new int[] {1024, 16400, 1030}) {
                boolean packs = PackedLimbs.packs(q, n);
                int terms = 5, outs = 2, words = packs ? n / 2 : n;
                long[][] x = new long[terms][], y = new long[terms][];
                long[][][] f = new long[outs][terms][], fSlab = new long[outs][terms][];
                int[][] fOff = new int[outs][terms];
                // one slab per output, its terms at scattered offsets (a gap of 16 words before each)
                long[][] slab = {new long[terms * (words + 16)], new long[terms * (words + 16)]};
                for (int t = 0; t < terms; t++) {
                    x[t] = rand(n, q);
                    y[t] = rand(n, q);
                }
                for (int o = 0; o < outs; o++)
                    for (int t = 0; t < terms; t++) {
                        if ((o + t) % 4 == 3) continue; // an absent term
                        f[o][t] = rand(n, q);
                        int off = (terms - 1 - t) * (words + 16) + 16;
                        if (packs) PackedLimbs.pack(f[o][t], slab[o], off);
                        else System.arraycopy(f[o][t], 0, slab[o], off, n);
                        fSlab[o][t] = slab[o];
                        fOff[o][t] = off;
                    }
                boolean acc = r.nextBoolean();
                long[][] want0 = new long[outs][], want1 = new long[outs][];
                for (int o = 0; o < outs; o++) {
                    want0[o] = rand(n, q);
                    want1[o] = rand(n, q);
                }
                long[][] init0 = deepCopy(want0), init1 = deepCopy(want1);
                scalar.dot2MontgomeryMulti(x, y, f, false, terms, outs, want0, want1, q, acc);
                for (LimbKernels k : forms) {
                    long[][] o0 = deepCopy(init0), o1 = deepCopy(init1);
                    k.dot2MontgomeryMulti(x, y, fSlab, fOff, packs, terms, outs, o0, o1, q, acc);
                    String what = k.form() + ", " + bits + "-bit, n=" + n + (packs ? ", packed" : "");
                    assertArrayEquals(want0, o0, what);
                    assertArrayEquals(want1, o1, what);
                    // the single-output entry point on output 0's present terms
                    long[] one = init0[1].clone(), want = init0[1].clone();
                    long[][] xs = {fSlab[0][0], fSlab[0][1], fSlab[0][2]}, ys = {x[0], x[1], x[2]};
                    int[] off = {fOff[0][0], fOff[0][1], fOff[0][2]};
                    scalar.dot2Montgomery(new long[][] {f[0][0], f[0][1], f[0][2]}, ys, null, 3, want, null, q, acc);
                    if (packs) k.dot2MontgomeryPacked(xs, off, ys, null, 3, one, null, q, acc);
                    else k.dot2Montgomery(xs, off, ys, null, 3, one, null, q, acc);
                    assertArrayEquals(want, one, what + ", one output");
                }
            }
            boolean packs = PackedLimbs.packs(q, 1024);
            long[][] xs = {new long[1024]}, ys = {rand(1024, q)};
            for (LimbKernels k : forms) {
                long[] out = new long[1024];
                IllegalArgumentException e = assertThrows(
                        IllegalArgumentException.class,
                        () -> k.dot2Montgomery(xs, new int[] {1}, ys, null, 1, out, null, q, false));
                assertTrue(e.getMessage().contains("does not fit"), e.getMessage());
                assertThrows(
                        IllegalArgumentException.class,
                        () -> k.dot2Montgomery(xs, new int[] {-1}, ys, null, 1, out, null, q, false));
                assertThrows(
                        IllegalArgumentException.class,
                        () -> k.dot2Montgomery(xs, new int[0], ys, null, 1, out, null, q, false));
                assertThrows(
                        IllegalArgumentException.class,
                        () -> k.dot2Montgomery(xs, new int[] {0, 0}, ys, null, 2, out, null, q, false));
                long[][][] f = {xs, xs};
                assertThrows(
                        IllegalArgumentException.class,
                        () -> k.dot2MontgomeryMulti(
                                ys,
                                ys,
                                f,
                                new int[][] {{0}},
                                false,
                                1,
                                2,
                                new long[][] {out, out},
                                new long[][] {out, out},
                                q,
                                false));
                if (packs)
                    assertThrows(
                            IllegalArgumentException.class,
                            () -> k.dot2MontgomeryPacked(xs, new int[] {513}, ys, null, 1, out, null, q, false));
            }
        }
    }

    private static long[][] deepCopy(long[][] a) {
        long[][] c = new long[a.length][];
        for (int i = 0; i < a.length; i++) c[i] = a[i].clone();
        return c;
    }

    @Test
    void packingRoundTripsAndRefusesWhatItCannotHold() {
        long q = Primes.nttPrimes(10, 30, 1).get(0);
        long[] limb = rand(64, q), back = new long[64];
        long[] packed = PackedLimbs.pack(limb);
        assertEquals(32, packed.length);
        PackedLimbs.unpack(packed, back);
        assertArrayEquals(limb, back);
        for (int k = 0; k < 64; k++) assertEquals(limb[k], PackedLimbs.get(packed, k), "coefficient " + k);
        // coefficients 16g + i and 16g + 8 + i share word 8g + i
        assertEquals(limb[16 + 3] | limb[16 + 8 + 3] << 32, packed[8 + 3]);
        long big = Primes.nttPrimes(10, 32, 1).get(0);
        assertFalse(PackedLimbs.packs(big, 1024));
        assertFalse(PackedLimbs.packs(q, 24));
        assertThrows(IllegalArgumentException.class, () -> PackedLimbs.pack(new long[24]));
        assertThrows(IllegalArgumentException.class, () -> PackedLimbs.pack(new long[0]));
        long[] wide = new long[16];
        wide[9] = 1L << 31;
        assertThrows(IllegalArgumentException.class, () -> PackedLimbs.pack(wide));
        wide[9] = -1;
        assertThrows(IllegalArgumentException.class, () -> PackedLimbs.pack(wide));
        assertThrows(IllegalArgumentException.class, () -> PackedLimbs.pack(limb, new long[16]));
        assertThrows(IllegalArgumentException.class, () -> PackedLimbs.unpack(packed, new long[48]));
        assertFalse(PackedLimbs.packs(1 << 20, 1024), "even moduli have no Montgomery form");
        assertFalse(PackedLimbs.packs(1, 1024));
        long[][] x = {packed};
        long[][] y = {limb};
        assertThrows(
                IllegalArgumentException.class,
                () -> vector.dot2MontgomeryPacked(x, y, null, 1, new long[64], null, big, false));
        assertThrows(
                IllegalArgumentException.class,
                () -> scalar.dot2MontgomeryPacked(y, y, null, 1, new long[64], null, q, false));
        // too many terms, a short second factor, a missing second output: named, not an index error
        for (LimbKernels k : new LimbKernels[] {scalar, vector}) {
            assertThrows(
                    IllegalArgumentException.class,
                    () -> k.dot2MontgomeryPacked(x, y, null, 2, new long[64], null, q, false));
            assertThrows(
                    IllegalArgumentException.class,
                    () -> k.dot2MontgomeryPacked(
                            x, new long[][] {new long[32]}, null, 1, new long[64], null, q, false));
            assertThrows(
                    IllegalArgumentException.class,
                    () -> k.dot2MontgomeryPacked(x, y, y, 1, new long[64], null, q, false));
            long[][] ys = {new long[64]}, zs = {new long[64]};
            assertThrows(
                    IllegalArgumentException.class,
                    () -> k.dot2MontgomeryMulti(
                            ys,
                            zs,
                            new long[][][] {{new long[64]}},
                            true,
                            1,
                            1,
                            new long[][] {new long[64]},
                            new long[][] {new long[64]},
                            q,
                            false),
                    "unpacked limbs passed as packed");
        }
    }

    @Test
    void liftSignedAndTheMultiOutputDiagonalSumsAgreeWithTheScalarTwinAndBigInteger() {
        SplittableRandom r = new SplittableRandom(23);
        for (int bits : new int[] {20, 30, 31, 36, 50, 59, 61}) {
            long q = Primes.nttPrimes(10, bits, 1).get(0);
            for (int n : new int[] {1024, 1000, 5}) {
                long[] c = new long[n];
                for (int k = 0; k < n; k++) c[k] = r.nextInt(4) == 0 ? 0 : (r.nextLong() >> (1 + r.nextInt(60)));
                // the edges of the branch-free sign fix: negative multiples of q (remainder 0), ±1, the range's ends
                long[] edges = {-q, -2 * q, q, -1, 1, Long.MAX_VALUE, -Long.MAX_VALUE, -(q - 1), q - 1};
                System.arraycopy(edges, 0, c, 0, Math.min(n, edges.length));
                long w = n == 1000 ? 1 : r.nextLong(q), ws = ModArith.shoupQuotient(w, q);
                long[] s = new long[n], v = new long[n];
                scalar.liftSigned(c, w, ws, q, s);
                vector.liftSigned(c, w, ws, q, v);
                assertArrayEquals(s, v, bits + " bits");
                for (int k = 0; k < n; k++) {
                    assertEquals(
                            BigInteger.valueOf(c[k])
                                    .multiply(BigInteger.valueOf(w))
                                    .mod(BigInteger.valueOf(q))
                                    .longValue(),
                            s[k]);
                }
            }
            // several outputs with absent terms, both kernels, against the definition (one factor in Montgomery form)
            int n = 1024, terms = 7, outs = 3;
            long[][] x = new long[terms][], y = new long[terms][];
            long[][][] f = new long[outs][terms][];
            for (int t = 0; t < terms; t++) {
                x[t] = rand(n, q);
                y[t] = rand(n, q);
            }
            for (int o = 0; o < outs; o++) for (int t = 0; t < terms; t++) if ((o + t) % 3 != 0) f[o][t] = rand(n, q);
            long[][] s0 = new long[outs][n], s1 = new long[outs][n], v0 = new long[outs][n], v1 = new long[outs][n];
            scalar.dot2MontgomeryMulti(x, y, f, false, terms, outs, s0, s1, q, false);
            vector.dot2MontgomeryMulti(x, y, f, false, terms, outs, v0, v1, q, false);
            assertArrayEquals(s0, v0);
            assertArrayEquals(s1, v1);
            BigInteger bq = BigInteger.valueOf(q),
                    rInv = BigInteger.ONE.shiftLeft(64).modInverse(bq);
            for (int o = 0; o < outs; o++) {
                for (int k = 0; k < n; k += 37) {
                    BigInteger a = BigInteger.ZERO;
                    for (int t = 0; t < terms; t++)
                        if (f[o][t] != null)
                            a = a.add(BigInteger.valueOf(f[o][t][k]).multiply(BigInteger.valueOf(x[t][k])));
                    assertEquals(a.multiply(rInv).mod(bq).longValue(), s0[o][k], bits + " bits, output " + o);
                }
            }
        }
    }

    /** The one-pass sum and difference equals subMod and addMod, residue for residue, at the edges of [0, q). */
    @Test
    void sumAndDifferenceEqualsAddModAndSubMod() {
        SplittableRandom r = new SplittableRandom(17);
        for (long q : new long[] {97, (1L << 40) - 87, (1L << 61) - 1}) {
            long[] a = new long[1024], b = new long[1024];
            for (int k = 0; k < a.length; k++) {
                a[k] = k < 4 ? new long[] {0, q - 1, 0, q - 1}[k] : r.nextLong(q);
                b[k] = k < 4 ? new long[] {0, q - 1, q - 1, 0}[k] : r.nextLong(q);
            }
            long[] sum = new long[a.length], diff = new long[a.length];
            LimbKernels.addMod(a, b, sum, q);
            LimbKernels.subMod(a, b, diff, q);
            LimbKernels.sumAndDifference(a, b, q);
            assertArrayEquals(diff, a, "a − b, q = " + q);
            assertArrayEquals(sum, b, "a + b, q = " + q);
        }
    }

    /** centre keeps residues up to ⌊q/2⌋ and takes the others below 0: the division's answer, at its edges too. */
    @Test
    void centreEqualsTheSignedResidue() {
        SplittableRandom r = new SplittableRandom(19);
        for (long q : new long[] {97, (1L << 40) - 87, (1L << 61) - 1}) {
            long[] a = new long[1024], want = new long[a.length];
            for (int k = 0; k < a.length; k++) {
                a[k] = k < 4 ? new long[] {0, q / 2, q / 2 + 1, q - 1}[k] : r.nextLong(q);
                want[k] = a[k] > q / 2 ? a[k] - q : a[k];
            }
            LimbKernels.centre(a, q);
            assertArrayEquals(want, a, "q = " + q);
        }
    }
}
