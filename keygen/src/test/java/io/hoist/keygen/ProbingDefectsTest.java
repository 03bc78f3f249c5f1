package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.InsecureParametersException;
import io.hoist.ckks.InvalidScaleException;
import io.hoist.ckks.MissingRelinearizationKeyException;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretDistribution;
import io.hoist.ckks.SecretKey;
import java.util.Collection;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The defects found by probing (issue 11), one test each. */
class ProbingDefectsTest {

    /** max |error| over the slots against the rms error: a Gaussian over 2^11 slots stays below ≈ 5 (8 leaves room for tails); a biased slot was 11–60. */
    static double peakToRms(ComplexVector want, ComplexVector got) {
        double sum = 0, max = 0;
        for (int i = 0; i < want.length(); i++) {
            double er = want.re(i) - got.re(i), ei = want.im(i) - got.im(i), e2 = er * er + ei * ei;
            sum += e2;
            max = Math.max(max, e2);
        }
        return Math.sqrt(max / (sum / want.length()));
    }

    @Test
    void keySwitchingAddsNoStructuredErrorToAnySlot() {
        // N = 2^12 with a 2^20 scale, so the key-switching rounding is the visible error
        CkksFixture f = new CkksFixture(CkksParameters.builder()
                .logN(12)
                .logQ(50, 40, 40)
                .logP(45, 45)
                .scale(0x1p20)
                .allowInsecure()
                .build());
        RotationKeySet rot = f.kg.genRotationKeysForSteps(f.sk, f.params.maxLevel(), new int[] {1, 5, 17}, true);
        Evaluator ev = f.evaluator(rot);
        SplittableRandom r = new SplittableRandom(3);
        ComplexVector x = ComplexVector.random(r, f.params.slots());
        Ciphertext ct = f.encrypt(x);
        for (int k : new int[] {1, 5, 17}) {
            Ciphertext y = ev.rotate(ct, k);
            double ratio = peakToRms(x.rotate(k), f.decrypt(y));
            assertTrue(ratio < 8, "rotation by " + k + ": worst slot " + ratio + "× the rms error");
            var p = f.precision(x.rotate(k), y);
            assertTrue(p.avgBits() - p.minBits() < 3.2, "rotation by " + k + ": " + p);
        }
        // lazy hoisted rotation and ModDown
        PolyQP[] d = ev.decompose(ct);
        Ciphertext lazy = ev.modDown(ev.rotateHoistedLazy(ct, d, 5));
        assertTrue(peakToRms(x.rotate(5), f.decrypt(lazy)) < 8, "hoisted rotation + ModDown");
        // an encryption of zero, rotated: the error itself must look like noise in every slot
        Ciphertext zero = f.encrypt(ComplexVector.zeros(f.params.slots()));
        ComplexVector z = f.decrypt(ev.rotate(zero, 1));
        assertTrue(peakToRms(ComplexVector.zeros(f.params.slots()), z) < 8, "rotated zero");
    }

    @Test
    void scalesAreValidatedAgainstTheModulusChain() {
        for (double s : new double[] {Double.NaN, -1, 0, 0.5, 1, Double.POSITIVE_INFINITY}) {
            assertThrows(
                    InvalidScaleException.class, () -> CkksParameters.builder().scale(s), "scale " + s);
        }
        var e = assertThrows(
                InvalidScaleException.class,
                () -> CkksParameters.builder()
                        .logN(13)
                        .logQ(50, 40, 40)
                        .logP(60)
                        .scale(0x1p200)
                        .build());
        assertTrue(e.getMessage().contains("2^200"), e.getMessage());
        CkksFixture f = new CkksFixture(CkksFixture.small(11, new int[] {50, 40}, new int[] {60}));
        ComplexVector x = ComplexVector.random(new SplittableRandom(1), f.params.slots());
        assertThrows(InvalidScaleException.class, () -> f.encoder.encode(x, 1, 1));
        assertThrows(InvalidScaleException.class, () -> f.encoder.encode(x, 0, 0x1p60));
        // a product whose scale outgrows the modulus at level 0
        Ciphertext a = f.encryptor.encrypt(f.encoder.encode(x, 0, 0x1p40));
        assertThrows(InvalidScaleException.class, () -> f.evaluator(null).mulRelin(a, a));
    }

