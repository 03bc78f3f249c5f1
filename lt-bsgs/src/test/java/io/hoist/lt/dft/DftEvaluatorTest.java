package io.hoist.lt.dft;

import static org.junit.jupiter.api.Assertions.*;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.MissingRotationKeyException;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.Scratch;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.LtFixture;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Encrypted CoeffsToSlots / SlotsToCoeffs at N = 2^10 … 2^12 against the plaintext coefficients. */
class DftEvaluatorTest {
    /** Insecure small parameters: one 60-bit base prime and 45-bit primes for the DFT levels. */
    static final class Fixture extends LtFixture {
        Fixture(int logN, int logSlots, int levels) {
            super(logN, logSlots, logQ(levels), new int[] {61, 61});
        }

        private static int[] logQ(int levels) {
            int[] logQ = new int[levels + 1];
            Arrays.fill(logQ, 45);
            logQ[0] = 60;
            return logQ;
        }

        RotationKeySet keys(List<DftPlan> plans) {
            return kg.genRotationKeys(sk, params.maxLevel(), DftPlan.union(plans));
        }

        double[] randomValues(HomomorphicDft dft, long seed) {
            SplittableRandom r = new SplittableRandom(seed);
            double[] t = new double[2 * dft.dftSize()];
            for (int k = 0; k < t.length; k++) t[k] = 2 * r.nextDouble() - 1;
            return t;
        }

        Ciphertext encryptCoefficients(HomomorphicDft dft, double[] t, int level) {
            return enc.encrypt(encoder.encodeCoefficients(dft.coefficientLayout(t), level, params.defaultScale()));
        }

        double minBits(HomomorphicDft dft, double[] t, DftResult r) {
            List<ComplexVector> want = dft.expectedSlots(t);
            double min = Double.POSITIVE_INFINITY;
            for (int i = 0; i < want.size(); i++) {
                ComplexVector got = dec.decryptAndDecode(r.outputs().get(i), encoder);
                min = Math.min(min, PrecisionStats.of(want.get(i), got).minBits());
            }
            return min;
        }

        /** Worst log2 precision of the coefficients after SlotsToCoeffs. */
        double coefficientBits(HomomorphicDft dft, double[] t, Ciphertext ct) {
            double[] got = dft.valuesOf(encoder.coefficients(dec.decrypt(ct)));
            double worst = 0;
            for (int k = 0; k < t.length; k++) worst = Math.max(worst, Math.abs(got[k] - t[k]));
            return -Math.log(worst) / Math.log(2);
        }
    }

    @Test
    void coeffsToSlotsDenseAtEveryDepthAndRoundTrip() {
        Fixture f = new Fixture(10, 9, 12);
        for (int depth = 1; depth <= 9; depth++) {
            HomomorphicDft cts = HomomorphicDft.coeffsToSlots(10, 9, depth, 12);
            HomomorphicDft stc = HomomorphicDft.slotsToCoeffs(10, 9, Math.min(3, 12 - depth), 12 - depth);
            List<DftPlan> plans =
                    DftPlanner.joint(List.of(cts, stc), f.params, Algorithm.TH_BSGS, Objective.FEWEST_KEYS, 0);
            DftEvaluator ev = new DftEvaluator(f.ctx, f.keys(plans), Schedule.direct());
            double[] t = f.randomValues(cts, depth);
            DftResult r = ev.coeffsToSlots(
                    f.encryptCoefficients(cts, t, 12), ev.encode(plans.get(0), Storage.PRECOMPUTED, Progress.NONE));
            assertEquals(2, r.outputs().size());
            assertEquals(12 - depth, r.outputs().get(0).level());
            double bits = f.minBits(cts, t, r);
            assertTrue(bits > 22, "depth " + depth + ": " + bits + " bits");
            DftResult back = ev.slotsToCoeffs(r.outputs(), ev.encode(plans.get(1), Storage.PRECOMPUTED, Progress.NONE));
            double rt = f.coefficientBits(cts, t, back.outputs().get(0));
            assertTrue(rt > 20, "round trip depth " + depth + ": " + rt + " bits");
        }
    }

