package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.math.Primes;
import io.hoist.ring.NttEngine;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.fpga.FpgaSimBackend;
import io.hoist.ring.fpga.FpgaTimingModel;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A representative subset of the CKKS and linear-transform suites with every NTT on the simulated
 * FPGA: primes ≡ 1 mod 2^17 (what the kernel accepts) on a small ring, no fallback limb allowed.
 */
class FpgaBackendSuiteTest {
    @Test
    void ckksAndLinearTransformsRunOnTheSimulatedDevice() {
        long[] q =
                Primes.nttPrimes(16, 50, 3).stream().mapToLong(Long::longValue).toArray();
        long[] p =
                Primes.nttPrimes(16, 61, 2).stream().mapToLong(Long::longValue).toArray();
        q[1] = Primes.nttPrimes(16, 40, 1).get(0);
        q[2] = Primes.nttPrimes(16, 40, 2).get(1);
        CkksParameters params = CkksParameters.builder()
                .logN(11)
                .qPrimes(q)
                .pPrimes(p)
                .scale(0x1p40)
                .allowInsecure()
                .build();
        FpgaSimBackend sim = FpgaSimBackend.withShadow(FpgaTimingModel.Mode.STREAMING, null);
        OpCounters counters = new OpCounters();
        CkksContext ctx = new CkksContext(params, new NttEngine(sim, counters));
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        Encoder enc = new Encoder(ctx);
        Encryptor encryptor = Encryptor.withPublicKey(ctx, kg.genPublicKey(sk));
        Decryptor dec = new Decryptor(ctx, sk);
        SplittableRandom r = new SplittableRandom(91);

        RotationKeySet rot = kg.genRotationKeysForSteps(sk, params.maxLevel(), new int[] {1, -5}, true);
        Evaluator ev = new Evaluator(ctx, kg.genRelinearizationKey(sk), rot);
        ComplexVector v = ComplexVector.random(r, params.slots()), w = ComplexVector.random(r, params.slots());
        Ciphertext a = encryptor.encrypt(enc.encode(v, params.maxLevel(), params.defaultScale()));
        Ciphertext b = encryptor.encrypt(enc.encode(w, params.maxLevel(), params.defaultScale()));
        assertBits(PrecisionStats.of(v.rotate(1), dec.decryptAndDecode(ev.rotate(a, 1), enc)), 19);
        assertBits(
                PrecisionStats.of(
                        v.rotate(-5),
                        dec.decryptAndDecode(ev.rotateHoisted(a, 1, -5).get(-5), enc)),
                19);
        assertBits(PrecisionStats.of(v.conjugate(), dec.decryptAndDecode(ev.conjugate(a), enc)), 19);
        assertBits(PrecisionStats.of(v.mul(w), dec.decryptAndDecode(ev.rescale(ev.mulRelin(a, b)), enc)), 18);

        LinearTransform t = LtFixture.randomDense(r, 64);
        for (Plan plan : List.of(Plan.of(t, Algorithm.TH_BSGS, 4, 4, 4), Plan.of(t, Algorithm.DH_BSGS, 8, 8))) {
            LinearTransformEvaluator lte = new LinearTransformEvaluator(
                    ctx, kg.genRotationKeys(sk, params.maxLevel(), plan.rotationKeys(params)));
            EncodedTransform et = lte.encode(t, plan, params.maxLevel(), Storage.PRECOMPUTED);
            ComplexVector x = ComplexVector.random(r, 64);
            Ciphertext ct = encryptor.encrypt(
                    enc.encode(t.replicate(x, params.slots()), params.maxLevel(), params.defaultScale()));
            var before = counters.snapshot();
            Ciphertext y = lte.evaluate(ct, et);
            var used = counters.since(before);
            assertEquals(
                    plan.cost(params, params.maxLevel(), Storage.PRECOMPUTED).ntt(),
                    used.get(Op.NTT_LIMBS) + used.get(Op.INTT_LIMBS));
            assertBits(PrecisionStats.of(t.replicate(t.apply(x), params.slots()), dec.decryptAndDecode(y, enc)), 18);
        }
        assertEquals(0, counters.get(Op.NTT_FALLBACK_LIMBS), "every limb ran on the simulated device");
        var s = sim.offloadStats();
        assertTrue(s.calls() > 0 && s.deviceMicros() > 0 && s.shadowCpuNanos() > 0);
        assertEquals(
                counters.get(Op.NTT_LIMBS) + counters.get(Op.INTT_LIMBS),
                s.limbs(),
                "device statistics see every limb");
    }

    private static void assertBits(PrecisionStats p, double bits) {
        assertTrue(p.minBits() > bits, p.toString());
    }
}
