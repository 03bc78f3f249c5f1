package io.hoist.lt;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.io.KeyStore;
import io.hoist.ckks.io.MalformedDataException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plans, compact transforms and stored keys: round trips that evaluate bit for bit as in memory; fuzzed readers. */
class StoredTransformTest {
    static final LtFixture F = LinearTransformTest.FIXTURES.get(2);

    @Test
    void storedKeysAndTransformsEvaluateBitForBitAsInMemory(@TempDir Path dir) {
        SplittableRandom r = new SplittableRandom(8);
        LinearTransform t = LtFixture.randomDense(r, 64);
        Plan plan = Plan.of(t, Algorithm.TH_BSGS, 4, 4, 4);
        assertEquals(plan.describe(), TransformSerialization.readPlan(TransformSerialization.write(plan)).describe());
        assertEquals(plan.indices(), TransformSerialization.readPlan(TransformSerialization.write(plan)).indices());
        RotationKeySet keys = F.keysFor(plan);
        LinearTransformEvaluator mem = new LinearTransformEvaluator(F.ctx, keys);
        EncodedTransform et = mem.encode(t, plan, F.params.maxLevel(), Storage.COMPACT);
        EncodedTransform back = TransformSerialization.readEncodedTransform(TransformSerialization.write(et), F.ctx);
        Ciphertext ct = F.encrypt(t, ComplexVector.random(r, 64));
        Ciphertext want = mem.evaluate(ct, et);
        assertEquals(want, mem.evaluate(ct, back), "a stored compact transform evaluates as the original");
        for (boolean seeded : new boolean[] {false, true}) {
            Path store = dir.resolve("keys-" + seeded + ".hks");
            KeyStore.write(store, keys, seeded);
            try (KeyStore st = KeyStore.open(store, F.ctx, seeded)) {
                RotationKeySet loaded = st.load(plan.rotationKeys(F.params));
                assertEquals(plan.rotations().size(), st.keysLoaded());
                assertEquals(want, new LinearTransformEvaluator(F.ctx, loaded).evaluate(ct, et), "stored keys (" + (seeded ? "seeded" : "full") + ") give the same bits");
            }
        }
        assertThrows(IllegalArgumentException.class, () -> TransformSerialization.write(mem.encode(t, plan, F.params.maxLevel(), Storage.PRECOMPUTED)));
    }

    record Mutation(int op, long position, long value, boolean fixCrc) {}

    @Provide
    Arbitrary<Mutation> mutations() {
        return net.jqwik.api.Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.longs(), Arbitraries.longs(),
                Arbitraries.of(true, false)).as(Mutation::new);
    }

    static byte[] planSeed, transformSeed;

    static synchronized void seeds() {
        if (planSeed != null) return;
        LinearTransform t = LtFixture.randomDense(new SplittableRandom(9), 16);
        Plan plan = Plan.of(t, Algorithm.TH_BSGS, 2, 2, 4);
        planSeed = TransformSerialization.write(plan);
        transformSeed = TransformSerialization.write(new LinearTransformEvaluator(F.ctx, F.keysFor(plan)).encode(t, plan, F.params.maxLevel(), Storage.COMPACT));
    }

    static byte[] mutate(byte[] good, Mutation m) {
        byte[] b = good.clone();
        int pos = (int) Math.floorMod(m.position(), (long) b.length);
        switch (m.op()) {
            case 0 -> b[pos] ^= (byte) (1 << Math.floorMod(m.value(), 8));
            case 1 -> b[pos] = (byte) m.value();
            case 2 -> b = java.util.Arrays.copyOf(b, pos);
            default -> { if (pos + 4 <= b.length) ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(pos, (int) m.value()); }
        }
        if (m.fixCrc() && b.length >= 4) {
            CRC32C c = new CRC32C();
            c.update(b, 0, b.length - 4);
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length - 4, (int) c.getValue());
        }
        return b;
    }

    @Property
    void planAndTransformReadersReturnAnObjectOrTheTypedError(@ForAll("mutations") Mutation m) {
        seeds();
        try {
            assertTrue(TransformSerialization.readPlan(mutate(planSeed, m)) != null);
        } catch (MalformedDataException expected) {
            // fine
        }
        try {
            assertTrue(TransformSerialization.readEncodedTransform(mutate(transformSeed, m), F.ctx) != null);
        } catch (MalformedDataException expected) {
            // fine
        }
    }
}
