package io.hoist.cli;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.Cost;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.Plan;
import io.hoist.lt.Storage;
import io.hoist.ring.Op;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/** One encrypted matrix–vector product end to end: keys for exactly the plan, encode, encrypt, evaluate, check. */
final class LtRun {
    final CkksParameters params;
    final Plan plan;
    final Storage storage;
    Cost expected;
    Map<Op, Long> counts;
    PrecisionStats precision;
    double keygenMillis, encodeMillis, evaluateMillis, firstEvaluateMillis;
    int rotationKeys;
    long keyBytes, seededKeyBytes, diagonalBytes;
    String backend;

    LtRun(CkksParameters params, Plan plan, Storage storage) {
        this.params = params;
        this.plan = plan;
        this.storage = storage;
    }

    /** A random n×n transform with all n diagonals (dense) or {@code sparse} random ones; entries in [−1, 1]/√(#diagonals). */
    static LinearTransform randomTransform(SplittableRandom r, int n, int sparse) {
        Map<Integer, ComplexVector> diags = new HashMap<>();
        int count = sparse > 0 ? Math.min(sparse, n) : n;
        double s = 1 / Math.sqrt(count);
        if (sparse <= 0) for (int i = 0; i < n; i++) diags.put(i, ComplexVector.random(r, n).scale(s));
        else while (diags.size() < count) diags.put(r.nextInt(n), ComplexVector.random(r, n).scale(s));
        return LinearTransform.fromDiagonals(n, diags);
    }

    void run(CkksContext ctx, LinearTransform t, SplittableRandom r) {
        backend = ctx.engine().backend().name();
        int level = params.maxLevel();
        long t0 = System.nanoTime();
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        RotationKeySet keys = kg.genRotationKeys(sk, level, plan.rotationKeys(params));
        keygenMillis = (System.nanoTime() - t0) / 1e6;
        rotationKeys = keys.size();
        keyBytes = keys.sizes().fullBytes();
        seededKeyBytes = keys.sizes().seededBytes();

        LinearTransformEvaluator lte = new LinearTransformEvaluator(ctx, keys);
        t0 = System.nanoTime();
        EncodedTransform et = lte.encode(t, plan, level, storage);
        encodeMillis = (System.nanoTime() - t0) / 1e6;
        diagonalBytes = et.memoryBytes();

        Encoder encoder = new Encoder(ctx);
        ComplexVector x = ComplexVector.random(r, t.originalDimension());
        Ciphertext ct = Encryptor.withSecretKey(ctx, sk).encrypt(encoder.encode(t.replicate(x, params.slots()), level, params.defaultScale()));
        t0 = System.nanoTime();
        lte.evaluate(ct, et);   // the first evaluation also pays the JIT's warm-up; reported separately
        firstEvaluateMillis = (System.nanoTime() - t0) / 1e6;
        var before = ctx.counters().snapshot();
        t0 = System.nanoTime();
        Ciphertext y = lte.evaluate(ct, et);
        evaluateMillis = (System.nanoTime() - t0) / 1e6;
        counts = ctx.counters().since(before);
        expected = plan.cost(params, level, storage);
        ComplexVector got = new Decryptor(ctx, sk).decryptAndDecode(y, encoder);
        precision = PrecisionStats.of(t.replicate(t.apply(x), params.slots()), got);
    }

    long measuredNtt() {
        return counts.get(Op.NTT_LIMBS) + counts.get(Op.INTT_LIMBS);
    }

    boolean countsMatch() {
        return counts.get(Op.DECOMPOSE) == expected.decompose() && counts.get(Op.MOD_DOWN) == expected.modDown()
                && counts.get(Op.KS_INNER_PRODUCT) == expected.keySwitchInnerProducts() && counts.get(Op.PT_MUL) == expected.ptMuls()
                && measuredNtt() == expected.ntt();
    }

    Map<String, Object> measuredJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("decompose", counts.get(Op.DECOMPOSE));
        m.put("modDown", counts.get(Op.MOD_DOWN));
        m.put("keySwitchInnerProducts", counts.get(Op.KS_INNER_PRODUCT));
        m.put("ptMuls", counts.get(Op.PT_MUL));
        m.put("ntt", measuredNtt());
        return m;
    }

    static Map<String, Object> expectedJson(Cost c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("decompose", c.decompose());
        m.put("modDown", c.modDown());
        m.put("keySwitchInnerProducts", c.keySwitchInnerProducts());
        m.put("ptMuls", c.ptMuls());
        m.put("ntt", c.ntt());
        return m;
    }
}
