package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.RotationKeySet;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A caller interrupted during a two-thread evaluation gets an exception once the parallel work has finished, and
 * every pooled limb is back: the INTT copies of Decompose, the digits of a rotation and ModDown's prologue buffers
 * were borrowed outside their try blocks and leaked on each interruption.
 */
class InterruptedEvaluationTest {
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "BSGS, PRECOMPUTED", "DH_BSGS, PRECOMPUTED", "TH_BSGS, PRECOMPUTED",
        "BSGS, COMPACT", "DH_BSGS, COMPACT", "TH_BSGS, COMPACT"
    })
    void anInterruptedEvaluationGivesEveryLimbBack(Algorithm algorithm, Storage storage) {
        LtFixture f = LtFixture.byBeta(2);
        SplittableRandom r = new SplittableRandom(17);
        LinearTransform t = LtFixture.randomDense(r, 64);
        Plan plan = algorithm == Algorithm.TH_BSGS ? Plan.of(t, algorithm, 4, 4, 4) : Plan.of(t, algorithm, 8, 8);
        RotationKeySet keys = f.keysFor(plan);
        CkksContext two = CkksContext.create(f.params, "cpu", 2);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(two, keys);
        EncodedTransform et = lte.encode(t, plan, f.params.maxLevel(), storage);
        Ciphertext ct = f.encrypt(t, ComplexVector.random(r, 64));
        Ciphertext reference = lte.evaluate(ct, et);
        Evaluator ev = new Evaluator(two, null, keys);
        Ciphertext rotated = ev.rotate(ct, 1);
        long pooled = ev.pooledBytes();
        try {
            for (int i = 0; i < 3; i++) {
                Thread.currentThread().interrupt();
                assertThrows(IllegalStateException.class, () -> lte.evaluate(ct, et));
                Thread.interrupted();
                assertEquals(0, lte.pooledLimbsOutstanding(), "after interrupted evaluation " + i);
                Thread.currentThread().interrupt();
                assertThrows(IllegalStateException.class, () -> ev.rotate(ct, 1));
                Thread.interrupted();
                assertEquals(pooled, ev.pooledBytes(), "the rotation's pool after interruption " + i);
            }
        } finally {
            Thread.interrupted();
        }
        assertEquals(reference, lte.evaluate(ct, et));
        assertEquals(rotated, ev.rotate(ct, 1));
    }
}
