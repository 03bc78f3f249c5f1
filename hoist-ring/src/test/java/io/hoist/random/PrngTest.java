package io.hoist.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PrngTest {
    @Test
    void seededStreamsAreReproducibleAndSeparatedByNonce() {
        byte[] seed = Prng.newSeed();
        Prng a = Prng.of(seed, 7), b = Prng.of(seed, 7), c = Prng.of(seed, 8);
        long[] x = new long[1000], y = new long[1000], z = new long[1000];
        for (int i = 0; i < 1000; i++) {
            x[i] = a.nextLong();
            y[i] = b.nextLong();
            z[i] = c.nextLong();
        }
        assertArrayEquals(x, y);
        assertTrue(!Arrays.equals(x, z));
    }

    @Test
    void uniformCoversTheRangeIncludingTheEdges() {
        Prng p = Prng.fresh();
        for (int i = 0; i < 100; i++) assertEquals(0, p.uniform(1));
        int[] hist = new int[3];
        for (int i = 0; i < 30000; i++) hist[(int) p.uniform(3)]++;
        for (int h : hist) assertTrue(Math.abs(h - 10000) < 600, Arrays.toString(hist));
        long big = (1L << 62) - 57;
        for (int i = 0; i < 10000; i++) {
            long v = p.uniform(big);
            assertTrue(v >= 0 && v < big);
        }
        assertThrows(IllegalArgumentException.class, () -> p.uniform(0));
        assertThrows(IllegalArgumentException.class, () -> Prng.of(new byte[16], 0));
    }
}
