package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.io.KeyStore;
import io.hoist.ckks.io.MalformedDataException;
import io.hoist.lt.io.TransformSerialization;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.testing.SeededFuzz;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plans, compact transforms and stored keys: round trips that evaluate bit for bit as in memory; fuzzed readers. */
class StoredTransformTest {
    static final LtFixture F = LtFixture.byBeta(2);

    @Test
    void storedKeysAndTransformsEvaluateBitForBitAsInMemory(@TempDir Path dir) {
        SplittableRandom r = new SplittableRandom(8);
        LinearTransform t = LtFixture.randomDense(r, 64);
        Plan plan = Plan.of(t, Algorithm.TH_BSGS, 4, 4, 4);
        assertEquals(
                plan.describe(),
                TransformSerialization.readPlan(TransformSerialization.write(plan))
                        .describe());
        assertEquals(
                plan.indices(),
                TransformSerialization.readPlan(TransformSerialization.write(plan))
                        .indices());
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
                assertEquals(
                        want,
                        new LinearTransformEvaluator(F.ctx, loaded).evaluate(ct, et),
                        "stored keys (" + (seeded ? "seeded" : "full") + ") give the same bits");
            }
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> TransformSerialization.write(mem.encode(t, plan, F.params.maxLevel(), Storage.PRECOMPUTED)));
    }

    static byte[] planSeed, transformSeed;

    static synchronized void seeds() {
        if (planSeed != null) return;
        LinearTransform t = LtFixture.randomDense(new SplittableRandom(9), 16);
        Plan plan = Plan.of(t, Algorithm.TH_BSGS, 2, 2, 4);
        planSeed = TransformSerialization.write(plan);
        transformSeed = TransformSerialization.write(new LinearTransformEvaluator(F.ctx, F.keysFor(plan))
                .encode(t, plan, F.params.maxLevel(), Storage.COMPACT));
    }

    /** Mutated plans and encoded transforms (seeded, {@code -Dhoist.fuzz.tries}, 3000 in CI): the object written back, or the typed error. */
    @Test
    void planAndTransformReadersReturnAnObjectOrTheTypedError() {
        seeds();
        SeededFuzz.run("plan and transform readers", SeededFuzz.tries(3000), 4, m -> {
            byte[] plan = SeededFuzz.mutate(planSeed, m), transform = SeededFuzz.mutate(transformSeed, m);
            try {
                assertArrayEquals(
                        plan,
                        TransformSerialization.write(TransformSerialization.readPlan(plan)),
                        "an accepted plan is what it writes back");
            } catch (MalformedDataException expected) {
                // the typed error: fine
            }
            try {
                assertArrayEquals(
                        transform,
                        TransformSerialization.write(TransformSerialization.readEncodedTransform(transform, F.ctx)),
                        "an accepted transform is what it writes back");
            } catch (MalformedDataException expected) {
                // the typed error: fine
            }
        });
    }
}
