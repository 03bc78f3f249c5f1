package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.MissingRotationKeyException;
import io.hoist.ckks.RotationKeySet;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.PhaseModel;
import io.hoist.lt.schedule.Schedule;
import io.hoist.lt.schedule.ScheduleCompiler;
import io.hoist.lt.schedule.SixPhaseWalk;
import io.hoist.lt.schedule.TrafficLedger;
import io.hoist.lt.schedule.WorkingSetTooSmallException;
import io.hoist.ring.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The phased executor against the direct one, bit for bit, over algorithms, splits, dense and sparse
 * matrices, both storages and groupings down to the smallest working set; its measured ledger against
 * the counting interpreter and the closed forms; budgets; the pool; concurrent evaluations.
 */
class ScheduleTest {

    static final Grouping[] GROUPINGS = {
        Grouping.minimal(),
        Grouping.uniform(2, 2),
        new Grouping(3, 2, 5, 3, 2, 3, 2, 4, 3, 3, 2, 2),
        Grouping.uniform(1000, 1000),
    };

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        // beta, dimension, algorithm, split, sparse diagonals (0 = dense)
        out.add(Arguments.of(2, 64, Algorithm.TH_BSGS, new int[] {4, 4, 4}, 0));
        out.add(Arguments.of(2, 64, Algorithm.TH_BSGS, new int[] {2, 8, 4}, 0));
        out.add(Arguments.of(1, 128, Algorithm.TH_BSGS, new int[] {8, 2, 8}, 0));
        out.add(Arguments.of(3, 64, Algorithm.TH_BSGS, new int[] {4, 2, 8}, 0));
        out.add(Arguments.of(2, 64, Algorithm.TH_BSGS, new int[] {1, 8, 8}, 0));
        out.add(Arguments.of(2, 64, Algorithm.TH_BSGS, new int[] {8, 8, 1}, 0));
        out.add(Arguments.of(2, 64, Algorithm.DH_BSGS, new int[] {8, 8}, 0));
        out.add(Arguments.of(3, 128, Algorithm.DH_BSGS, new int[] {16, 8}, 0));
        out.add(Arguments.of(2, 32, Algorithm.DIAGONAL, new int[] {}, 0));
        out.add(Arguments.of(2, 256, Algorithm.TH_BSGS, new int[] {4, 4, 16}, 9));
        out.add(Arguments.of(2, 256, Algorithm.DH_BSGS, new int[] {16, 16}, 7));
        out.add(Arguments.of(3, 256, Algorithm.DIAGONAL, new int[] {}, 5));
        return out.stream();
    }

    static LinearTransform transform(SplittableRandom r, int n, int sparse) {
        if (sparse == 0) return LtFixture.randomDense(r, n);
        Map<Integer, ComplexVector> diags = new HashMap<>();
        diags.put(0, ComplexVector.random(r, n).scale(0.2));
        while (diags.size() < sparse)
            diags.put(r.nextInt(n), ComplexVector.random(r, n).scale(0.2));
        return LinearTransform.fromDiagonals(n, diags);
    }

    @ParameterizedTest(name = "β={0} n={1} {2} {3} sparse={4}")
    @MethodSource("cases")
    void phasedEqualsDirectAndLedgersAgree(int beta, int n, Algorithm algo, int[] split, int sparse) {
        LtFixture f = LtFixture.byBeta(beta);
        SplittableRandom r = new SplittableRandom(n * 7L + algo.ordinal() + sparse);
        LinearTransform t = transform(r, n, sparse);
        Plan plan = Plan.of(t, algo, split);
        RotationKeySet keys = f.keysFor(plan);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, keys);
        int level = f.params.maxLevel();
        Ciphertext ct = f.encrypt(t, ComplexVector.random(r, t.originalDimension()));
        for (Storage storage : Storage.values()) {
            EncodedTransform et = lte.encode(t, plan, level, storage);
            Cost want = plan.cost(f.params, level, storage);
            Evaluation direct = lte.evaluate(ct, et, Schedule.direct());
            assertCounts(want, direct, plan.describe() + " direct " + storage);
            for (Grouping g : GROUPINGS) {
                String what = plan.describe() + " " + storage + " " + g;
                Evaluation ph = lte.evaluate(ct, et, Schedule.phased(g, Long.MAX_VALUE));
                assertEquals(direct.result(), ph.result(), what + ": phased == direct, bit for bit");
                assertCounts(want, ph, what);
                TrafficLedger measured = ph.traffic().orElseThrow();
                assertEquals(
                        SixPhaseWalk.dry(et.program(), storage, g),
                        measured,
                        what + ": ledger == counting interpreter");
                if (sparse == 0)
                    assertEquals(
                            PhaseModel.of(plan, et.program().layout(), storage).ledger(g),
                            measured,
                            what + ": ledger == closed forms");
                assertEquals(0, lte.pooledLimbsOutstanding(), what + ": every pooled limb came back");
            }
            // the smallest feasible budget: every phase spills, the result is the same
            long min = ScheduleCompiler.minimalBudget(et.program(), storage);
            Evaluation tight = lte.evaluate(ct, et, Schedule.phased(min));
            assertEquals(direct.result(), tight.result(), plan.describe() + " at the smallest budget");
            assertTrue(tight.traffic().orElseThrow().peakResidentBytes() <= min);
        }
    }

    static void assertCounts(Cost want, Evaluation e, String what) {
        assertEquals(want.decompose(), e.count(Op.DECOMPOSE), what + ": Decompose");
        assertEquals(want.modDown(), e.count(Op.MOD_DOWN), what + ": ModDown");
        assertEquals(want.keySwitchInnerProducts(), e.count(Op.KS_INNER_PRODUCT), what + ": KS-IP");
        assertEquals(want.ptMuls(), e.count(Op.PT_MUL), what + ": PtMul");
        assertEquals(want.ntt(), e.count(Op.NTT_LIMBS) + e.count(Op.INTT_LIMBS), what + ": limb NTTs");
    }

    @Test
    void budgetsBelowTheSmallestFeasibleAreRefusedNamingBoth() {
        LtFixture f = LtFixture.byBeta(2);
        SplittableRandom r = new SplittableRandom(3);
        LinearTransform t = LtFixture.randomDense(r, 64);
        Plan plan = Plan.of(t, Algorithm.TH_BSGS, 4, 4, 4);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, f.keysFor(plan));
        EncodedTransform et = lte.encode(t, plan, f.params.maxLevel(), Storage.PRECOMPUTED);
        Ciphertext ct = f.encrypt(t, ComplexVector.random(r, 64));
        long min = ScheduleCompiler.minimalBudget(et.program(), Storage.PRECOMPUTED);
        var e = assertThrows(WorkingSetTooSmallException.class, () -> lte.evaluate(ct, et, Schedule.phased(min - 1)));
        assertTrue(
                e.getMessage().contains(Long.toString(min - 1))
                        && e.getMessage().contains(Long.toString(min)),
                e.getMessage());
        assertEquals(min, e.requiredBytes());
        var e2 = assertThrows(
                WorkingSetTooSmallException.class,
                () -> lte.evaluate(ct, et, Schedule.phased(Grouping.uniform(8, 8), min)));
        assertTrue(e2.getMessage().contains(Long.toString(min)), e2.getMessage());
        assertEquals(0, lte.pooledLimbsOutstanding());
        // a larger budget never moves more bytes
        long small = lte.evaluate(ct, et, Schedule.phased(min))
                .traffic()
                .orElseThrow()
                .offchipBytes();
        long large = lte.evaluate(ct, et, Schedule.phased(64 * min))
                .traffic()
                .orElseThrow()
                .offchipBytes();
        assertTrue(large <= small, large + " > " + small);
    }

    @Test
    void poolLeaksNothingEvenWhenAnEvaluationFails() {
        LtFixture f = LtFixture.byBeta(2);
        SplittableRandom r = new SplittableRandom(4);
        LinearTransform t = LtFixture.randomDense(r, 64);
        Plan plan = Plan.of(t, Algorithm.TH_BSGS, 4, 4, 4);
        List<Long> gs = new ArrayList<>(plan.rotationKeys(f.params));
        gs.remove(Long.valueOf(f.params.galoisElementForRotation(16))); // an outer key
        LinearTransformEvaluator lte =
                new LinearTransformEvaluator(f.ctx, f.kg.genRotationKeys(f.sk, f.params.maxLevel(), gs));
        EncodedTransform et = lte.encode(t, plan, f.params.maxLevel(), Storage.COMPACT);
        Ciphertext ct = f.encrypt(t, ComplexVector.random(r, 64));
        for (Schedule s : List.of(Schedule.direct(), Schedule.phased(Grouping.minimal(), Long.MAX_VALUE))) {
            var e = assertThrows(MissingRotationKeyException.class, () -> lte.evaluate(ct, et, s));
            assertTrue(e.getMessage().contains("rotation by 16"), e.getMessage());
            assertEquals(0, lte.pooledLimbsOutstanding());
        }
        LinearTransformEvaluator ok = new LinearTransformEvaluator(f.ctx, f.keysFor(plan));
        ok.evaluate(ct, et);
        long created = ok.pooledBytes();
        ok.evaluate(ct, et);
        assertEquals(created, ok.pooledBytes(), "a warm evaluation takes all its limbs from the pool");
        assertEquals(0, ok.pooledLimbsOutstanding());
    }

    @Test
    void concurrentEvaluationsOnOneEvaluatorAreBitIdenticalAndCountTheirOwn() throws Exception {
        LtFixture f = LtFixture.byBeta(2);
        SplittableRandom r = new SplittableRandom(5);
        LinearTransform t = LtFixture.randomDense(r, 128);
        Plan plan = Plan.of(t, Algorithm.TH_BSGS, 4, 4, 8);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, f.keysFor(plan));
        EncodedTransform et = lte.encode(t, plan, f.params.maxLevel(), Storage.PRECOMPUTED);
        List<Ciphertext> inputs = new ArrayList<>();
        for (int i = 0; i < 4; i++) inputs.add(f.encrypt(t, ComplexVector.random(r, 128)));
        List<Schedule> schedules = List.of(Schedule.direct(), Schedule.phased(Grouping.uniform(2, 2), Long.MAX_VALUE));
        Map<String, Ciphertext> sequential = new HashMap<>();
        for (int i = 0; i < inputs.size(); i++)
            for (int s = 0; s < 2; s++)
                sequential.put(
                        i + "/" + s,
                        lte.evaluate(inputs.get(i), et, schedules.get(s)).result());
        Cost want = plan.cost(f.params, f.params.maxLevel(), Storage.PRECOMPUTED);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int rep = 0; rep < 2; rep++) {
                for (int i = 0; i < inputs.size(); i++) {
                    for (int s = 0; s < 2; s++) {
                        int ii = i, ss = s;
                        fs.add(pool.submit(() -> {
                            Evaluation e = lte.evaluate(inputs.get(ii), et, schedules.get(ss));
                            assertEquals(sequential.get(ii + "/" + ss), e.result());
                            assertCounts(want, e, "concurrent " + ii + "/" + ss);
                            return null;
                        }));
                    }
                }
            }
            for (Future<?> x : fs) x.get();
        } finally {
            pool.shutdown();
        }
        assertEquals(0, lte.pooledLimbsOutstanding());
    }
}
