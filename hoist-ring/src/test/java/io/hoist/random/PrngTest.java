package io.hoist.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    /** The bulk fill is the scalar stream: same values, same stream position after it, across block edges. */
    @ParameterizedTest(name = "q = {0}")
    @ValueSource(
            longs = {1, 2, 3, 1073479681L, (1L << 40) + 1, 1152921504606584833L, 2305843009213693951L, (1L << 62) - 57})
    void fillUniformIsTheSameStreamAsUniform(long q) {
        byte[] seed = Prng.newSeed();
        SplittableRandom r = new SplittableRandom(q);
        Prng bulk = Prng.of(seed, 3), one = Prng.of(seed, 3);
        for (int round = 0; round < 6; round++) {
            int skip = r.nextInt(5), len = 1 + r.nextInt(6000), off = r.nextInt(4);
            for (int k = 0; k < skip; k++) assertEquals(one.nextLong(), bulk.nextLong());
            long[] got = new long[off + len + 2], want = new long[off + len + 2];
            bulk.fillUniform(q, got, off, off + len);
            for (int k = off; k < off + len; k++) want[k] = one.uniform(q);
            assertArrayEquals(want, got, "round " + round);
        }
        assertEquals(one.nextLong(), bulk.nextLong(), "both streams end at the same word");
    }

    /**
     * A prime just below 2^k rejects about one word in 2^(k−30) here: the lanes copy runs of accepted words,
     * and each rejected word sends one vector through the scalar twin. Over whole limbs, against the
     * one-at-a-time stream.
     */
    @ParameterizedTest(name = "q = 2^{0} − 2^30 + 1")
    @ValueSource(ints = {34, 38, 45})
    void fillUniformOverWholeLimbsWithRareRejections(int bits) {
        long q = (1L << bits) - (1L << 30) + 1;
        byte[] seed = Prng.newSeed();
        Prng bulk = Prng.of(seed, 11), one = Prng.of(seed, 11);
        for (int limb = 0; limb < 3; limb++) {
            long[] got = new long[1 << 14], want = new long[1 << 14];
            bulk.fillUniform(q, got, 0, got.length);
            for (int k = 0; k < want.length; k++) want[k] = one.uniform(q);
            assertArrayEquals(want, got, "limb " + limb);
        }
        assertEquals(one.nextLong(), bulk.nextLong(), "both streams end at the same word");
    }

    /** Held for the kernel warm-up, the fill runs on its scalar twin: the same stream. */
    @Test
    void heldLanesGiveTheSameStream() {
        byte[] seed = Prng.newSeed();
        long q = (1L << 38) - (1L << 30) + 1;
        Prng held = Prng.of(seed, 5), one = Prng.of(seed, 5);
        long[] got = new long[20000];
        Prng.holdLanes(true);
        try {
            held.fillUniform(q, got, 0, got.length);
        } finally {
            Prng.holdLanes(false);
        }
        for (int k = 0; k < got.length; k++) assertEquals(one.uniform(q), got[k], "word " + k);
    }

    /**
     * The warm-up's throwaway stream runs all its calls and draws no seed: under the deterministic test seeds the
     * seeds drawn around it are those drawn without it, and an open stream goes on as it would have.
     */
    @Test
    void warmCipherRunsItsCallsAndDrawsNoSeed() throws Exception {
        byte[][] plain = new byte[3][], warmed = new byte[3][];
        long open, openWarmed;
        try (AutoCloseable seeds = Prng.insecureDeterministicSeedsForTesting(11)) {
            for (int i = 0; i < 3; i++) plain[i] = Prng.newSeed();
            open = Prng.of(plain[0], 1).nextLong();
        }
        try (AutoCloseable seeds = Prng.insecureDeterministicSeedsForTesting(11)) {
            warmed[0] = Prng.newSeed();
            Prng stream = Prng.of(warmed[0], 1);
            assertEquals((long) Prng.WARM_CIPHER_CALLS * Prng.WARM_CIPHER_BYTES, Prng.warmCipher());
            for (int i = 1; i < 3; i++) warmed[i] = Prng.newSeed();
            openWarmed = stream.nextLong();
        }
        for (int i = 0; i < 3; i++) assertArrayEquals(plain[i], warmed[i], "seed " + i);
        assertEquals(open, openWarmed);
        assertNotEquals(open, Prng.of(plain[1], 1).nextLong(), "seeds separate streams");
    }

    /** The warm-up's call copies the zero words up to the vector that holds a word above q, and no further. */
    @Test
    void warmLanesCopiesUpToTheFirstRejectedVector() {
        byte[] block = new byte[8 * 64];
        Arrays.fill(block, 8 * 40, 8 * 41, (byte) -1);
        long[] out = new long[64];
        Arrays.fill(out, 7L);
        int copied = Prng.warmLanes(block, 97, out);
        assertTrue(copied == 0 || (copied <= 40 && copied > 40 - 16), "copied " + copied);
        for (int k = 0; k < 64; k++) assertEquals(k < copied ? 0L : 7L, out[k], "word " + k);
        assertThrows(IllegalArgumentException.class, () -> Prng.warmLanes(block, 1, out));
        assertThrows(IllegalArgumentException.class, () -> Prng.warmLanes(block, 97, new long[63]));
    }

    @Test
    void fillUniformRefusesARangeOutsideTheArray() {
        Prng p = Prng.fresh();
        long[] out = new long[8];
        assertThrows(IndexOutOfBoundsException.class, () -> p.fillUniform(97, out, 4, 9));
        assertThrows(IndexOutOfBoundsException.class, () -> p.fillUniform(97, out, 5, 4));
        assertThrows(IndexOutOfBoundsException.class, () -> p.fillUniform(1, out, 5, 4));
        assertThrows(IllegalArgumentException.class, () -> p.fillUniform(0, out, 2, 2));
    }

    /**
     * The lanes of the bulk fill, boxed when C2 does not inline them, would allocate about a megabyte per
     * 2^16 words; warm up (bounded) until C2 has compiled it, then count the bytes.
     */
    @Test
    void fillUniformAllocatesNothingAfterWarmup() {
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        Prng p = Prng.fresh();
        long[] out = new long[1 << 16];
        long q = 1152921504606584833L, id = Thread.currentThread().threadId(), perFill = Long.MAX_VALUE;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 200; i++) p.fillUniform(q, out, 0, out.length);
            long before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < 50; i++) p.fillUniform(q, out, 0, out.length);
            perFill = (mx.getThreadAllocatedBytes(id) - before) / 50;
            if (perFill < 1024) break;
        }
        assertTrue(perFill < 1024, "fillUniform allocates " + perFill + " bytes per 2^16 words after warm-up");
    }

    @Test
    void resetRestartsAsTheStreamOfTheNewSeedAndNonce() {
        byte[] s1 = Prng.newSeed(), s2 = Prng.newSeed();
        Prng p = Prng.of(s1, 1);
        p.nextLong();
        p.reset(s2, 9);
        Prng fresh = Prng.of(s2, 9);
        for (int i = 0; i < 1000; i++) assertEquals(fresh.nextLong(), p.nextLong());
        assertThrows(IllegalArgumentException.class, () -> p.reset(new byte[8], 0));
    }
}
