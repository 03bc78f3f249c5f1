package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.math.Primes;
import io.hoist.random.Prng;
import io.hoist.ring.NttBackends;
import io.hoist.ring.NttEngine;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SamplerTest {
    @Test
    void sparseTernaryHasExactlyTheRequestedWeight() {
        for (int h : new int[] {1, 64, 1024}) {
            long[] s = Sampler.ternary(Prng.fresh(), 1024, SecretDistribution.sparseTernary(h));
            int weight = 0;
            for (long c : s) {
                assertTrue(c >= -1 && c <= 1);
                if (c != 0) weight++;
            }
            assertEquals(h, weight);
        }
    }

    /**
     * The oblivious sampler's positions and signs are uniform: over 20000 draws of h = 4 among n = 12 (a length the
     * sorting network pads), each position is nonzero about h/n of the time and each sign half of that, within five
     * standard deviations; no draw reaches past n.
     */
    @Test
    void sparseTernaryPositionsAndSignsAreUniform() {
        int n = 12, h = 4, draws = 20000;
        Prng prng = Prng.of(new byte[Prng.SEED_BYTES], 1);
        int[] hits = new int[n], plus = new int[n];
        for (int d = 0; d < draws; d++) {
            long[] s = new long[n];
            Sampler.sparseTernary(prng, h, s);
            int weight = 0;
            for (int k = 0; k < n; k++) {
                if (s[k] != 0) {
                    weight++;
                    hits[k]++;
                }
                if (s[k] == 1) plus[k]++;
            }
            assertEquals(h, weight);
        }
        double p = (double) h / n, mean = draws * p, sd = Math.sqrt(draws * p * (1 - p));
        for (int k = 0; k < n; k++) {
            assertTrue(Math.abs(hits[k] - mean) < 5 * sd, "position " + k + ": " + hits[k] + " against " + mean);
            double half = hits[k] / 2.0, sdSign = Math.sqrt(hits[k] / 4.0);
            assertTrue(Math.abs(plus[k] - half) < 5 * sdSign, "signs at " + k + ": " + plus[k] + " of " + hits[k]);
        }
    }

    /**
     * Signed coefficients lifted to every limb, on the scalar and the default engine, against BigInteger:
     * random signs (the case a branch on the sign mispredicts), the edges ±(2^63 − 1), ±q, ±(q ± 1), 0, and
     * primes from 20 to 62 bits (the vector lift hands 2^61 and up to its scalar twin).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"cpu-scalar", "cpu"})
    void fromSignedIsTheResidueOfEverySignedCoefficient(String backend) {
        int logN = 10, n = 1 << logN;
        long[] primes = {
            Primes.nttPrimes(logN, 20, 1).get(0),
            Primes.nttPrimes(logN, 40, 1).get(0),
            Primes.nttPrimes(logN, 55, 1).get(0),
            Primes.nttPrimes(logN, 61, 1).get(0),
            Primes.nttPrimes(logN, 62, 1).get(0)
        };
        Ring ring = new Ring(logN, primes, new NttEngine(NttBackends.get(backend), new OpCounters()));
        SplittableRandom r = new SplittableRandom(11);
        long[] c = new long[n];
        for (int k = 0; k < n; k++) c[k] = r.nextLong() >> r.nextInt(64);
        long[] edges = {0, 1, -1, Long.MAX_VALUE, -Long.MAX_VALUE};
        System.arraycopy(edges, 0, c, 0, edges.length);
        for (int i = 0; i < primes.length; i++) {
            c[8 + 6 * i] = primes[i];
            c[9 + 6 * i] = -primes[i];
            c[10 + 6 * i] = primes[i] + 1;
            c[11 + 6 * i] = -primes[i] - 1;
            c[12 + 6 * i] = primes[i] - 1;
            c[13 + 6 * i] = 1 - primes[i];
        }
        RnsPoly p = Sampler.fromSigned(ring, primes.length - 1, c);
        for (int i = 0; i < primes.length; i++) {
            BigInteger q = BigInteger.valueOf(primes[i]);
            long[] one = new long[n];
            Sampler.fromSigned(c, primes[i], one);
            for (int k = 0; k < n; k++) {
                long want = BigInteger.valueOf(c[k]).mod(q).longValueExact();
                assertEquals(want, p.limb(i)[k], "limb " + i + ", coefficient " + c[k]);
                assertEquals(want, one[k], "one limb " + i + ", coefficient " + c[k]);
            }
        }
        long[] bad = new long[n];
        bad[3] = Long.MIN_VALUE;
        assertThrows(IllegalArgumentException.class, () -> Sampler.fromSigned(ring, 0, bad));
        assertThrows(IllegalArgumentException.class, () -> Sampler.fromSigned(ring, 0, new long[n - 1]));
        assertThrows(IllegalArgumentException.class, () -> Sampler.fromSigned(c, primes[0], new long[n + 1]));
        assertThrows(IllegalArgumentException.class, () -> Sampler.fromSigned(c, 1, new long[n]));
        assertThrows(IllegalArgumentException.class, () -> Sampler.fromSigned(c, (1L << 62) + 1, new long[n]));
    }
}
