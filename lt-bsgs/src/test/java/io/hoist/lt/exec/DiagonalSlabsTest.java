package io.hoist.lt.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Progress;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.LtFixture;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Precomputed diagonals held in slabs: many small slabs hold the same limbs, bit for bit, as one, on
 * packed and unpacked primes, and no two limbs share a word.
 */
class DiagonalSlabsTest {
    @Test
    void smallSlabsHoldTheSameLimbsAsOneAndNoTwoLimbsOverlap() {
        LtFixture f = new LtFixture(10, 9, new int[] {33, 30, 30}, new int[] {35});
        LinearTransform t = LtFixture.randomDense(new SplittableRandom(41), 128);
        int level = f.params.maxLevel(), n = f.params.n();
        for (Plan p : List.of(Plan.of(t, Algorithm.TH_BSGS, 4, 4, 8), Plan.of(t, Algorithm.DH_BSGS, 16, 8))) {
            EncodedDiagonals one = new DiagonalEncoder(f.ctx)
                    .encodeDiagonals(t, p, level, Storage.PRECOMPUTED, f.params.q(level), true, Progress.NONE, null);
            // a slab of about five diagonals' words: several slabs, each filled by whole diagonals
            EncodedDiagonals many = new DiagonalEncoder(f.ctx, 5 * 4 * n)
                    .encodeDiagonals(t, p, level, Storage.PRECOMPUTED, f.params.q(level), true, Progress.NONE, null);
            Set<long[]> slabs = Collections.newSetFromMap(new IdentityHashMap<>());
            IdentityHashMap<long[], boolean[]> taken = new IdentityHashMap<>();
            int limbs = f.params.qpPrimes(level).length;
            for (int r : p.indices()) {
                int held = p.baby(r) == 0 ? level + 1 : limbs;
                for (int j = 0; j < held; j++) {
                    int words = many.packed(j) ? n / 2 : n;
                    long[] a = one.slab(r), b = many.slab(r);
                    int oa = one.offsets(r)[j], ob = many.offsets(r)[j];
                    assertArrayEquals(
                            Arrays.copyOfRange(a, oa, oa + words),
                            Arrays.copyOfRange(b, ob, ob + words),
                            p.algorithm() + ": diagonal " + r + ", limb " + j);
                    slabs.add(b);
                    boolean[] used = taken.computeIfAbsent(b, s -> new boolean[s.length]);
                    for (int w = ob; w < ob + words; w++) {
                        assertTrue(!used[w], "word " + w + " of a slab held twice");
                        used[w] = true;
                    }
                }
            }
            assertTrue(slabs.size() > 2, p.algorithm() + ": " + slabs.size() + " slabs");
            // every word of every slab belongs to a limb: slabs are allocated at the size they hold
            for (boolean[] used : taken.values()) for (boolean u : used) assertTrue(u, "a slab word no limb holds");
            // the slabs hold exactly the words memoryBytes reports
            long slabWords = 0;
            for (long[] slab : slabs) slabWords += slab.length;
            assertEquals(many.memoryBytes(), 8 * slabWords);
        }
    }
}
