package io.hoist.lt.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.LtFixture;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The diagonal sums' term tables built ahead for the direct schedule ({@link Engine#prepareDirect}) are
 * every table a direct evaluation then uses: it builds none and replaces none, for single transforms
 * and block products, both storages, one and two threads (two split a group into halves when limbs are
 * few).
 */
class PreparedTablesTest {
    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (int threads : new int[] {1, 2})
            for (Storage s : Storage.values()) {
                out.add(Arguments.of(Algorithm.TH_BSGS, new int[] {2, 4, 4}, s, threads));
                out.add(Arguments.of(Algorithm.DH_BSGS, new int[] {4, 8}, s, threads));
                out.add(Arguments.of(Algorithm.DIAGONAL, new int[0], s, threads));
            }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {2} threads {3}")
    @MethodSource("cases")
    void aDirectEvaluationUsesTheTablesBuiltAheadAndBuildsNone(
            Algorithm algorithm, int[] split, Storage storage, int threads) {
        LtFixture f = LtFixture.blocks();
        CkksContext ctx = threads == 1 ? f.ctx : CkksContext.create(f.params, null, threads);
        SplittableRandom r = new SplittableRandom(0x7ab1e5L + threads);
        int b = f.params.slots(), level = f.params.maxLevel();
        double scale = f.params.q(level);
        LinearTransform t = LtFixture.randomDense(r, b);
        Plan plan = Plan.of(t, algorithm, split);
        RotationKeySet keys = f.kg.genRotationKeys(f.sk, level, plan.rotationKeys(f.params));
        Engine e = new Engine(ctx, keys);
        DiagonalEncoder enc = new DiagonalEncoder(ctx);

        EncodedDiagonals one = enc.encodeDiagonals(t, plan, level, storage, scale, true, Progress.NONE, null);
        e.prepareDirect(one);
        Map<DiagonalSums.GroupKey, DiagonalSums.Tables> before = new HashMap<>(one.sumTables);
        assertFalse(before.isEmpty(), "tables are built ahead");
        e.evaluate(encrypt(f, b, r), one, Schedule.direct(), scale);
        assertEquals(before, one.sumTables, "a single transform's evaluation built or replaced tables");

        // a 2 × 2 block product with one zero block, on the blocks' shared program
        LtProgram program = LtProgram.compile(plan, LimbLayout.of(f.params, level));
        EncodedDiagonals[][] blocks = new EncodedDiagonals[2][2];
        List<Map<DiagonalSums.GroupKey, DiagonalSums.Tables>> ahead = new ArrayList<>();
        for (int br = 0; br < 2; br++)
            for (int bc = 0; bc < 2; bc++) {
                if (br == 1 && bc == 0) continue;
                LinearTransform block = br == 0 && bc == 0 ? t : LtFixture.randomDense(r, b);
                blocks[br][bc] = enc.encodeDiagonals(block, plan, level, storage, scale, true, Progress.NONE, program);
                e.prepareDirect(blocks[br][bc]);
                ahead.add(new HashMap<>(blocks[br][bc].sumTables));
            }
        e.evaluateBlocks(List.of(encrypt(f, b, r), encrypt(f, b, r)), blocks, level, scale, Schedule.direct());
        int i = 0;
        for (EncodedDiagonals[] row : blocks)
            for (EncodedDiagonals blk : row)
                if (blk != null)
                    assertEquals(ahead.get(i++), blk.sumTables, "a block product built or replaced tables");
    }

    private static Ciphertext encrypt(LtFixture f, int b, SplittableRandom r) {
        ComplexVector x = ComplexVector.random(r, b);
        return f.enc.encrypt(f.encoder.encode(x, f.params.maxLevel(), f.params.defaultScale()));
    }
}
