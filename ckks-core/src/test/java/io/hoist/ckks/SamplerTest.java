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
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
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
     * The table-driven sample against a slow obvious one: walk the cumulative distribution of |x| computed afresh
     * (in BigDecimal, from the same weights) until it passes r, then apply the sign; random bits and the edges.
     */
    @ParameterizedTest(name = "sigma {0}")
    @ValueSource(doubles = {0.1, 1, 3.2, 6.4, 20})
    void aGaussianSampleIsTheQuantileOfItsUniformBits(double sigma) {
        long[] tails = Sampler.tailTable(sigma);
        int bound = (int) Math.floor(6 * sigma);
        assertEquals(bound, tails.length);
        BigDecimal[] weight = new BigDecimal[bound + 1];
        BigDecimal total = BigDecimal.ZERO;
        for (int j = 0; j <= bound; j++) {
            double w = (j == 0 ? 1 : 2) * Math.exp(-(double) j * j / (2 * sigma * sigma));
            weight[j] = new BigDecimal(w);
            total = total.add(weight[j]);
        }
        BigDecimal two63 = new BigDecimal(BigInteger.ONE.shiftLeft(63));
        SplittableRandom random = new SplittableRandom(7);
        long[] bits = new long[20000];
        for (int i = 0; i < bits.length; i++) bits[i] = random.nextLong();
        long[] edges = {0, 1, -1, -2, Long.MAX_VALUE, Long.MIN_VALUE};
        System.arraycopy(edges, 0, bits, 0, edges.length);
        for (long x : bits) {
            BigDecimal r = new BigDecimal(x >>> 1).add(BigDecimal.ONE).divide(two63);
            int magnitude = 0;
            BigDecimal below = weight[0].divide(total, MathContext.DECIMAL128), previous = BigDecimal.ZERO;
            // |x| = the first j whose cumulative probability reaches r (the tables round at 2^-63; skip those ties)
            while (magnitude < bound && below.compareTo(r) < 0) {
                magnitude++;
                previous = below;
                below = below.add(weight[magnitude].divide(total, MathContext.DECIMAL128));
            }
            BigDecimal tie = BigDecimal.ONE.divide(new BigDecimal(BigInteger.ONE.shiftLeft(50)));
            if (below.subtract(r).abs().compareTo(tie) < 0
                    || previous.subtract(r).abs().compareTo(tie) < 0) continue;
            long want = (x & 1) == 0 ? magnitude : -magnitude;
            assertEquals(want, Sampler.fromUniform(x, tails), "bits " + Long.toHexString(x));
        }
        assertEquals(0, Sampler.fromUniform(0, tails));
        assertEquals(-bound, Sampler.fromUniform(-1, tails));
    }

    /**
     * 400000 samples of σ = 3.2 against D_{Z,σ}: the frequency of every value within five standard deviations of its
     * probability, none past ⌊6σ⌋ = 19, the mean within five standard errors of 0 and the variance within 1 % of σ².
     */
    @Test
    void gaussianSamplesFollowTheDiscreteGaussian() {
        double sigma = 3.2;
        int n = 400000, bound = 19;
        long[] x = Sampler.gaussian(Prng.of(new byte[Prng.SEED_BYTES], 3), n, sigma);
        long[] count = new long[2 * bound + 1];
        double sum = 0, squares = 0;
        for (long v : x) {
            assertTrue(Math.abs(v) <= bound, "sample " + v);
            count[(int) v + bound]++;
            sum += v;
            squares += (double) v * v;
        }
        double total = 0;
        for (int k = -bound; k <= bound; k++) total += Math.exp(-(double) k * k / (2 * sigma * sigma));
        double variance = 0;
        for (int k = -bound; k <= bound; k++) {
            double p = Math.exp(-(double) k * k / (2 * sigma * sigma)) / total;
            variance += p * k * k;
            double mean = n * p, sd = Math.sqrt(n * p * (1 - p));
            assertTrue(
                    Math.abs(count[k + bound] - mean) < 5 * sd + 1, k + ": " + count[k + bound] + " against " + mean);
        }
        assertTrue(Math.abs(sum / n) < 5 * Math.sqrt(variance / n), "mean " + sum / n);
        assertEquals(variance, squares / n, 0.01 * variance);
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
