package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.math.Primes;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BConvTest {

    /** BConv_{C→D}(x) = x + u·C (mod each d_j) with 0 ≤ u < |C|, against a BigInteger CRT reference. */
    @Test
    void matchesBigIntegerCrtUpToSmallMultipleOfC() {
        int logN = 10, n = 1 << logN;
        SplittableRandom r = new SplittableRandom(21);
        int[][] shapes = {{1, 1}, {3, 2}, {4, 9}, {12, 5}, {16, 3}};
        int[] bitsC = {30, 50, 59, 61, 62};
        for (int[] shape : shapes) {
            for (int bits : bitsC) {
                List<Long> used = new ArrayList<>();
                long[] cs = toArray(Primes.nttPrimes(logN, bits, shape[0], used));
                for (long c : cs) used.add(c);
                long[] ds = toArray(Primes.nttPrimes(logN, bits == 62 ? 61 : bits + 1, shape[1], used));
                RnsBasis from = new RnsBasis(cs), to = new RnsBasis(ds);
                long[][] in = new long[cs.length][n], out = new long[ds.length][n];
                for (int i = 0; i < cs.length; i++) for (int k = 0; k < n; k++) in[i][k] = r.nextLong(cs[i]);
                for (int i = 0; i < cs.length; i++) in[i][0] = cs[i] - 1; // x = C − 1 at coefficient 0
                OpCounters counters = new OpCounters();
                BConv bc = new BConv(from, to);
                bc.apply(in, out, n, counters);
                assertEquals(1, counters.get(Op.BCONV));
                assertEquals(bc.modMuls(n), counters.get(Op.MOD_MULS));
                BigInteger C = from.product();
                for (int k = 0; k < n; k++) {
                    long[] res = new long[cs.length];
                    for (int i = 0; i < cs.length; i++) res[i] = in[i][k];
                    BigInteger x = from.reconstruct(res);
                    boolean found = false;
                    for (int u = 0; u < cs.length && !found; u++) {
                        BigInteger y = x.add(C.multiply(BigInteger.valueOf(u)));
                        boolean all = true;
                        for (int j = 0; j < ds.length; j++)
                            all &= y.mod(BigInteger.valueOf(ds[j])).longValue() == out[j][k];
                        found = all;
                    }
                    assertTrue(
                            found,
                            "coefficient " + k + ": output is not x + u·C for 0 ≤ u < |C| (" + shape[0] + "→" + shape[1]
                                    + ", " + bits + " bits)");
                }
            }
        }
    }

    /**
     * The centred flavour: u = round(Σ y_i/c_i) bit for bit as the sum taken coefficient by coefficient in order
     * (0.5 first, then the terms), over lengths that are not whole blocks; and the converted limbs are the
     * centred representative of x in [−C/2, C/2) wherever x is not within 2^-20·C of ±C/2 (there the
     * floating-point estimate may round either way).
     */
    @ParameterizedTest(name = "{0} primes of {1} bits, n = {2}")
    @CsvSource({"1, 50, 300", "3, 59, 1000", "5, 60, 1024", "6, 61, 777", "5, 40, 4096"})
    void centredEstimateAndConversion(int nc, int bits, int n) {
        int logN = 10;
        SplittableRandom r = new SplittableRandom(31L * nc + bits);
        List<Long> used = new ArrayList<>();
        long[] cs = toArray(Primes.nttPrimes(logN, bits, nc, used));
        for (long c : cs) used.add(c);
        long[] ds = toArray(Primes.nttPrimes(logN, 61, 4, used));
        RnsBasis from = new RnsBasis(cs), to = new RnsBasis(ds);
        long[][] in = new long[nc][n], y = new long[nc][n], out = new long[ds.length][n];
        for (int i = 0; i < nc; i++) for (int k = 0; k < n; k++) in[i][k] = r.nextLong(cs[i]);
        for (int i = 0; i < nc; i++) {
            in[i][0] = cs[i] - 1; // x = C − 1: the centred value is −1
            in[i][1] = 0;
            in[i][2] = 1;
        }
        long[] u = new long[n];
        BConv bc = new BConv(from, to);
        bc.prepare(in, y, u, n, null, LimbKernels.best());
        bc.convert(y, u, out, 0, ds.length, n, null, LimbKernels.best());
        BigInteger c = from.product(), half = c.shiftRight(1);
        BigInteger margin = c.shiftRight(20);
        for (int k = 0; k < n; k++) {
            double sum = 0.5;
            for (int i = 0; i < nc; i++) sum += (double) y[i][k] * (1.0 / cs[i]);
            assertEquals((long) sum, u[k], "u at coefficient " + k);
            long[] res = new long[nc];
            for (int i = 0; i < nc; i++) res[i] = in[i][k];
            BigInteger x = from.reconstruct(res);
            if (x.subtract(half).abs().compareTo(margin) < 0) continue;
            BigInteger centred = x.compareTo(half) >= 0 ? x.subtract(c) : x;
            for (int j = 0; j < ds.length; j++) {
                assertEquals(
                        centred.mod(BigInteger.valueOf(ds[j])).longValue(),
                        out[j][k],
                        "coefficient " + k + ", target " + j);
            }
        }
    }

    @Test
    void crtReconstructionRoundTrips() {
        long[] ps = toArray(Primes.nttPrimes(10, 50, 4));
        RnsBasis b = new RnsBasis(ps);
        BigInteger x = b.product().subtract(BigInteger.valueOf(12345));
        long[] res = new long[ps.length];
        for (int i = 0; i < ps.length; i++)
            res[i] = x.mod(BigInteger.valueOf(ps[i])).longValue();
        assertEquals(x, b.reconstruct(res));
    }

    @Test
    void rejectsBadShapes() {
        long[] ps = toArray(Primes.nttPrimes(10, 50, 3));
        assertThrows(IllegalArgumentException.class, () -> new RnsBasis(ps[0], ps[0]));
        BConv bc = new BConv(new RnsBasis(ps[0], ps[1]), new RnsBasis(ps[2]));
        assertThrows(IllegalArgumentException.class, () -> bc.apply(new long[1][1024], new long[1][1024], 1024, null));
        assertThrows(IllegalArgumentException.class, () -> bc.apply(new long[2][1024], new long[1][512], 1024, null));
    }

    static long[] toArray(List<Long> l) {
        return l.stream().mapToLong(Long::longValue).toArray();
    }
}