    /**
     * CoeffsToSlots makes its matrices' outputs and the conjugate in pooled limbs and splits them in place; the halves
     * equal the public operations composed in fresh memory (each matrix, the conjugation, add, sub, mulByI), bit for
     * bit, also on a second run over warm pools, for every algorithm (BSGS leaves its outputs in fresh memory); so
     * does SlotsToCoeffs.
     */
    @Test
    void inPlaceSplitEqualsThePublicOperations() {
        Fixture f = new Fixture(10, 9, 8);
        HomomorphicDft cts = HomomorphicDft.coeffsToSlots(10, 9, 3, 8);
        HomomorphicDft stc = HomomorphicDft.slotsToCoeffs(10, 9, 2, 5);
        for (Algorithm a : Algorithm.values()) {
            DftPlan pc = DftPlanner.perMatrix(cts, f.params, a, Objective.FEWEST_MULTS, 0);
            DftPlan ps = DftPlanner.perMatrix(stc, f.params, a, Objective.FEWEST_MULTS, 0);
            RotationKeySet keys = f.keys(List.of(pc, ps));
            DftEvaluator dft = new DftEvaluator(f.ctx, keys, Schedule.direct());
            LinearTransformEvaluator lt = new LinearTransformEvaluator(f.ctx, keys, Schedule.direct());
            Evaluator ev = new Evaluator(f.ctx);
            EncodedDft ec = dft.encode(pc, Storage.PRECOMPUTED, Progress.NONE);
            EncodedDft es = dft.encode(ps, Storage.PRECOMPUTED, Progress.NONE);
            Ciphertext in = f.encryptCoefficients(cts, f.randomValues(cts, 3), 8);
            Ciphertext x = in;
            for (EncodedTransform m : ec.matrices())
                x = lt.evaluate(x, m, Schedule.direct()).result();
            Ciphertext w = lt.conjugate(x).result();
            List<Ciphertext> want = List.of(ev.add(x, w), ev.mulByI(ev.sub(x, w), -1));
            Ciphertext y = ev.add(want.get(0), ev.mulByI(want.get(1), 1));
            for (EncodedTransform m : es.matrices())
                y = lt.evaluate(y, m, Schedule.direct()).result();
            // the bootstrapper's case: the input made in the same scratch is only read, and the outputs stay there
            try (Scratch s = ev.scratch()) {
                Ciphertext held = ev.linearCombinationMutable(
                                List.of(in), new double[] {1}, new double[] {1}, in.level(), in.scale(), s)
                        .freeze();
                int before = s.heldLimbs();
                DftResult r = dft.coeffsToSlots(held, ec, s);
                assertEquals(in, held, a + ": the input is unchanged");
                assertTrue(s.holds(held), a + ": and still held");
                for (int h = 0; h < 2; h++) {
                    assertEquals(want.get(h), r.outputs().get(h), a + " in the caller's scratch, half " + h);
                    assertEquals(a != Algorithm.BSGS, s.holds(r.outputs().get(h)), a + ": made there");
                }
                if (a != Algorithm.BSGS)
                    assertEquals(
                            before + 2 * 2 * (r.outputs().get(0).level() + 1),
                            s.heldLimbs(),
                            a + ": the input and the two halves, nothing else");
            }
            for (int run = 0; run < 2; run++) {
                DftResult r = dft.coeffsToSlots(in, ec);
                for (int h = 0; h < 2; h++)
                    assertEquals(want.get(h), r.outputs().get(h), a + " run " + run + ", half " + h);
                assertEquals(y, dft.slotsToCoeffs(r.outputs(), es).outputs().get(0), a + " run " + run + ", StC");
            }
        }
    }

