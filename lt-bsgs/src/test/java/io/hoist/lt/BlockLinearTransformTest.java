package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.MissingRotationKeyException;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SizeLimitException;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Block products against plaintext M·x, their closed-form counts, and the single block against today's path. */
class BlockLinearTransformTest {
    /** logN 10 with 32 slots: blocks of 32, so small matrices already span several ciphertexts. */
    private static final LtFixture F = LtFixture.blocks();

    private static double[][] random(SplittableRandom r, int m, int n) {
        double[][] a = new double[m][n];
        for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) a[i][j] = (2 * r.nextDouble() - 1) / Math.sqrt(n);
        return a;
    }

    private record Run(BlockEvaluation ev, EncodedBlockTransform ebt, PrecisionStats precision) {}

    private static Run run(BlockLinearTransform bt, Algorithm a, Storage storage, long seed, int... split) {
        Plan plan = Plan.forIndices(bt.blockDimension(), bt.diagonalIndices(), a, split);
        RotationKeySet keys = F.keysFor(plan);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(F.ctx, keys);
        EncodedBlockTransform ebt = lte.encode(bt, plan, F.params.maxLevel(), storage, Progress.NONE);
        ComplexVector x = ComplexVector.random(new SplittableRandom(seed), bt.cols());
        List<Ciphertext> in = encrypt(bt, x);
        BlockEvaluation ev = lte.evaluate(in, ebt);
        assertEquals(0, lte.pooledLimbsOutstanding(), "every pooled limb back");
        List<ComplexVector> parts = new ArrayList<>();
        for (Ciphertext c : ev.outputs()) parts.add(F.dec.decryptAndDecode(c, F.encoder));
        PrecisionStats p = PrecisionStats.of(bt.apply(x), bt.joinOutput(parts));
        return new Run(ev, ebt, p);
    }

    private static List<Ciphertext> encrypt(BlockLinearTransform bt, ComplexVector x) {
        List<Ciphertext> in = new ArrayList<>();
        for (ComplexVector part : bt.splitInput(x)) {
            in.add(F.enc.encrypt(F.encoder.encode(
                    bt.replicate(part, F.params.slots()), F.params.maxLevel(), F.params.defaultScale())));
        }
        return in;
    }

    private static void assertCountsMatch(Run r) {
        Cost c = r.ebt.cost();
        assertEquals(c.decompose(), r.ev.counts().get(Op.DECOMPOSE), "Decompose");
        assertEquals(c.modDown(), r.ev.counts().get(Op.MOD_DOWN), "ModDown");
        assertEquals(c.keySwitchInnerProducts(), r.ev.counts().get(Op.KS_INNER_PRODUCT), "KS-IP");
        assertEquals(c.ptMuls(), r.ev.counts().get(Op.PT_MUL), "PtMul");
        assertEquals(c.ntt(), r.ev.counts().get(Op.NTT_LIMBS) + r.ev.counts().get(Op.INTT_LIMBS), "limb NTTs");
    }

    @Test
    void nonSquareBlockGridMatchesPlaintext() {
        // 70×50 in blocks of 32: 3 block rows (the last 6 rows), 2 block columns (the last 18 columns)
        BlockLinearTransform bt = BlockLinearTransform.dense(random(new SplittableRandom(1), 70, 50), null, 32);
        assertEquals(3, bt.blockRows());
        assertEquals(2, bt.blockCols());
        for (Algorithm a : List.of(Algorithm.TH_BSGS, Algorithm.DH_BSGS, Algorithm.DIAGONAL)) {
            int[] split = switch (a) {
                case TH_BSGS -> new int[] {4, 2, 4};
                case DH_BSGS -> new int[] {8, 4};
                default -> new int[0];
            };
            Run r = run(bt, a, Storage.PRECOMPUTED, 2, split);
            assertEquals(3, r.ev.outputs().size());
            assertTrue(r.precision.minBits() > 18, a + ": " + r.precision);
            assertCountsMatch(r);
        }
    }

    @Test
    void decomposeOncePerInputCiphertextNotPerBlock() {
        BlockLinearTransform bt =
                BlockLinearTransform.dense(random(new SplittableRandom(3), 64, 96), null, 32); // 2×3 blocks
        Run r = run(bt, Algorithm.TH_BSGS, Storage.PRECOMPUTED, 4, 4, 2, 4);
        Plan plan = r.ebt.plan();
        long perInput = 1 + plan.middleSources().size(),
                perOutput = plan.outerRotations().size() - 1;
        assertEquals(3 * perInput + 2 * perOutput, r.ev.counts().get(Op.DECOMPOSE));
        long ksPerInput = plan.innerRotations().size()
                - 1
                + plan.middlePairs().values().stream().mapToLong(Set::size).sum();
        assertEquals(3 * ksPerInput + 2 * perOutput, r.ev.counts().get(Op.KS_INNER_PRODUCT));
        assertEquals(6L * 32, r.ev.counts().get(Op.PT_MUL));
        assertEquals(
                2 * 2,
                r.ev.counts().get(Op.MOD_DOWN)
                        - 2 * perOutput
                        - 3 * plan.middleSources().size(),
                "one final ModDown (two polynomials) per output row");
        assertCountsMatch(r);
    }

    @Test
    void rectangularInsideOneCiphertext() {
        // 20×12 fits one ciphertext: one block of 32 (the smallest power of two holding both sides)
        int b = BlockLinearTransform.blockDimensionFor(20, 12, F.params.slots());
        assertEquals(32, b);
        BlockLinearTransform bt = BlockLinearTransform.dense(random(new SplittableRandom(5), 20, 12), null, b);
        Run r = run(bt, Algorithm.TH_BSGS, Storage.COMPACT, 6, 4, 2, 4);
        assertEquals(1, r.ev.outputs().size());
        assertEquals(
                20, bt.apply(ComplexVector.random(new SplittableRandom(1), 12)).length());
        assertTrue(r.precision.minBits() > 18, r.precision.toString());
        assertCountsMatch(r);
    }

    @Test
    void singleBlockIsBitIdenticalToTheLinearTransformPath() {
        double[][] m = random(new SplittableRandom(7), 32, 32);
        BlockLinearTransform bt = BlockLinearTransform.dense(m, null, 32);
        LinearTransform t = LinearTransform.dense(m, null);
        for (Storage st : Storage.values()) {
            Plan plan = Plan.of(t, Algorithm.TH_BSGS, 4, 2, 4);
            assertEquals(plan.indices(), bt.diagonalIndices());
            LinearTransformEvaluator lte = new LinearTransformEvaluator(F.ctx, F.keysFor(plan));
            EncodedTransform et = lte.encode(t, plan, F.params.maxLevel(), st);
            EncodedBlockTransform ebt = lte.encode(bt, plan, F.params.maxLevel(), st, Progress.NONE);
            ComplexVector x = ComplexVector.random(new SplittableRandom(8), 32);
            Ciphertext ct = encrypt(bt, x).get(0);
            Evaluation single = lte.evaluate(ct, et, Schedule.direct());
            BlockEvaluation block = lte.evaluate(List.of(ct), ebt);
            assertEquals(single.result(), block.outputs().get(0), st + ": bit-identical");
            assertEquals(single.counts(), block.counts(), st + ": same counts");
        }
    }

    @Test
    void zeroBlocksCostNothingAndZeroRowsGiveZero() {
        double[][] m = random(new SplittableRandom(9), 96, 64); // 3×2 blocks
        for (int i = 32; i < 64; i++) Arrays.fill(m[i], 0); // block row 1 all zero
        for (int i = 64; i < 96; i++) for (int j = 0; j < 32; j++) m[i][j] = 0; // block (2, 0) zero
        BlockLinearTransform bt = BlockLinearTransform.dense(m, null, 32);
        assertNull(bt.block(1, 0));
        assertNull(bt.block(2, 0));
        Run r = run(bt, Algorithm.DH_BSGS, Storage.PRECOMPUTED, 10, 8, 4);
        assertEquals(3, r.ebt.nonzeroBlocks());
        assertEquals(3L * 32, r.ev.counts().get(Op.PT_MUL));
        assertTrue(r.precision.minBits() > 18, r.precision.toString());
        assertCountsMatch(r);
    }

    @Test
    void compactAndPrecomputedAgreeBitForBit() {
        BlockLinearTransform bt = BlockLinearTransform.dense(random(new SplittableRandom(11), 64, 64), null, 32);
        Plan plan = Plan.forIndices(32, bt.diagonalIndices(), Algorithm.TH_BSGS, 4, 2, 4);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(F.ctx, F.keysFor(plan));
        List<Ciphertext> in = encrypt(bt, ComplexVector.random(new SplittableRandom(12), 64));
        var pre = lte.evaluate(in, lte.encode(bt, plan, F.params.maxLevel(), Storage.PRECOMPUTED, Progress.NONE));
        var com = lte.evaluate(in, lte.encode(bt, plan, F.params.maxLevel(), Storage.COMPACT, Progress.NONE));
        assertEquals(pre.outputs(), com.outputs());
    }

    @Test
    void refusesWrongInputsAndNamesAMissingKey() {
        BlockLinearTransform bt = BlockLinearTransform.dense(random(new SplittableRandom(13), 64, 64), null, 32);
        Plan plan = Plan.forIndices(32, bt.diagonalIndices(), Algorithm.TH_BSGS, 4, 2, 4);
        RotationKeySet all = F.keysFor(plan);
        long withheld = F.params.galoisElementForRotation(plan.rotations().last());
        RotationKeySet some = F.kg.genRotationKeys(
                F.sk,
                F.params.maxLevel(),
                plan.rotationKeys(F.params).stream().filter(g -> g != withheld).toList());
        List<Ciphertext> in = encrypt(bt, ComplexVector.random(new SplittableRandom(14), 64));
        LinearTransformEvaluator lte = new LinearTransformEvaluator(F.ctx, all);
        EncodedBlockTransform ebt = lte.encode(bt, plan, F.params.maxLevel(), Storage.PRECOMPUTED, Progress.NONE);
        assertThrows(IllegalArgumentException.class, () -> lte.evaluate(in.subList(0, 1), ebt));
        var e = assertThrows(
                MissingRotationKeyException.class, () -> new LinearTransformEvaluator(F.ctx, some).evaluate(in, ebt));
        assertTrue(e.getMessage().contains("rotation by " + plan.rotations().last()), e.getMessage());
        Plan small = Plan.forIndices(32, List.of(0, 1, 2), Algorithm.TH_BSGS, 4, 2, 4);
        assertThrows(
                IllegalArgumentException.class,
                () -> lte.encode(bt, small, F.params.maxLevel(), Storage.COMPACT, Progress.NONE));
        assertThrows(IndexOutOfBoundsException.class, () -> bt.block(2, 0));
    }

    @Test
    void randomEntriesAreSplittableRandomsFirstDouble() {
        SplittableRandom r = new SplittableRandom(11);
        for (int k = 0; k < 100_000; k++) {
            long z = k < 10
                    ? new long[] {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 42, 7, 1 << 20, -99, 3}[k]
                    : r.nextLong();
            assertEquals(new SplittableRandom(z).nextDouble(-1, 1), BlockLinearTransform.firstDouble(z), "seed " + z);
        }
        BlockLinearTransform.Entries e = BlockLinearTransform.randomEntries(5, 100);
        assertEquals(
                new SplittableRandom(5 * 0x9E3779B97F4A7C15L + 3 * 100 + 7).nextDouble(-1, 1) / 10, e.at(3, 7), 0.0);
    }

    @Test
    void shapesAreCountedInLongArithmeticAndRefusedPastTheIndexLimit() {
        int max = Integer.MAX_VALUE;
        SizeLimitException e =
                assertThrows(SizeLimitException.class, () -> BlockLinearTransform.random(max, max, 64, 1));
        assertTrue(e.getMessage().contains("33554432×33554432 = 1125899906842624 blocks"), e.getMessage());
        BlockLinearTransform tall = BlockLinearTransform.random(max, 1, 1 << 16, 1);
        assertEquals(32768, tall.blockRows(), "⌈(2^31 − 1)/2^16⌉ without wrapping");
        assertEquals(1, tall.blockCols());
        assertEquals(32768L, BlockLinearTransform.blockCount(max, 1, 1 << 16));
        assertThrows(SizeLimitException.class, () -> LinearTransform.paddedDimension((1 << 30) + 1));
    }
}
