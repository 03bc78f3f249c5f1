package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.*;

import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.Op;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Limb NTT batches and diagonal encoding spread over threads: bit-identical to one thread, counts unchanged. */
class ParallelNttTest {
    // at 2^13 Decompose's conversions cross Ring.PARALLEL_WORDS and run one range per thread
    @ParameterizedTest
    @ValueSource(ints = {10, 12, 13})
    void evaluationsAreBitIdenticalForOneTwoAndFourThreads(int logN) {
        LtFixture f = new LtFixture(logN, new int[] {50, 40, 40}, new int[] {60, 60});
        LinearTransform m = LtFixture.randomDense(new SplittableRandom(4), 64);
        for (Algorithm a : Algorithm.values()) {
            for (Storage storage : Storage.values()) {
                Plan plan = Plan.auto(m, f.params, f.params.maxLevel(), a, Objective.FEWEST_KEYS, 0);
                RotationKeySet keys = f.keysFor(plan);
                Ciphertext x = f.encrypt(m, ComplexVector.random(new SplittableRandom(5), 64));
                Ciphertext ref = null;
                Map<Op, Long> refCounts = null;
                for (int threads : new int[] {1, 2, 4}) {
                    CkksContext ctx = CkksContext.create(f.params, null, threads);
                    assertEquals(threads, ctx.engine().threads());
                    LinearTransformEvaluator lt = new LinearTransformEvaluator(ctx, keys);
                    EncodedTransform et =
                            lt.encode(m, plan, f.params.maxLevel(), storage); // encoding runs on the threads too
                    Evaluation e = lt.evaluate(x, et, Schedule.direct());
                    if (ref == null) {
                        ref = e.result();
                        refCounts = e.counts();
                    }
                    for (int p = 0; p < 2; p++) {
                        for (int i = 0; i <= ref.level(); i++)
                            assertArrayEquals(
                                    ref.poly(p).limb(i), e.result().poly(p).limb(i), a + " threads " + threads);
                    }
                    assertEquals(operations(refCounts), operations(e.counts()), a + " threads " + threads);
                    if (a != Algorithm.BSGS) { // the phased executor splits each limb group over the threads
                        Evaluation ph = lt.evaluate(x, et, Schedule.phased(Grouping.uniform(2, 2), Long.MAX_VALUE));
                        assertEquals(ref, ph.result(), a + " phased, threads " + threads);
                        assertEquals(operations(refCounts), operations(ph.counts()), a + " phased, threads " + threads);
                    }
                }
            }
        }
        assertThrows(IllegalArgumentException.class, () -> CkksContext.create(f.params, null, 0));
    }

    @Test
    void independentChainsOfStepsRunOnePerThreadBitIdentically() {
        // TH-BSGS 4·4·4 on 64 diagonals: four middle sources, so lines 5–7 run as chains, one per thread
        LtFixture f = new LtFixture(11, new int[] {50, 40, 40}, new int[] {60});
        LinearTransform m = LtFixture.randomDense(new SplittableRandom(8), 64);
        Plan plan = Plan.of(m, Algorithm.TH_BSGS, 4, 4, 4);
        RotationKeySet keys = f.keysFor(plan);
        Ciphertext x = f.encrypt(m, ComplexVector.random(new SplittableRandom(9), 64));
        Evaluation ref = null;
        for (int threads : new int[] {1, 2, 4}) {
            LinearTransformEvaluator lt =
                    new LinearTransformEvaluator(CkksContext.create(f.params, null, threads), keys);
            EncodedTransform et = lt.encode(m, plan, f.params.maxLevel(), Storage.PRECOMPUTED);
            Evaluation e = lt.evaluate(x, et, Schedule.direct());
            if (ref == null) ref = e;
            assertEquals(ref.result(), e.result(), "threads " + threads);
            assertEquals(operations(ref.counts()), operations(e.counts()), "threads " + threads);
            assertEquals(0, lt.pooledLimbsOutstanding(), "every pooled limb is back, threads " + threads);
        }
    }

    /** The counts without NTT_CALLS, which counts backend calls: limbs split over threads take more calls for the same transforms. */
    private static Map<Op, Long> operations(Map<Op, Long> c) {
        Map<Op, Long> m = new EnumMap<>(c);
        m.remove(Op.NTT_CALLS);
        return m;
    }