    /**
     * Dense packing's ±i tables are made when the DFT is encoded, so a first CoeffsToSlots or SlotsToCoeffs counts
     * exactly what every later one does (it counted the transforms of its table before).
     */
    @Test
    void firstDenseEvaluationCountsWhatTheSecondDoes() {
        Fixture f = new Fixture(10, 9, 8);
        HomomorphicDft cts = HomomorphicDft.coeffsToSlots(10, 9, 3, 8);
        HomomorphicDft stc = HomomorphicDft.slotsToCoeffs(10, 9, 2, 5);
        List<DftPlan> plans =
                DftPlanner.joint(List.of(cts, stc), f.params, Algorithm.TH_BSGS, Objective.FEWEST_KEYS, 0);
        DftEvaluator dft = new DftEvaluator(f.ctx, f.keys(plans), Schedule.direct());
        EncodedDft ec = dft.encode(plans.get(0), Storage.PRECOMPUTED, Progress.NONE);
        EncodedDft es = dft.encode(plans.get(1), Storage.PRECOMPUTED, Progress.NONE);
        Ciphertext in = f.encryptCoefficients(cts, f.randomValues(cts, 11), 8);
        List<Map<Op, Long>> ctsCounts = new ArrayList<>(), stcCounts = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            OpCounters.Counted<DftResult> c = OpCounters.count(() -> dft.coeffsToSlots(in, ec));
            ctsCounts.add(c.counts());
            stcCounts.add(OpCounters.count(() -> dft.slotsToCoeffs(c.value().outputs(), es))
                    .counts());
        }
        assertTrue(ctsCounts.get(0).get(Op.NTT_LIMBS) > 0);
        assertEquals(ctsCounts.get(1), ctsCounts.get(0), "CoeffsToSlots, first and second");
        assertEquals(stcCounts.get(1), stcCounts.get(0), "SlotsToCoeffs, first and second");
        // an input above SlotsToCoeffs' level is refused before Re + i·Im could make a table at its level
        long ntts = f.ctx.counters().get(Op.NTT_LIMBS);
        assertThrows(LevelMismatchException.class, () -> dft.slotsToCoeffs(List.of(in, in), es));
        assertEquals(ntts, f.ctx.counters().get(Op.NTT_LIMBS), "nothing transformed");
    }

    @Test
    void sparsePackingEveryAlgorithmAndCountsEqualClosedForms() {
        Fixture f = new Fixture(11, 7, 6); // 2^6-point DFT in 2^7 slots
        HomomorphicDft cts = HomomorphicDft.coeffsToSlots(11, 6, 3, 6);
        HomomorphicDft stc = HomomorphicDft.slotsToCoeffs(11, 6, 2, 3);
        assertTrue(cts.sparse());
        for (Algorithm a : Algorithm.values()) {
            DftPlan pc = DftPlanner.perMatrix(cts, f.params, a, Objective.FEWEST_MULTS, 0);
            DftPlan ps = DftPlanner.perMatrix(stc, f.params, a, Objective.FEWEST_MULTS, 0);
            DftEvaluator ev = new DftEvaluator(f.ctx, f.keys(List.of(pc, ps)), Schedule.direct());
            double[] t = f.randomValues(cts, 7);
            DftResult r = ev.coeffsToSlots(
                    f.encryptCoefficients(cts, t, 6), ev.encode(pc, Storage.PRECOMPUTED, Progress.NONE));
            assertEquals(1, r.outputs().size());
            assertTrue(f.minBits(cts, t, r) > 22, a + ": " + f.minBits(cts, t, r));
            for (int i = 0; i < cts.depth(); i++) {
                Cost c = pc.cost(i, Storage.PRECOMPUTED);
                var m = r.matrixCounts().get(i);
                assertEquals(c.decompose(), (long) m.getOrDefault(Op.DECOMPOSE, 0L), a + " matrix " + i);
                assertEquals(c.modDown(), (long) m.getOrDefault(Op.MOD_DOWN, 0L), a + " matrix " + i);
                assertEquals(
                        c.keySwitchInnerProducts(), (long) m.getOrDefault(Op.KS_INNER_PRODUCT, 0L), a + " matrix " + i);
                assertEquals(c.ptMuls(), (long) m.getOrDefault(Op.PT_MUL, 0L), a + " matrix " + i);
            }
            assertEquals(1, r.splitCounts().get(Op.DECOMPOSE));
            Ciphertext low = new Evaluator(f.ctx)
                    .dropLevel(r.outputs().get(0), r.outputs().get(0).level() - 3);
            DftResult back = ev.slotsToCoeffs(List.of(low), ev.encode(ps, Storage.COMPACT, Progress.NONE));
            assertTrue(f.coefficientBits(cts, t, back.outputs().get(0)) > 20, a + " round trip");
        }
    }

    @Test
    void coeffsToSlotsSparseAtEveryDepth() {
        Fixture f = new Fixture(11, 7, 6);
        for (int depth = 1; depth <= 6; depth++) {
            HomomorphicDft cts = HomomorphicDft.coeffsToSlots(11, 6, depth, 6);
            DftPlan p = DftPlanner.joint(List.of(cts), f.params, Algorithm.TH_BSGS, Objective.FEWEST_KEYS, 0)
                    .get(0);
            DftEvaluator ev = new DftEvaluator(f.ctx, f.keys(List.of(p)), Schedule.direct());
            double[] t = f.randomValues(cts, 100 + depth);
            DftResult r = ev.coeffsToSlots(
                    f.encryptCoefficients(cts, t, 6), ev.encode(p, Storage.PRECOMPUTED, Progress.NONE));
            assertEquals(6 - depth, r.outputs().get(0).level());
            double bits = f.minBits(cts, t, r);
            assertTrue(bits > 22, "sparse depth " + depth + ": " + bits + " bits");
        }
    }

    @Test
    void severalMatricesShareALevelAsLattigosLevels() {
        Fixture f = new Fixture(11, 10, 6);
        HomomorphicDft cts = HomomorphicDft.coeffsToSlots(11, 10, new int[] {2, 2}, 6);
        assertEquals(List.of(6, 6, 5, 5), cts.levels());
        assertEquals(4, cts.outputLevel());
        assertFalse(cts.rescales(0));
        assertTrue(cts.rescales(1));
        double q = f.params.q(6);
        assertEquals(q, cts.plaintextScale(0, q) * cts.plaintextScale(1, q), q * 1e-12);
        HomomorphicDft stc = HomomorphicDft.slotsToCoeffs(11, 10, new int[] {2, 1}, 4);
        List<DftPlan> plans =
                DftPlanner.joint(List.of(cts, stc), f.params, Algorithm.TH_BSGS, Objective.FEWEST_KEYS, 0);
        DftEvaluator ev = new DftEvaluator(f.ctx, f.keys(plans), Schedule.phased(1L << 30));
        double[] t = f.randomValues(cts, 21);
        DftResult r = ev.coeffsToSlots(
                f.encryptCoefficients(cts, t, 6), ev.encode(plans.get(0), Storage.PRECOMPUTED, Progress.NONE));
        assertEquals(4, r.outputs().get(0).level());
        assertEquals(f.params.defaultScale(), r.outputs().get(0).scale(), f.params.defaultScale() * 1e-9);
        double bits = f.minBits(cts, t, r);
        assertTrue(
                bits > 12,
                "two matrices per level: " + bits
                        + " bits"); // 45-bit primes: each matrix at scale 2^22.5 (one per level: > 22 bits)
        for (int i = 0; i < 4; i++) {
            assertEquals(plans.get(0).cost(i, Storage.PRECOMPUTED).modDown(), (long)
                    r.matrixCounts().get(i).getOrDefault(Op.MOD_DOWN, 0L));
        }
        DftResult back = ev.slotsToCoeffs(r.outputs(), ev.encode(plans.get(1), Storage.PRECOMPUTED, Progress.NONE));
        assertEquals(2, back.outputs().get(0).level());
        assertTrue(f.coefficientBits(cts, t, back.outputs().get(0)) > 12);
        assertThrows(IllegalArgumentException.class, () -> HomomorphicDft.coeffsToSlots(11, 10, new int[] {2, 0}, 6));
        assertThrows(
                IllegalArgumentException.class, () -> HomomorphicDft.coeffsToSlots(11, 10, new int[] {4, 4, 3}, 2));
    }

    @Test
    void jointKeySetIsTheUnionAndAWithheldKeyIsNamed() {
        Fixture f = new Fixture(12, 11, 5);
        HomomorphicDft cts = HomomorphicDft.coeffsToSlots(12, 11, 4, 5);
        DftPlan per = DftPlanner.perMatrix(cts, f.params, Algorithm.TH_BSGS, Objective.FEWEST_KEYS, 0);
        DftPlan joint = DftPlanner.joint(List.of(cts), f.params, Algorithm.TH_BSGS, Objective.FEWEST_KEYS, 0)
                .get(0);
        assertTrue(joint.exact());
        assertTrue(joint.galoisElements().size() <= per.galoisElements().size());
        TreeSet<Long> union = new TreeSet<>();
        for (int i = 0; i < cts.depth(); i++) union.addAll(joint.galoisElements(i));
        union.add(f.params.galoisElementForConjugation());
        assertEquals(union, new TreeSet<>(joint.galoisElements()));
        // under a key budget the joint plan stays within it and is no slower than fewest keys
        int budget = joint.galoisElements().size() + 3;
        DftPlan fast = DftPlanner.joint(
                        List.of(cts), f.params, Algorithm.TH_BSGS, Objective.FEWEST_MULTS_UNDER_KEY_BUDGET, budget)
                .get(0);
        assertTrue(fast.galoisElements().size() <= budget);
        double mJoint = 0, mFast = 0;
        for (int i = 0; i < 4; i++) {
            mJoint += joint.cost(i, Storage.PRECOMPUTED).modMuls();
            mFast += fast.cost(i, Storage.PRECOMPUTED).modMuls();
        }
        assertTrue(mFast <= mJoint);
        assertThrows(
                IllegalArgumentException.class,
                () -> DftPlanner.joint(
                        List.of(cts), f.params, Algorithm.TH_BSGS, Objective.FEWEST_MULTS_UNDER_KEY_BUDGET, 2));

        RotationKeySet all = f.keys(List.of(joint));
        double[] t = f.randomValues(cts, 11);
        EncodedDft e =
                new DftEvaluator(f.ctx, all, Schedule.direct()).encode(joint, Storage.PRECOMPUTED, Progress.NONE);
        DftResult r = new DftEvaluator(f.ctx, all, Schedule.phased(1L << 30))
                .coeffsToSlots(f.encryptCoefficients(cts, t, 5), e);
        assertTrue(f.minBits(cts, t, r) > 22);
        for (long withheld : joint.galoisElements()) {
            List<Long> some = new ArrayList<>(joint.galoisElements());
            some.remove(withheld);
            RotationKeySet partial = new RotationKeySet(
                    f.params, some.stream().map(g -> all.get(g, "test")).toList());
            DftEvaluator ev = new DftEvaluator(f.ctx, partial, Schedule.direct());
            Ciphertext in = f.encryptCoefficients(cts, t, 5);
            MissingRotationKeyException ex =
                    assertThrows(MissingRotationKeyException.class, () -> ev.coeffsToSlots(in, e));
            assertTrue(
                    ex.getMessage()
                            .contains(
                                    withheld == f.params.galoisElementForConjugation() ? "conjugation" : "rotation by"),
                    ex.getMessage());
        }
    }
}
