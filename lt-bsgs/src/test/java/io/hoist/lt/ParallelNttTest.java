package io.hoist.lt;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.RotationKeySet;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/** Limb NTT batches and diagonal encoding spread over threads: bit-identical to one thread, counts unchanged. */
class ParallelNttTest {
    @Test
    void evaluationsAreBitIdenticalForOneTwoAndFourThreads() {
        LtFixture f = new LtFixture(12, new int[] {50, 40, 40}, new int[] {60, 60});
        LinearTransform m = LtFixture.randomDense(new SplittableRandom(4), 64);
        for (Algorithm a : Algorithm.values()) {
          for (Storage storage : Storage.values()) {
            Plan plan = Plan.auto(m, f.params, f.params.maxLevel(), a, Objective.FEWEST_KEYS, 0);
            RotationKeySet keys = f.keysFor(plan);
            Ciphertext x = f.encrypt(m, ComplexVector.random(new SplittableRandom(5), 64));
            Ciphertext ref = null;
            java.util.Map<io.hoist.ring.Op, Long> refCounts = null;
            for (int threads : new int[] {1, 2, 4}) {
                CkksContext ctx = CkksContext.create(f.params, null, threads);
                assertEquals(threads, ctx.engine().threads());
                LinearTransformEvaluator lt = new LinearTransformEvaluator(ctx, keys);
                Evaluation e = lt.evaluate(x, lt.encode(m, plan, f.params.maxLevel(), storage), Schedule.direct());   // encoding runs on the threads too
                if (ref == null) { ref = e.result(); refCounts = e.counts(); continue; }
                for (int p = 0; p < 2; p++) {
                    for (int i = 0; i <= ref.level(); i++) assertArrayEquals(ref.poly(p).limb(i), e.result().poly(p).limb(i), a + " threads " + threads);
                }
                assertEquals(refCounts, e.counts(), a + " threads " + threads);
            }
          }
        }
        assertThrows(IllegalArgumentException.class, () -> CkksContext.create(f.params, null, 0));
    }

    @Test
    void rotationKeysMadeOnSeveralThreadsWork() {
        LtFixture f = new LtFixture(12, new int[] {50, 40, 40}, new int[] {60, 60});
        LinearTransform m = LtFixture.randomDense(new SplittableRandom(6), 64);
        Plan plan = Plan.auto(m, f.params, f.params.maxLevel(), Algorithm.TH_BSGS, Objective.FEWEST_KEYS, 0);
        CkksContext ctx = CkksContext.create(f.params, null, 4);
        RotationKeySet keys = new io.hoist.keygen.KeyGenerator(ctx).genRotationKeys(f.sk, f.params.maxLevel(), plan.rotationKeys(f.params));
        assertEquals(plan.rotationKeys(f.params), com.google.common.collect.ImmutableSortedSet.copyOf(keys.galoisElements()));
        ComplexVector v = ComplexVector.random(new SplittableRandom(7), 64);
        LinearTransformEvaluator lt = new LinearTransformEvaluator(ctx, keys);
        Ciphertext y = lt.evaluate(f.encrypt(m, v), lt.encode(m, plan, f.params.maxLevel(), Storage.PRECOMPUTED));
        assertTrue(f.precision(m.replicate(m.apply(v), f.params.slots()), y).minBits() > 20);
    }
}
