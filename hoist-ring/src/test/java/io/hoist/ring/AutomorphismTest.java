package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.math.Primes;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AutomorphismTest {

    /** Spec §11 item 8: NTT-domain index tables for N = 8. */
    @Test
    void specIndexTablesForN8() {
        assertArrayEquals(new int[] {2, 3, 1, 0, 7, 6, 4, 5}, Automorphism.nttIndex(3, 5));
        assertArrayEquals(new int[] {1, 0, 3, 2, 5, 4, 7, 6}, Automorphism.nttIndex(3, 9));
        assertArrayEquals(new int[] {3, 2, 0, 1, 6, 7, 5, 4}, Automorphism.nttIndex(3, 13));
        assertArrayEquals(new int[] {7, 6, 5, 4, 3, 2, 1, 0}, Automorphism.nttIndex(3, 15));
        assertArrayEquals(new int[] {4, 5, 7, 6, 1, 0, 2, 3}, Automorphism.nttIndex(3, 3));
    }

    /** Spec §11 item 9: q = 17, N = 8, ψ = 3, a = [1..8]. */
    @Test
    void specNumericCheck() {
        Ring ring = new Ring(3, new long[] {17}, new NttEngine(NttBackends.scalar(), new OpCounters()));
        RnsPoly a = ring.wrap(new long[][] {{1, 2, 3, 4, 5, 6, 7, 8}}, Domain.COEFFICIENT);
        RnsPoly a5 = ring.newPoly(0, Domain.COEFFICIENT), a15 = ring.newPoly(0, Domain.COEFFICIENT);
        ring.automorphism(a, 5, a5);
        ring.automorphism(a, 15, a15);
        assertArrayEquals(new long[] {1, 11, 14, 8, 5, 2, 10, 13}, a5.limb(0));
        assertArrayEquals(new long[] {1, 9, 10, 11, 12, 13, 14, 15}, a15.limb(0));
        ring.ntt(a);
        ring.ntt(a5);
        ring.ntt(a15);
        assertArrayEquals(new long[] {5, 0, 13, 8, 9, 11, 5, 8}, a.limb(0));
        assertArrayEquals(new long[] {13, 8, 0, 5, 8, 5, 9, 11}, a5.limb(0));
        assertArrayEquals(new long[] {8, 5, 11, 9, 8, 13, 0, 5}, a15.limb(0));
        RnsPoly p = ring.newPoly(0, Domain.NTT);
        ring.automorphism(a, 5, p);
        assertArrayEquals(a5.limb(0), p.limb(0), "NTT(a) permuted by idx(g=5)");
    }

    /** Spec §11 item 10: Galois elements for N = 2^16. */
    @Test
    void specGaloisElements() {
        assertEquals(5, Automorphism.galoisElement(16, 1));
        assertEquals(25, Automorphism.galoisElement(16, 2));
        assertEquals(125, Automorphism.galoisElement(16, 3));
        assertEquals(61313, Automorphism.galoisElement(16, 32));
        assertEquals(126977, Automorphism.galoisElement(16, 1024));
        assertEquals(65537, Automorphism.galoisElement(16, 16384));
        assertEquals(131071, Automorphism.conjugationElement(16));
        // negative steps rotate right: 5^-1 · 5 ≡ 1
        assertEquals(1, Automorphism.galoisElement(16, -1) * 5 % (2 << 16));
    }

    /** NTT(φ_g(a)) = φ_g^NTT(NTT(a)) for many g, several primes, N = 2^10 and 2^12. */
    @Test
    void nttDomainPermutationEqualsCoefficientMapThenNtt() {
        SplittableRandom r = new SplittableRandom(31);
        for (int logN : new int[] {10, 12}) {
            long[] ps = BConvTest.toArray(Primes.nttPrimes(logN, 50, 3));
            Ring ring = new Ring(logN, ps);
            for (long g : new long[] {
                5,
                25,
                Automorphism.galoisElement(logN, -1),
                Automorphism.galoisElement(logN, 77),
                Automorphism.conjugationElement(logN),
                3,
                (2L << logN) - 5
            }) {
                RnsPoly a = ring.newPoly(2, Domain.COEFFICIENT);
                for (int i = 0; i < 3; i++) a.limb(i)[0] = 0;
                for (int i = 0; i < 3; i++) for (int k = 1; k < ring.n(); k++) a.limb(i)[k] = r.nextLong(ps[i]);
                RnsPoly viaCoeff = ring.newPoly(2, Domain.COEFFICIENT);
                ring.automorphism(a, g, viaCoeff);
                ring.ntt(viaCoeff);
                ring.ntt(a);
                RnsPoly viaNtt = ring.newPoly(2, Domain.NTT);
                ring.automorphism(a, g, viaNtt);
                assertEquals(viaCoeff, viaNtt, "g=" + g + ", N=2^" + logN);
            }
        }
    }

    /** Spec §11 item 11: every destination row of d_p lanes takes all its entries from a single source row. */
    @Test
    void rowStructure() {
        for (int logN : new int[] {10, 12, 16}) {
            for (long g : new long[] {
                5, 25, 125, Automorphism.galoisElement(logN, 1000), Automorphism.conjugationElement(logN)
            }) {
                int[] idx = Automorphism.nttIndex(logN, g);
                for (int dp : new int[] {8, 64, 256}) {
                    for (int row = 0; row < idx.length / dp; row++) {
                        int src = idx[row * dp] / dp;
                        for (int c = 1; c < dp; c++)
                            assertEquals(src, idx[row * dp + c] / dp, "N=2^" + logN + " g=" + g + " dp=" + dp);
                    }
                }
            }
        }
    }

    @Test
    void evenElementsAndInPlaceAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Automorphism.nttIndex(10, 4));
        Ring ring = new Ring(10, BConvTest.toArray(Primes.nttPrimes(10, 40, 1)));
        RnsPoly a = ring.newPoly(0, Domain.NTT);
        assertThrows(IllegalArgumentException.class, () -> ring.automorphism(a, 5, a));
    }
}
