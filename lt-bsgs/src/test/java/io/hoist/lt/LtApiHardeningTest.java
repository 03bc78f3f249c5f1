package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.lt.dft.DftFactorization;
import io.hoist.lt.dft.DftPlanner;
import io.hoist.lt.dft.HomomorphicDft;
import io.hoist.lt.exec.EncodedDiagonals;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.PlanSearch;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.planning.JointPlanner;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.PhaseHooks;
import io.hoist.lt.schedule.PhaseModel;
import io.hoist.lt.schedule.SixPhaseWalk;
import io.hoist.lt.schedule.TrafficLedger;
import io.hoist.lt.schedule.WorkingSetTooSmallException;
import io.hoist.ring.RnsPoly;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Arguments a caller can pass wrong to the transforms' public API: refused with a typed exception, never a wrong
 * result, an allocation sized by the argument or an index error (the forty-eighth session's review).
 */
class LtApiHardeningTest {
    @Test
    void aBlockRowPartialRefusesPolynomialsOfAnotherRing() {
        LtFixture f = LtFixture.blocks();
        CkksParameters pa = f.params;
        CkksParameters pb = CkksParameters.builder()
                .logN(10)
                .logSlots(5)
                .logQ(55, 45, 45)
                .logP(59)
                .scale(0x1p40)
                .allowInsecure()
                .build();
        CkksContext cb = CkksContext.create(pb);
        BlockLinearTransform bt = BlockLinearTransform.random(64, 64, 32, 3);
        Plan plan = Plan.forIndices(32, bt.diagonalIndices(), Algorithm.DH_BSGS, 8, 4);
        RotationKeySet keys = f.kg.genRotationKeys(f.sk, pa.maxLevel(), plan.rotationKeys(pa));
        LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, keys);
        EncodedBlockTransform ebt = lte.encode(bt, plan, pa.maxLevel(), Storage.PRECOMPUTED, Progress.NONE);
        ComplexVector x = ComplexVector.random(new SplittableRandom(5), 64);
        ComplexVector part = bt.splitInput(x).get(0);
        Ciphertext in =
                f.enc.encrypt(f.encoder.encode(bt.replicate(part, pa.slots()), pa.maxLevel(), pa.defaultScale()));
        BlockRowPartial a0 = lte.evaluatePartial(new TreeMap<>(Map.of(0, in)), ebt)
                .partials()
                .get(0);
        List<PolyQP> own = new ArrayList<>(), foreign = new ArrayList<>();
        for (int i = 0; i < a0.polynomialCount(); i++) {
            PolyQP u = a0.sum(i);
            own.add(u);
            RnsPoly q = cb.ringQ().newPoly(u.q().level(), u.domain());
            foreign.add(u.isQOnly() ? PolyQP.qOnly(q) : PolyQP.of(q, cb.ringP().newPoly(u.p().level(), u.domain())));
        }
        assertDoesNotThrow(() -> BlockRowPartial.of(pa, plan, a0.level(), 0, a0.scale(), a0.columns(), own));
        ParameterMismatchException e = assertThrows(
                ParameterMismatchException.class,
                () -> BlockRowPartial.of(pa, plan, a0.level(), 0, a0.scale(), a0.columns(), foreign));
        assertTrue(e.getMessage().contains("another ring"), e.getMessage());
        assertThrows(InvalidTransformException.class, () -> bt.replicate(part, -4));
        assertThrows(
                InvalidTransformException.class, () -> bt.joinOutput(List.of(part.copy(), ComplexVector.ofReal(1))));
    }

    @Test
    void plansAndLayoutsCheckDimensionsAndLevelsFirst() {
        LtFixture f = LtFixture.byBeta(2);
        CkksParameters p = f.params;
        assertThrows(InvalidTransformException.class, () -> Plan.dense(Integer.MAX_VALUE, Algorithm.DIAGONAL));
        assertThrows(InvalidTransformException.class, () -> Plan.dense(12, Algorithm.DIAGONAL));
        Plan four = Plan.dense(4, Algorithm.DIAGONAL);
        assertFalse(four.equals(null));
        assertThrows(LevelMismatchException.class, () -> LimbLayout.of(p, p.maxLevel() + 1));
        assertThrows(LevelMismatchException.class, () -> LimbLayout.of(p, -1));
        assertThrows(LevelMismatchException.class, () -> four.cost(p, 100, Storage.PRECOMPUTED));
        for (Algorithm a : new Algorithm[] {Algorithm.BSGS, Algorithm.DH_BSGS})
            for (Storage s : Storage.values()) {
                assertThrows(LevelMismatchException.class, () -> EncodedDiagonals.wordsPerDiagonal(p, -5, s, a));
                assertThrows(LevelMismatchException.class, () -> EncodedDiagonals.wordsPerDiagonal(p, 1000, s, a));
            }
        LimbLayout lay = LimbLayout.of(p, p.maxLevel());
        assertThrows(
                InvalidTransformException.class, () -> new PhaseModel(lay, Storage.PRECOMPUTED, 1 << 16, 1 << 16, 1));
    }

    @Test
    void transformsRefuseMismatchedPartsAndDimensions() {
        double[][] re = new double[4][4], im = new double[2][4];
        assertThrows(InvalidTransformException.class, () -> LinearTransform.dense(re, im));
        LinearTransform t = LinearTransform.dense(re, new double[4][4]);
        assertThrows(InvalidTransformException.class, () -> t.periodicExtension(Integer.MIN_VALUE));
        assertThrows(InvalidTransformException.class, () -> t.replicate(ComplexVector.ofReal(1, 2, 3, 4), -2));
        assertEquals(8, t.replicate(ComplexVector.ofReal(1, 2, 3, 4), 8).length());
    }

    @Test
    void theJointPlannersFloorCountsAKeyOnce() {
        Plan p = Plan.dense(4, Algorithm.DIAGONAL);
        List<List<JointPlanner.Candidate>> one = List.of(List.of(new JointPlanner.Candidate(p, new long[] {5}, 1)));
        assertEquals(1, JointPlanner.choose(one, new long[] {5}, 1, false).unionSize());
        List<List<JointPlanner.Candidate>> twice =
                List.of(List.of(new JointPlanner.Candidate(p, new long[] {5, 5}, 1)));
        assertDoesNotThrow(() -> JointPlanner.choose(twice, new long[0], 1, false));
    }

    @Test
    void smallHelpersRefuseIndicesAndSizesOutsideTheirRange() {
        assertThrows(InvalidTransformException.class, () -> PlanSearch.powerOfTwoSplits(12, 2));
        assertThrows(InvalidTransformException.class, () -> PlanSearch.powerOfTwoSplits(16, 4));
        assertEquals(5, PlanSearch.powerOfTwoSplits(16, 2).size());
        assertThrows(InvalidTransformException.class, () -> BlockLinearTransform.blockDimensionFor(5, 5, 6));
        assertThrows(InvalidTransformException.class, () -> BlockLinearTransform.randomEntries(1, 0));
    }

    @Test
    void dftHelpersAndLedgersRefuseOrAcceptWithoutSurprises() {
        assertThrows(
                InvalidTransformException.class,
                () -> DftFactorization.indexSets(32, 1, HomomorphicDft.Kind.COEFFS_TO_SLOTS));
        assertThrows(
                InvalidTransformException.class,
                () -> DftFactorization.mergeChain(3, -1, HomomorphicDft.Kind.COEFFS_TO_SLOTS));
        assertThrows(InvalidTransformException.class, () -> DftPlanner.lattigoN1(List.of(0, 1), 16, 32));
        TrafficLedger.PhaseTraffic empty = new TrafficLedger.PhaseTraffic(1, "none", Map.of(), Map.of(), 0, 0);
        assertEquals(0, empty.read());
    }

    @Test
    void aWalkOverItsBudgetIsTheTypedWorkingSetError() {
        LtProgram prog = LtProgram.compile(Plan.dense(4, Algorithm.DIAGONAL), new LimbLayout(10, 2, 1, 64));
        WorkingSetTooSmallException e = assertThrows(
                WorkingSetTooSmallException.class,
                () -> SixPhaseWalk.walk(prog, Storage.PRECOMPUTED, Grouping.minimal(), 1, PhaseHooks.NONE));
        assertTrue(e.getMessage().contains("over its budget of 1 bytes"), e.getMessage());
    }
}
