package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.PrecisionStats;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.Op;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Plans whose inner or outer layer lacks rotation 0 (no diagonal is a multiple of the first factor, as in a cyclic
 * shift): the hoisted programs left out the first Decompose and key-switched null digits, and BSGS's closed form
 * counted one rotation too few per such layer (review fuzzing).
 */
class ZeroFreeLayerTest {
    @ParameterizedTest(name = "diagonals {0} {1} {2}")
    @CsvSource({
        "5, DIAGONAL, ''",
        "5, DH_BSGS, '4 8'",
        "31, DH_BSGS, '4 8'",
        "1, DH_BSGS, '4 8'",
        "5, TH_BSGS, '2 2 8'",
        "31, BSGS, '4 8'",
        "8 9, BSGS, '4 8'",
        "1 2, BSGS, '4 8'",
        "1, AUTO_DH, ''",
        "1, AUTO_TH, ''",
        "1, AUTO_BSGS, ''"
    })
    void aLayerWithoutRotationZeroIsComputedAndCounted(String diagonals, String algorithm, String split) {
        LtFixture f = LtFixture.byBeta(2);
        int n = 32;
        SplittableRandom r = new SplittableRandom(diagonals.hashCode());
        Map<Integer, ComplexVector> d = new TreeMap<>();
        for (String s : diagonals.split(" ")) d.put(Integer.parseInt(s), ComplexVector.random(r, n));
        LinearTransform t = LinearTransform.fromDiagonals(n, d);
        int level = f.params.maxLevel();
        Plan plan = switch (algorithm) {
            case "AUTO_DH" ->
                Plan.auto(t, f.params, level, Algorithm.DH_BSGS, Objective.FEWEST_KEYS, Integer.MAX_VALUE);
            case "AUTO_TH" ->
                Plan.auto(t, f.params, level, Algorithm.TH_BSGS, Objective.FEWEST_KEYS, Integer.MAX_VALUE);
            case "AUTO_BSGS" -> Plan.auto(t, f.params, level, Algorithm.BSGS, Objective.FEWEST_KEYS, Integer.MAX_VALUE);
            default ->
                Plan.of(
                        t,
                        Algorithm.valueOf(algorithm),
                        split.isBlank()
                                ? new int[0]
                                : Arrays.stream(split.split(" "))
                                        .mapToInt(Integer::parseInt)
                                        .toArray());
        };
        LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, f.keysFor(plan));
        ComplexVector x = ComplexVector.random(r, n);
        Ciphertext ct = f.encrypt(t, x);
        ComplexVector want = t.replicate(t.apply(x), f.params.slots());
        for (Storage storage : new Storage[] {Storage.PRECOMPUTED, Storage.COMPACT}) {
            EncodedTransform et = lte.encode(t, plan, level, storage);
            Evaluation ev = lte.evaluate(ct, et, Schedule.direct());
            PrecisionStats p = PrecisionStats.of(want, f.dec.decryptAndDecode(ev.result(), f.encoder));
            assertTrue(p.minBits() > 20, plan.describe() + " " + storage + ": " + p);
            Cost cost = plan.cost(f.params, level, storage);
            assertEquals(cost.decompose(), ev.count(Op.DECOMPOSE), plan.describe() + " Decompose");
            assertEquals(
                    cost.keySwitchInnerProducts(), ev.count(Op.KS_INNER_PRODUCT), plan.describe() + " key switches");
            assertEquals(cost.modDown(), ev.count(Op.MOD_DOWN), plan.describe() + " ModDown");
            if (plan.algorithm() != Algorithm.BSGS) {
                Evaluation phased = lte.evaluate(ct, et, Schedule.phased(Long.MAX_VALUE));
                assertEquals(ev.result(), phased.result(), plan.describe() + " phased against direct");
            }
        }
    }
}
