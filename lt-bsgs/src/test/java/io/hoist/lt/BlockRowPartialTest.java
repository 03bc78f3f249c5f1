package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.io.CiphertextSerialization;
import io.hoist.ckks.io.MalformedDataException;
import io.hoist.lt.io.TransformSerialization;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.Op;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A block product split into per-column partials, summed in any order and finished: bit-identical to the one-process product. */
class BlockRowPartialTest {
    private static final LtFixture F = LtFixture.blocks();

    private static BlockLinearTransform matrix(long seed, int m, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] a = new double[m][n];
        for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) a[i][j] = (2 * r.nextDouble() - 1) / Math.sqrt(n);
        a[40][3] = 0;
        // block (1, 2) all zero: its row and column still have other blocks
        for (int i = 32; i < 64; i++) for (int j = 64; j < n; j++) a[i][j] = 0;
        return BlockLinearTransform.dense(a, null, 32);
    }

    private static List<Ciphertext> encrypt(BlockLinearTransform bt, long seed) {
        ComplexVector x = ComplexVector.random(new SplittableRandom(seed), bt.cols());
        List<Ciphertext> in = new ArrayList<>();
        for (ComplexVector part : bt.splitInput(x))
            in.add(F.enc.encrypt(F.encoder.encode(
                    bt.replicate(part, F.params.slots()), F.params.maxLevel(), F.params.defaultScale())));
        return in;
    }

    @Test
    void columnPartialsSummedInAnyOrderAreBitIdenticalToTheLocalProduct() {
        BlockLinearTransform bt = matrix(3, 80, 90); // 3×3 blocks of 32
        for (Algorithm a : List.of(Algorithm.TH_BSGS, Algorithm.DH_BSGS, Algorithm.DIAGONAL)) {
            int[] split = switch (a) {
                case TH_BSGS -> new int[] {4, 2, 4};
                case DH_BSGS -> new int[] {8, 4};
                default -> new int[0];
            };
            for (Storage storage : List.of(Storage.PRECOMPUTED, Storage.COMPACT)) {
                Plan plan = Plan.forIndices(32, bt.diagonalIndices(), a, split);
                RotationKeySet keys = F.keysFor(plan);
                LinearTransformEvaluator lte = new LinearTransformEvaluator(F.ctx, keys);
                EncodedBlockTransform whole = lte.encode(bt, plan, F.params.maxLevel(), storage, Progress.NONE);
                List<Ciphertext> in = encrypt(bt, 7);
                BlockEvaluation local = lte.evaluate(in, whole);

                // one worker per block column, each with only its column's blocks encoded (as on a cluster)
                Map<Integer, List<BlockRowPartial>> byRow = new TreeMap<>();
                Map<Op, Long> counts = new EnumMap<>(Op.class);
                for (int bc = 0; bc < bt.blockCols(); bc++) {
                    int col = bc;
                    EncodedBlockTransform mine = lte.encode(
                            bt.restrictedTo(r -> true, c -> c == col),
                            plan,
                            F.params.maxLevel(),
                            storage,
                            Progress.NONE);
                    BlockPartialEvaluation pe = lte.evaluatePartial(new TreeMap<>(Map.of(bc, in.get(bc))), mine);
                    for (BlockRowPartial p : pe.partials()) {
                        // through the wire format, as a shuffle would carry it
                        byRow.computeIfAbsent(p.blockRow(), k -> new ArrayList<>())
                                .add(TransformSerialization.readBlockRowPartial(
                                        TransformSerialization.write(p), F.ctx));
                    }
                    pe.counts().forEach((op, v) -> counts.merge(op, v, Long::sum));
                }
                assertEquals(3, byRow.size());
                assertEquals(2, byRow.get(1).size(), "block (1, 2) is zero and sends nothing");
                for (int br = 0; br < bt.blockRows(); br++) {
                    List<BlockRowPartial> parts = byRow.get(br);
                    Collections.reverse(parts); // the order of a shuffle is arbitrary
                    BlockRowPartial sum = BlockRowPartial.sum(parts, F.ctx);
                    Evaluation fin = lte.finishBlockRow(sum);
                    fin.counts().forEach((op, v) -> counts.merge(op, v, Long::sum));
                    assertArrayEquals(
                            CiphertextSerialization.write(local.outputs().get(br)),
                            CiphertextSerialization.write(fin.result()),
                            a + " " + storage + ": block row " + br + " differs from the local product");
                }
                for (Op op : List.of(
                        Op.DECOMPOSE,
                        Op.MOD_DOWN,
                        Op.KS_INNER_PRODUCT,
                        Op.PT_MUL,
                        Op.NTT_LIMBS,
                        Op.INTT_LIMBS,
                        Op.MOD_MULS)) {
                    assertEquals(
                            local.counts().getOrDefault(op, 0L),
                            counts.getOrDefault(op, 0L),
                            a + " " + storage + ": " + op + " summed over the halves");
                }
                assertEquals(0, lte.pooledLimbsOutstanding());
            }
        }
    }

    @Test
    void wrongSumsAreRefused() {
        BlockLinearTransform bt = matrix(4, 64, 64);
        Plan plan = Plan.forIndices(32, bt.diagonalIndices(), Algorithm.TH_BSGS, 4, 2, 4);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(F.ctx, F.keysFor(plan));
        EncodedBlockTransform ebt = lte.encode(bt, plan, F.params.maxLevel(), Storage.COMPACT, Progress.NONE);
        List<Ciphertext> in = encrypt(bt, 9);
        BlockRowPartial p0 = lte.evaluatePartial(new TreeMap<>(Map.of(0, in.get(0))), ebt)
                .partials()
                .get(0);
        BlockRowPartial p1 = lte.evaluatePartial(new TreeMap<>(Map.of(1, in.get(1))), ebt)
                .partials()
                .get(1);
        assertEquals(0, p0.blockRow());
        assertThrows(IllegalArgumentException.class, () -> p0.plus(p0, F.ctx), "a column counted twice");
        assertThrows(IllegalArgumentException.class, () -> p0.plus(p1, F.ctx), "another block row");
        assertThrows(
                IllegalArgumentException.class, () -> lte.evaluatePartial(new TreeMap<>(Map.of(2, in.get(0))), ebt));
        byte[] bytes = TransformSerialization.write(p0);
        bytes[bytes.length / 2] ^= 1;
        assertThrows(MalformedDataException.class, () -> TransformSerialization.readBlockRowPartial(bytes, F.ctx));
        byte[] plan0 = TransformSerialization.write(plan);
        assertThrows(MalformedDataException.class, () -> TransformSerialization.readBlockRowPartial(plan0, F.ctx));
        assertTrue(p0.memoryBytes() > 0);
    }
}
