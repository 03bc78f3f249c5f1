package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.RotationKeySet;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One Evaluator shared by several threads: every result must be what a single thread computes. */
class ConcurrencyTest {
    @Test
    void sharedEvaluatorGivesTheSameResultsUnderContention() throws Exception {
        CkksFixture f = new CkksFixture(CkksFixture.small(11, new int[] {55, 40, 40}, new int[] {61, 61}));
        int[] steps = {1, 2, 3, 5, 8, 13};
        RotationKeySet rot = f.kg.genRotationKeysForSteps(f.sk, f.params.maxLevel(), steps, true);
        Evaluator ev = f.evaluator(rot);
        SplittableRandom r = new SplittableRandom(3);
        ComplexVector v = ComplexVector.random(r, f.params.slots()), w = ComplexVector.random(r, f.params.slots());
        Ciphertext a = f.encrypt(v), b = f.encrypt(w);
        // single-threaded reference: deterministic ciphertexts (no randomness after encryption)
        List<Ciphertext> reference = new ArrayList<>();
        for (int k : steps) reference.add(ev.rotate(a, k));
        Ciphertext refMul = ev.rescale(ev.mulRelin(a, b));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> jobs = new ArrayList<>();
            for (int rep = 0; rep < 8; rep++) {
                final int offset = rep;
                jobs.add(pool.submit(() -> {
                    for (int i = 0; i < steps.length; i++) {
                        int idx = (i + offset) % steps.length;
                        if (!ev.rotate(a, steps[idx]).equals(reference.get(idx))) return false;
                    }
                    return ev.rescale(ev.mulRelin(a, b)).equals(refMul)
                            && ev.rotateHoisted(a, steps)
                                    .get(steps[offset % steps.length])
                                    .equals(reference.get(offset % steps.length));
                }));
            }
            for (Future<Boolean> j : jobs)
                assertTrue(j.get(), "a concurrent result differs from the single-threaded one");
        } finally {
            pool.shutdown();
        }
        assertEquals(steps.length, reference.size());
        assertTrue(PrecisionStats.of(v.mul(w), f.decrypt(refMul)).minBits() > 18);
    }
}