    @Test
    void blockProductsAreBitIdenticalForOneAndTwoThreads() {
        LtFixture f = new LtFixture(11, 5, new int[] {50, 40, 40}, new int[] {60});
        double[][] a = new double[64][80];
        SplittableRandom r = new SplittableRandom(8);
        for (double[] row : a) for (int j = 0; j < row.length; j++) row[j] = r.nextDouble(-0.1, 0.1);
        BlockLinearTransform bt = BlockLinearTransform.dense(a, null, 32);
        Plan plan = Plan.forIndices(32, bt.diagonalIndices(), Algorithm.TH_BSGS, 4, 2, 4);
        RotationKeySet keys = f.keysFor(plan);
        List<Ciphertext> in = new ArrayList<>();
        for (ComplexVector part : bt.splitInput(ComplexVector.random(new SplittableRandom(9), 80))) {
            in.add(f.enc.encrypt(f.encoder.encode(
                    bt.replicate(part, f.params.slots()), f.params.maxLevel(), f.params.defaultScale())));
        }
        BlockEvaluation ref = null;
        for (int threads : new int[] {1, 2}) {
            for (Storage st : Storage.values()) {
                LinearTransformEvaluator lt =
                        new LinearTransformEvaluator(CkksContext.create(f.params, null, threads), keys);
                EncodedBlockTransform ebt = lt.encode(bt, plan, f.params.maxLevel(), st, Progress.NONE);
                BlockEvaluation e = lt.evaluate(in, ebt);
                if (ref == null) ref = e;
                assertEquals(ref.outputs(), e.outputs(), st + ", threads " + threads);
                BlockEvaluation ph = lt.evaluate(in, ebt, Schedule.phased(Grouping.uniform(2, 2), Long.MAX_VALUE));
                assertEquals(ref.outputs(), ph.outputs(), st + " phased, threads " + threads);
                assertEquals(
                        operations(e.counts()), operations(ph.counts()), st + " phased counts, threads " + threads);
                assertEquals(
                        ebt.traffic(Grouping.uniform(2, 2)),
                        ph.traffic().orElseThrow(),
                        st + " phased ledger, threads " + threads);
                if (st == Storage.PRECOMPUTED)
                    assertEquals(operations(ref.counts()), operations(e.counts()), "threads " + threads);
                assertEquals(0, lt.pooledLimbsOutstanding());
            }
        }
    }

    @Test
    void keySwitchIsBitIdenticalForOneAndTwoThreads() {
        // a plain rotation: Decompose and ModDown split their limbs over the context's threads inside KeySwitcher
        LtFixture f = new LtFixture(12, new int[] {50, 40, 40}, new int[] {60, 60});
        RotationKeySet keys =
                f.kg.genRotationKeys(f.sk, f.params.maxLevel(), List.of(f.params.galoisElementForRotation(3)));
        LinearTransform m = LtFixture.randomDense(new SplittableRandom(10), 64);
        Ciphertext x = f.encrypt(m, ComplexVector.random(new SplittableRandom(11), 64));
        Ciphertext one = new Evaluator(CkksContext.create(f.params, null, 1), null, keys).rotate(x, 3);
        Ciphertext two = new Evaluator(CkksContext.create(f.params, null, 2), null, keys).rotate(x, 3);
        assertEquals(one, two);
    }

    @Test
    void rotationKeysMadeOnSeveralThreadsWork() {
        LtFixture f = new LtFixture(12, new int[] {50, 40, 40}, new int[] {60, 60});
        LinearTransform m = LtFixture.randomDense(new SplittableRandom(6), 64);
        Plan plan = Plan.auto(m, f.params, f.params.maxLevel(), Algorithm.TH_BSGS, Objective.FEWEST_KEYS, 0);
        CkksContext ctx = CkksContext.create(f.params, null, 4);
        RotationKeySet keys =
                new KeyGenerator(ctx).genRotationKeys(f.sk, f.params.maxLevel(), plan.rotationKeys(f.params));
        assertEquals(plan.rotationKeys(f.params), ImmutableSortedSet.copyOf(keys.galoisElements()));
        ComplexVector v = ComplexVector.random(new SplittableRandom(7), 64);
        LinearTransformEvaluator lt = new LinearTransformEvaluator(ctx, keys);
        Ciphertext y = lt.evaluate(f.encrypt(m, v), lt.encode(m, plan, f.params.maxLevel(), Storage.PRECOMPUTED));
        assertTrue(f.precision(m.replicate(m.apply(v), f.params.slots()), y).minBits() > 20);
    }
}
