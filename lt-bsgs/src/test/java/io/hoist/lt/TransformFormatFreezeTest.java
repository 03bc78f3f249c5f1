package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.hash.Hashing;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Progress;
import io.hoist.lt.io.TransformSerialization;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.random.Prng;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The wire format of lt-bsgs's kinds (plan, encoded transform, block row partial) frozen by SHA-256 from fixed seeds.
 * The block row partial is computed with Galois keys: its digest changed on 2026-12-02 with the keys' per-limb
 * uniform streams, and on 2026-12-08 with the constant-time Gaussian sampler's noise (the format did not).
 */
class TransformFormatFreezeTest {
    static final Map<String, String> GOLDEN = Map.of(
            "plan", "73b6cb54d55f43da21cf4358215e789fb4b5c173f83782478ca7ec1aec0ba84d",
            "encodedTransform", "8477309a99d4f0c44f045c0028c0975b8a29f98ec0cce624f54edd2bd5406abb",
            "blockRowPartial", "c29185c37b2fb89801261b215f1552f522d279009845a39ddf5ae0d89502efea");

    @Test
    void everyTransformKindHasItsFrozenDigest() throws Exception {
        Map<String, String> got = new LinkedHashMap<>();
        try (AutoCloseable seeds = Prng.insecureDeterministicSeedsForTesting(20261201L)) {
            LtFixture f = new LtFixture(10, new int[] {50, 40, 40}, new int[] {60});
            LinearTransform t = LtFixture.randomDense(new SplittableRandom(9), 16);
            Plan plan = Plan.of(t, Algorithm.TH_BSGS, 2, 2, 4);
            LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, f.keysFor(plan));
            got.put("plan", sha(TransformSerialization.write(plan)));
            got.put(
                    "encodedTransform",
                    sha(TransformSerialization.write(lte.encode(t, plan, f.params.maxLevel(), Storage.COMPACT))));
            BlockLinearTransform m = BlockLinearTransform.random(32, 32, 16, 3);
            EncodedBlockTransform ebt = lte.encode(m, plan, f.params.maxLevel(), Storage.COMPACT, Progress.NONE);
            SortedMap<Integer, Ciphertext> in = new TreeMap<>();
            in.put(
                    0,
                    f.enc.encrypt(f.encoder.encode(
                            m.replicate(ComplexVector.random(new SplittableRandom(4), 16), f.params.slots()),
                            f.params.maxLevel(),
                            f.params.defaultScale())));
            got.put(
                    "blockRowPartial",
                    sha(TransformSerialization.write(
                            lte.evaluatePartial(in, ebt).partials().get(0))));
        }
        String all = got.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
        for (var e : got.entrySet())
            assertEquals(GOLDEN.get(e.getKey()), e.getValue(), e.getKey() + " digest; this run: " + all);
    }

    static String sha(byte[] b) {
        return Hashing.sha256().hashBytes(b).toString();
    }
}
