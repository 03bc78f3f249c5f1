package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.RotationKeySet;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.Op;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Linear transforms with seeded rotation keys (a limbs regenerated in the key inner product, limb
 * ranges split over threads): bit-identical to full keys for every algorithm on the direct executor; the
 * counts differ only by the a limbs expanded instead of read. The six-phase executor refuses them (its ledger
 * models full keys).
 */
class SeededKeysLtTest {
    @ParameterizedTest(name = "threads {0}")
    @ValueSource(ints = {1, 2})
    void seededKeysGiveTheFullKeysResultsForEveryAlgorithm(int threads) {
        LtFixture f = new LtFixture(11, new int[] {50, 40, 40}, new int[] {60, 60});
        LinearTransform m = LtFixture.randomDense(new SplittableRandom(8), 64);
        CkksContext ctx = CkksContext.create(f.params, null, threads);
        for (Algorithm a : Algorithm.values()) {
            Plan plan = Plan.auto(m, f.params, f.params.maxLevel(), a, Objective.FEWEST_KEYS, 0);
            RotationKeySet full = f.keysFor(plan), seeded = full.withStorage(KeyStorage.SEEDED);
            Ciphertext x = f.encrypt(m, ComplexVector.random(new SplittableRandom(9), 64));
            LinearTransformEvaluator lf = new LinearTransformEvaluator(ctx, full),
                    ls = new LinearTransformEvaluator(ctx, seeded);
            EncodedTransform et = lf.encode(m, plan, f.params.maxLevel(), Storage.PRECOMPUTED);
            if (a != Algorithm.BSGS) { // the six-phase ledger models full keys: seeded ones are refused, not miscounted
                Schedule ph = Schedule.phased(Grouping.uniform(2, 2), Long.MAX_VALUE);
                assertEquals(
                        lf.evaluate(x, et, Schedule.direct()).result(),
                        lf.evaluate(x, et, ph).result());
                assertThrows(InvalidTransformException.class, () -> ls.evaluate(x, et, ph));
            }
            for (Schedule s : new Schedule[] {Schedule.direct()}) {
                Evaluation ef = lf.evaluate(x, et, s), es = ls.evaluate(x, et, s);
                assertEquals(ef.result(), es.result(), a + " " + s);
                long ksips = ef.counts().get(Op.KS_INNER_PRODUCT);
                int limbs = f.params.maxLevel() + 1 + f.params.alpha(), beta = f.params.beta(f.params.maxLevel());
                assertEquals(ksips * beta * limbs, (long) es.counts().get(Op.KEY_LIMBS_EXPANDED), a + " " + s);
                assertEquals(0L, (long) ef.counts().getOrDefault(Op.KEY_LIMBS_EXPANDED, 0L));
                assertEquals(
                        ef.counts().get(Op.LIMBS_READ) - ksips * beta * limbs,
                        (long) es.counts().get(Op.LIMBS_READ),
                        a + " " + s + ": a limbs made, not read");
                assertEquals(withoutKeyTraffic(ef.counts()), withoutKeyTraffic(es.counts()), a + " " + s);
            }
        }
    }

    private static Map<Op, Long> withoutKeyTraffic(Map<Op, Long> c) {
        Map<Op, Long> m = new EnumMap<>(c);
        m.remove(Op.LIMBS_READ);
        m.remove(Op.KEY_LIMBS_EXPANDED);
        m.remove(Op.NTT_CALLS);
        return m;
    }
}
