package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.io.Formats;
import io.hoist.ckks.io.MalformedDataException;
import io.hoist.ckks.io.ObjectKind;
import io.hoist.lt.io.TransformSerialization;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.Plan;
import it.unimi.dsi.fastutil.ints.IntAVLTreeSet;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Plans read from files or built by hand: a split that only multiplies to n modulo 2^64, or a second encoding, is refused. */
class PlanHardeningTest {
    private static byte[] planFile(int algorithm, int n, int[] split, int[] indices) {
        ByteBuffer body =
                ByteBuffer.allocate(10 + 4 * split.length + 4 * indices.length).order(ByteOrder.LITTLE_ENDIAN);
        body.put((byte) algorithm).putInt(n).put((byte) split.length);
        for (int f : split) body.putInt(f);
        body.putInt(indices.length);
        for (int r : indices) body.putInt(r);
        ByteBuffer b = Formats.start(ObjectKind.PLAN, 0, new byte[32], -1, 0, body.capacity());
        b.put(body.array());
        return Formats.finish(b);
    }

    @Test
    void aSplitWhoseProductWrapsToTheDimensionIsRefused() {
        // 65536 · 1073951473 · 170360337 ≡ 65536 (mod 2^64)
        int[] split = {65536, 1073951473, 170360337};
        byte[] file = planFile(Algorithm.TH_BSGS.ordinal() + 1, 65536, split, new int[] {0, 1, 300, 65535});
        MalformedDataException e =
                assertThrows(MalformedDataException.class, () -> TransformSerialization.readPlan(file));
        assertTrue(e.getMessage().contains("multiplies past"), e.getMessage());
        IntAVLTreeSet idx = new IntAVLTreeSet(new int[] {0, 1});
        assertThrows(InvalidTransformException.class, () -> Plan.forIndices(65536, idx, Algorithm.TH_BSGS, split));
    }

    @Test
    void aDiagonalPlanStoresItsDimensionAsItsOneFactor() {
        byte[] good = planFile(Algorithm.DIAGONAL.ordinal() + 1, 16, new int[] {16}, new int[] {3});
        Plan p = TransformSerialization.readPlan(good);
        assertArrayEquals(good, TransformSerialization.write(p));
        byte[] other = planFile(Algorithm.DIAGONAL.ordinal() + 1, 16, new int[] {-12345}, new int[] {3});
        assertThrows(MalformedDataException.class, () -> TransformSerialization.readPlan(other));
    }
}