    @Test
    void sparseSecretsAreLabelledByTheirWeight() {
        // h = 1 at a modulus the uniform bound allows: refused, and not secure when allowed
        var e = assertThrows(
                InsecureParametersException.class,
                () -> CkksParameters.builder()
                        .logN(13)
                        .logQ(50, 40, 40)
                        .logP(60)
                        .secret(SecretDistribution.sparseTernary(1))
                        .build());
        assertTrue(e.getMessage().contains("192"), e.getMessage());
        assertFalse(CkksParameters.builder()
                .logN(13)
                .logQ(50, 40, 40)
                .logP(60)
                .secret(SecretDistribution.sparseTernary(64))
                .allowInsecure()
                .build()
                .secure());
        // h = 192: Lattigo's N16QP1546H192 budget, 1546/1747 of the uniform bound
        assertTrue(CkksParameters.builder()
                .logN(13)
                .logQ(50, 40, 40)
                .logP(60)
                .secret(SecretDistribution.sparseTernary(192))
                .build()
                .secure());
        assertFalse(
                CkksParameters.builder()
                        .logN(13)
                        .logQ(55, 40, 40, 40)
                        .logP(30)
                        .secret(SecretDistribution.sparseTernary(192))
                        .allowInsecure()
                        .build()
                        .secure(),
                "log QP 205 > 218·1546/1747 = 192");
        assertTrue(
                CkksParameters.builder()
                        .logN(13)
                        .logQ(55, 40, 40, 40)
                        .logP(30)
                        .allowInsecure()
                        .build()
                        .secure(),
                "the same modulus with a uniform secret");
    }

    @Test
    void objectsOfTwoContextsWithEqualParametersMix() {
        CkksParameters p = CkksFixture.small(11, new int[] {50, 40}, new int[] {60});
        CkksFixture f = new CkksFixture(p);
        CkksContext other = CkksContext.create(p, "cpu-scalar");
        Evaluator ev =
                new Evaluator(other, f.rlk, f.kg.genRotationKeysForSteps(f.sk, p.maxLevel(), new int[] {1}, false));
        ComplexVector x = ComplexVector.random(new SplittableRandom(2), p.slots());
        Ciphertext ct = f.encrypt(x);
        Ciphertext y = ev.rotate(ev.add(ct, ct), 1);
        assertTrue(bits(x.add(x).rotate(1), new Decryptor(other, f.sk).decryptAndDecode(y, new Encoder(other))) > 20);
        assertTrue(bits(x.mul(x), f.decrypt(ev.rescale(ev.mulRelin(ct, ct)))) > 15);
        Evaluator home = new Evaluator(f.ctx, f.rlk, ev.rotationKeys());
        assertEquals(home.rotate(home.add(ct, ct), 1), y, "the same result, bit for bit, from either context");
    }

    private static double bits(ComplexVector want, ComplexVector got) {
        return PrecisionStats.of(want, got).minBits();
    }

    @Test
    void smallerOnes() {
        ComplexVector v = ComplexVector.random(new SplittableRandom(4), 8);
        double before = v.re(0);
        v.re()[0] = 42; // a copy
        assertEquals(before, v.re(0));
        assertThrows(
                IllegalArgumentException.class, () -> CkksParameters.builder().logSlots(-1));
        CkksFixture f = new CkksFixture(CkksFixture.small(10, new int[] {50, 40}, new int[] {60}));
        Ciphertext a = f.encrypt(ComplexVector.random(new SplittableRandom(5), f.params.slots()));
        assertThrows(
                MissingRelinearizationKeyException.class,
                () -> new Evaluator(f.ctx).relinearize(new Evaluator(f.ctx).mul(a, a)));
        RotationKeySet keys = f.kg.genRotationKeysForSteps(f.sk, f.params.maxLevel(), new int[] {1, 2}, false);
        assertThrows(UnsupportedOperationException.class, () -> ((Collection<Long>) keys.galoisElements()).add(7L));
        SecretKey sk = f.sk;
        assertEquals(f.params, sk.params());
        ComplexVector x = ComplexVector.random(new SplittableRandom(6), f.params.slots());
        Ciphertext c = Encryptor.withSecretKey(f.ctx, sk)
                .encrypt(f.encoder.encode(x, f.params.maxLevel(), f.params.defaultScale()));
        assertTrue(f.precision(x, c).minBits() > 20, "the secret-key encryptor encrypts what the decryptor gives back");
    }
}
