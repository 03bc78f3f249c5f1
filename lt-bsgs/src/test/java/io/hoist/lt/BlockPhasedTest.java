package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.Progress;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.LedgerKind;
import io.hoist.lt.schedule.PhaseModel;
import io.hoist.lt.schedule.Schedule;
import io.hoist.lt.schedule.ScheduleCompiler;
import io.hoist.lt.schedule.TrafficLedger;
import io.hoist.lt.schedule.WorkingSetTooSmallException;
import io.hoist.ring.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Block products on the six-phase schedule: bit-identical to the direct schedule with the same
 * counts, their measured ledger equal to the walk without data and (dense blocks) to the closed
 * form, the row's U read back after its first block, and the peak working set that of one block.
 */
class BlockPhasedTest {
    /** logN 10, 32 slots, β = 2: blocks of 32. */
    private static final LtFixture F = LtFixture.blocks();

    private static final Grouping[] GROUPINGS = {
        Grouping.minimal(), Grouping.uniform(2, 2), Grouping.uniform(1000, 1000)
    };

    private static double[][] random(SplittableRandom r, int m, int n) {
        double[][] a = new double[m][n];
        for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) a[i][j] = (2 * r.nextDouble() - 1) / Math.sqrt(n);
        return a;
    }

    private static List<Ciphertext> encrypt(BlockLinearTransform bt, ComplexVector x) {
        List<Ciphertext> in = new ArrayList<>();
        for (ComplexVector part : bt.splitInput(x)) {
            in.add(F.enc.encrypt(F.encoder.encode(
                    bt.replicate(part, F.params.slots()), F.params.maxLevel(), F.params.defaultScale())));
        }
        return in;
    }

    /** The counts without NTT_CALLS, which depends on how limbs are batched (limb groups), not on the work done. */
    private static Map<Op, Long> withoutCalls(Map<Op, Long> c) {
        Map<Op, Long> m = new EnumMap<>(c);
        m.remove(Op.NTT_CALLS);
        return m;
    }

    /** Phased against direct for every grouping and storage; returns the ledger of the last one run. */
    private static void checkAgainstDirect(BlockLinearTransform bt, Algorithm a, boolean dense, int... split) {
        Plan plan = Plan.forIndices(bt.blockDimension(), bt.diagonalIndices(), a, split);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(F.ctx, F.keysFor(plan));
        ComplexVector x = ComplexVector.random(new SplittableRandom(plan.hashCode()), bt.cols());
        List<Ciphertext> in = encrypt(bt, x);
        for (Storage storage : Storage.values()) {
            EncodedBlockTransform ebt = lte.encode(bt, plan, F.params.maxLevel(), storage, Progress.NONE);
            BlockEvaluation direct = lte.evaluate(in, ebt, Schedule.direct());
            for (Grouping g : GROUPINGS) {
                String what = plan.describe() + " " + storage + " " + g;
                BlockEvaluation ph = lte.evaluate(in, ebt, Schedule.phased(g, Long.MAX_VALUE));
                assertEquals(direct.outputs(), ph.outputs(), what + ": phased == direct, bit for bit");
                assertEquals(withoutCalls(direct.counts()), withoutCalls(ph.counts()), what + ": same counts");
                assertEquals(g, ph.grouping().orElseThrow());
                TrafficLedger measured = ph.traffic().orElseThrow();
                assertEquals(ebt.dryTraffic(g), measured, what + ": ledger == walk without data");
                assertEquals(ebt.traffic(g), measured, what + ": ledger == EncodedBlockTransform.traffic");
                if (storage == Storage.PRECOMPUTED) { // independent of the walk: every stored diagonal limb read once
                    LimbLayout lay = LimbLayout.of(F.params, ebt.level());
                    long limbs = 0;
                    for (int br = 0; br < ebt.blockRows(); br++) {
                        for (int bc = 0; bc < ebt.blockCols(); bc++) {
                            if (ebt.grid()[br][bc] == null) continue;
                            for (int r : ebt.grid()[br][bc].diagonalIndexSet())
                                limbs += plan.baby(r) == 0 ? lay.lq() : lay.d();
                        }
                    }
                    assertEquals(
                            limbs * lay.limbBytes(),
                            measured.phase(4).readBytes().get(LedgerKind.DIAGONALS),
                            what + ": diagonal limbs read");
                }
                if (dense) {
                    assertEquals(
                            PhaseModel.of(plan, LimbLayout.of(F.params, ebt.level()), storage)
                                    .blockLedger(g, ebt.blockCols(), ebt.blockRows(), ebt.nonzeroBlocks()),
                            measured,
                            what + ": ledger == closed form");
                }
                assertEquals(0, lte.pooledLimbsOutstanding(), what + ": every pooled limb back");
            }
            // the smallest budget of one block is enough for the whole product
            long min = ScheduleCompiler.minimalBudget(ebt.firstBlock().program(), storage);
            BlockEvaluation tight = lte.evaluate(in, ebt, Schedule.phased(min));
            assertEquals(
                    direct.outputs(), tight.outputs(), plan.describe() + " " + storage + " at the smallest budget");
            assertTrue(tight.traffic().orElseThrow().peakResidentBytes() <= min);
            assertThrows(WorkingSetTooSmallException.class, () -> lte.evaluate(in, ebt, Schedule.phased(min - 1)));
        }
    }

    @Test
    void denseGridPhasedEqualsDirectAndClosedForm() {
        // 64×96 in blocks of 32: 2×3 blocks, every block holding all 32 diagonals
        BlockLinearTransform bt = BlockLinearTransform.dense(random(new SplittableRandom(1), 64, 96), null, 32);
        checkAgainstDirect(bt, Algorithm.TH_BSGS, true, 4, 2, 4);
        checkAgainstDirect(bt, Algorithm.DH_BSGS, true, 8, 4);
        checkAgainstDirect(bt, Algorithm.DIAGONAL, true);
    }

    @Test
    void paddedNonSquareGrid() {
        // 70×50: 3×2 blocks; block (2, 1) keeps 6 rows and 18 columns, so diagonals 18…26 are zero there
        BlockLinearTransform bt = BlockLinearTransform.dense(random(new SplittableRandom(9), 70, 50), null, 32);
        checkAgainstDirect(bt, Algorithm.TH_BSGS, false, 4, 2, 4);
    }

    @Test
    void zeroAndSparseBlocksAreWalkedAsHeld() {
        double[][] m = random(new SplittableRandom(2), 96, 64); // 3×2 blocks
        for (int i = 32; i < 64; i++) Arrays.fill(m[i], 0); // block row 1 all zero
        for (int i = 64; i < 96; i++)
            for (int j = 0; j < 32; j++) if (Math.floorMod(j - i, 32) > 3) m[i][j] = 0; // block (2, 0): 4 diagonals
        for (int i = 0; i < 32; i++)
            for (int j = 0; j < 32; j++) m[i][j] = 0; // block (0, 0) zero: row 0 starts in column 1
        BlockLinearTransform bt = BlockLinearTransform.dense(m, null, 32);
        assertEquals(null, bt.block(0, 0));
        checkAgainstDirect(bt, Algorithm.TH_BSGS, false, 4, 2, 4);
        checkAgainstDirect(bt, Algorithm.DH_BSGS, false, 8, 4);
    }

    @Test
    void rowsReadTheirUBackAfterTheFirstBlock() {
        BlockLinearTransform one = BlockLinearTransform.dense(random(new SplittableRandom(3), 32, 32), null, 32);
        BlockLinearTransform three =
                BlockLinearTransform.dense(random(new SplittableRandom(4), 32, 96), null, 32); // 1×3 blocks
        Plan plan = Plan.forIndices(32, one.diagonalIndices(), Algorithm.TH_BSGS, 4, 2, 4);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(F.ctx, F.keysFor(plan));
        Grouping g = Grouping.uniform(2, 2);
        // the walk without data, so that this checks the executor's loop and not the closed form
        TrafficLedger t1 = lte.encode(one, plan, F.params.maxLevel(), Storage.PRECOMPUTED, Progress.NONE)
                .dryTraffic(g);
        TrafficLedger t3 = lte.encode(three, plan, F.params.maxLevel(), Storage.PRECOMPUTED, Progress.NONE)
                .dryTraffic(g);
        LimbLayout lay = LimbLayout.of(F.params, F.params.maxLevel());
        long uBack = 2L * 4 * lay.d() * lay.limbBytes(); // U_{0,k}, U_{1,k}: n3 = 4 giant steps, D limbs each
        for (int p = 1; p <= 6; p++) {
            long k = p <= 4 ? 3 : 1;
            long extra = p == 4 ? 2 * uBack : 0;
            assertEquals(
                    k * t1.phase(p).readBytes().get(LedgerKind.CIPHERTEXT) + extra,
                    t3.phase(p).readBytes().get(LedgerKind.CIPHERTEXT),
                    "phase " + p + " ciphertext reads");
            assertEquals(k * t1.phase(p).total() + extra, t3.phase(p).total(), "phase " + p + " traffic");
            assertEquals(
                    t1.phase(p).peakResidentBytes(),
                    t3.phase(p).peakResidentBytes(),
                    "phase " + p + " peak: one block's");
        }
    }

    @Test
    void singleBlockEqualsTheLinearTransformPathPhased() {
        double[][] m = random(new SplittableRandom(5), 32, 32);
        BlockLinearTransform bt = BlockLinearTransform.dense(m, null, 32);
        LinearTransform t = LinearTransform.dense(m, null);
        Plan plan = Plan.of(t, Algorithm.TH_BSGS, 4, 2, 4);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(F.ctx, F.keysFor(plan));
        Ciphertext ct =
                encrypt(bt, ComplexVector.random(new SplittableRandom(6), 32)).get(0);
        for (Storage st : Storage.values()) {
            Schedule s = Schedule.phased(Grouping.uniform(2, 2), Long.MAX_VALUE);
            Evaluation single = lte.evaluate(ct, lte.encode(t, plan, F.params.maxLevel(), st), s);
            BlockEvaluation block =
                    lte.evaluate(List.of(ct), lte.encode(bt, plan, F.params.maxLevel(), st, Progress.NONE), s);
            assertEquals(single.result(), block.outputs().get(0), st + ": bit-identical");
            assertEquals(withoutCalls(single.counts()), withoutCalls(block.counts()), st + ": same counts");
            assertEquals(single.traffic(), block.traffic(), st + ": same ledger");
        }
    }

    @Test
    void allZeroMatrixMovesNothingAndBadShapesAreRefused() {
        BlockLinearTransform zero = BlockLinearTransform.dense(new double[64][64], null, 32);
        Plan plan = Plan.forIndices(32, IntStream.range(0, 32).boxed().toList(), Algorithm.TH_BSGS, 4, 2, 4);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(F.ctx, F.keysFor(plan));
        EncodedBlockTransform ebt = lte.encode(zero, plan, F.params.maxLevel(), Storage.PRECOMPUTED, Progress.NONE);
        Grouping g = Grouping.uniform(2, 2);
        BlockEvaluation ev = lte.evaluate(
                encrypt(zero, ComplexVector.random(new SplittableRandom(1), 64)),
                ebt,
                Schedule.phased(g, Long.MAX_VALUE));
        assertEquals(2, ev.outputs().size());
        assertEquals(g, ev.grouping().orElseThrow());
        assertEquals(0, ev.traffic().orElseThrow().offchipBytes());
        assertEquals(ebt.traffic(g), ev.traffic().orElseThrow());
        assertThrows(NullPointerException.class, () -> lte.evaluate(List.of(), ebt, null));
        PhaseModel m = PhaseModel.of(plan, LimbLayout.of(F.params, F.params.maxLevel()), Storage.PRECOMPUTED);
        assertThrows(IllegalArgumentException.class, () -> m.blockLedger(g, 2, 2, 1)); // 1 block cannot cover 2 columns
        assertThrows(IllegalArgumentException.class, () -> m.blockLedger(g, 2, 2, 5)); // more blocks than the grid
        assertThrows(IllegalArgumentException.class, () -> m.blockLedger(g, -1, 2, 2));
        assertEquals(0, m.blockLedger(g, 0, 0, 0).offchipBytes());
    }

    @Test
    void phasedEvaluatorScheduleAppliesToBlocksAndKeepsPrecision() {
        BlockLinearTransform bt = BlockLinearTransform.dense(random(new SplittableRandom(7), 64, 64), null, 32);
        Plan plan = Plan.forIndices(32, bt.diagonalIndices(), Algorithm.TH_BSGS, 4, 2, 4);
        LinearTransformEvaluator lte =
                new LinearTransformEvaluator(F.ctx, F.keysFor(plan), Schedule.phased(10_000_000));
        EncodedBlockTransform ebt = lte.encode(bt, plan, F.params.maxLevel(), Storage.COMPACT, Progress.NONE);
        ComplexVector x = ComplexVector.random(new SplittableRandom(8), 64);
        BlockEvaluation ev = lte.evaluate(encrypt(bt, x), ebt);
        assertTrue(ev.traffic().isPresent(), "the evaluator's phased schedule is used");
        assertTrue(ev.traffic().orElseThrow().peakResidentBytes() <= 10_000_000);
        List<ComplexVector> parts = new ArrayList<>();
        for (Ciphertext c : ev.outputs()) parts.add(F.dec.decryptAndDecode(c, F.encoder));
        PrecisionStats p = PrecisionStats.of(bt.apply(x), bt.joinOutput(parts));
        assertTrue(p.minBits() > 18, p.toString());
    }
}
