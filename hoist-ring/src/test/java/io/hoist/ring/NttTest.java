package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.math.ModArith;
import io.hoist.math.Modulus;
import io.hoist.math.Primes;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NttTest {

    static Stream<Arguments> backendsAndPrimes() {
        List<Arguments> out = new ArrayList<>();
        for (String b : List.of(ScalarNttBackend.NAME, VectorNttBackend.NAME)) {
            for (int logN : new int[] {4, 10, 12}) {
                for (int bits : new int[] {30, 50, 59, 61, 62}) {
                    out.add(Arguments.of(b, logN, bits));
                }
            }
        }
        return out.stream();
    }

    /** Spec §11 item 9, literally: q = 17, N = 8, ψ = 3, a = [1..8]. */
    @Test
    void specNumericExample() {
        NttTables t = NttTables.of(3, 17);
        long[] a = {1, 2, 3, 4, 5, 6, 7, 8};
        ScalarNttBackend.forwardKernel(a, t);
        assertArrayEquals(new long[] {5, 0, 13, 8, 9, 11, 5, 8}, a);
        ScalarNttBackend.inverseKernel(a, t);
        assertArrayEquals(new long[] {1, 2, 3, 4, 5, 6, 7, 8}, a);
    }

    @ParameterizedTest
    @MethodSource("backendsAndPrimes")
    void roundTripAndProductMatchSchoolbook(String backendName, int logN, int bits) {
        NttEngine engine = new NttEngine(NttBackends.get(backendName), new OpCounters());
        int n = 1 << logN;
        long q = Primes.nttPrimes(logN, bits, 1).get(0);
        NttTables t = NttTables.of(logN, q);
        SplittableRandom r = new SplittableRandom(logN * 100L + bits);
        long[] a = random(r, n, q), b = random(r, n, q);
        if (bits == 62) {
            a[0] = q - 1;
            b[n - 1] = q - 1;
        }
        long[] a0 = a.clone(), b0 = b.clone();
        engine.forward(new long[][] {a, b}, new NttTables[] {t, t}, 2);
        long[] c = new long[n];
        for (int i = 0; i < n; i++) c[i] = ModArith.mulModSlow(a[i], b[i], q);
        engine.inverse(new long[][] {a, b, c}, new NttTables[] {t, t, t}, 3);
        assertArrayEquals(a0, a, "INTT(NTT(a)) = a");
        assertArrayEquals(b0, b, "INTT(NTT(b)) = b");
        assertArrayEquals(schoolbook(a0, b0, q), c, "NTT product = negacyclic schoolbook product");
    }

    @Test
    void outputsAreFullyReducedAndBitReversedEvaluations() {
        int logN = 5, n = 32;
        long q = Primes.nttPrimes(logN, 40, 1).get(0);
        NttTables t = NttTables.of(logN, q);
        SplittableRandom r = new SplittableRandom(5);
        long[] a = random(r, n, q), A = a.clone();
        ScalarNttBackend.forwardKernel(A, t);
        for (int slot = 0; slot < n; slot++) {
            long e = 2L * Automorphism.brev(slot, logN) + 1;
            long x = ModArith.powMod(t.psi(), e, q), acc = 0, pw = 1;
            for (int i = 0; i < n; i++) {
                acc = (acc + ModArith.mulModSlow(a[i], pw, q)) % q;
                pw = ModArith.mulModSlow(pw, x, q);
            }
            Assertions.assertEquals(acc, A[slot], "slot " + slot + " = a(ψ^(2·brev(t)+1))");
        }
    }

    @Test
    void badBatchesAreRejected() {
        NttTables t = NttTables.of(10, Primes.nttPrimes(10, 40, 1).get(0));
        NttBackend s = NttBackends.scalar();
        assertThrows(
                IllegalArgumentException.class, () -> s.forward(new long[][] {new long[512]}, new NttTables[] {t}, 1));
        assertThrows(
                IllegalArgumentException.class, () -> s.forward(new long[][] {new long[1024]}, new NttTables[] {t}, 2));
        assertThrows(IllegalArgumentException.class, () -> NttTables.of(10, 65537 + 2048));
        assertThrows(IllegalArgumentException.class, () -> NttTables.of(18, 65537));
        assertThrows(IllegalArgumentException.class, () -> NttBackends.get("no-such-backend"));
    }

    static long[] random(SplittableRandom r, int n, long q) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) a[i] = r.nextLong(q);
        return a;
    }

    /** Obviously-correct negacyclic product: X^N = −1. */
    static long[] schoolbook(long[] a, long[] b, long q) {
        int n = a.length;
        Modulus m = Modulus.of(q); // mulMod itself is checked against BigInteger
        long[] c = new long[n];
        for (int i = 0; i < n; i++) {
            if (a[i] == 0) continue;
            for (int j = 0; j < n; j++) {
                long p = m.mul(a[i], b[j]);
                int k = i + j;
                if (k < n) c[k] = ModArith.addMod(c[k], p, q);
                else c[k - n] = ModArith.subMod(c[k - n], p, q);
            }
        }
        return c;
    }
}
