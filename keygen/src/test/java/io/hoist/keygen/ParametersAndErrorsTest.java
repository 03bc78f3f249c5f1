package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.EncodingOverflowException;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.InsecureParametersException;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.MissingRelinearizationKeyException;
import io.hoist.ckks.MissingRotationKeyException;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.ScaleMismatchException;
import io.hoist.ckks.SecretDistribution;
import io.hoist.ckks.WrongOperandException;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParametersAndErrorsTest {
    final SplittableRandom r = new SplittableRandom(61);

    /** α ∤ (L+1) (β = 3 with a short last digit), α = 1 (β = L+1), β = 1 (α ≥ L+1), sparse secret, sparse slots. */
    @ParameterizedTest
    @ValueSource(strings = {"alpha2-L5", "alpha1", "beta1", "sparse"})
    void keySwitchingForEveryDigitLayout(String shape) {
        CkksParameters.Builder b =
                CkksParameters.builder().logN(11).scale(0x1p40).allowInsecure();
        switch (shape) {
            case "alpha2-L5" -> b.logQ(55, 40, 40, 40, 40).logP(61, 61);
            case "alpha1" -> b.logQ(55, 40, 40).logP(61);
            case "beta1" -> b.logQ(50, 40).logP(61, 61, 61);
            default -> b.logQ(55, 40, 40).logP(61, 61).logSlots(6).secret(SecretDistribution.sparseTernary(64));
        }
        CkksFixture f = new CkksFixture(b.build());
        int expectedBeta = switch (shape) {
            case "alpha2-L5" -> 3;
            case "alpha1" -> 3;
            case "beta1" -> 1;
            default -> 2;
        };
        assertEquals(expectedBeta, f.params.beta());
        RotationKeySet rot = f.kg.genRotationKeysForSteps(f.sk, f.params.maxLevel(), new int[] {1, -3}, true);
        Evaluator ev = f.evaluator(rot);
        ComplexVector v = ComplexVector.random(r, f.params.slots()), w = ComplexVector.random(r, f.params.slots());
        Ciphertext c = f.encrypt(v), d = f.encrypt(w);
        f.assertBits(v.rotate(1), ev.rotate(c, 1), 19, shape + " rotate 1");
        f.assertBits(v.rotate(-3), ev.rotate(c, -3), 19, shape + " rotate -3");
        f.assertBits(v.conjugate(), ev.conjugate(c), 19, shape + " conjugate");
        f.assertBits(v.mul(w), ev.rescale(ev.mulRelin(c, d)), 18, shape + " mulRelin");
        // the same at a lower level: β shrinks with ℓ
        Ciphertext low = ev.dropLevel(c, 1);
        f.assertBits(v.rotate(1), ev.rotate(low, 1), 19, shape + " rotate at level " + low.level());
    }

    @Test
    void keysGeneratedAtALowerLevelWorkThereAndFailAbove() {
        CkksFixture f = new CkksFixture(CkksFixture.small(11, new int[] {55, 40, 40, 40}, new int[] {61, 61}));
        RotationKeySet low = f.kg.genRotationKeysForSteps(f.sk, 1, new int[] {2}, false);
        RotationKeySet top = f.kg.genRotationKeysForSteps(f.sk, f.params.maxLevel(), new int[] {2}, false);
        assertTrue(low.sizes().fullBytes() < top.sizes().fullBytes(), "a lower-level key is smaller");
        assertEquals(low.sizes().fullBytes(), 2L * 1 * (2 + 2) * 2048 * 8, "β=1 digit of ℓ+1+α = 4 limbs, two parts");
        assertTrue(low.sizes().seededBytes() < low.sizes().fullBytes() / 2 + 64);
        Evaluator ev = f.evaluator(low);
        ComplexVector v = ComplexVector.random(r, f.params.slots());
        Ciphertext c = f.encrypt(v);
        Ciphertext at1 = ev.atLevel(c, 1);
        f.assertBits(v.rotate(2), ev.rotate(at1, 2), 19, "low-level key");
        var e = assertThrows(LevelMismatchException.class, () -> ev.rotate(c, 2));
        assertTrue(e.getMessage().contains("level 1") && e.getMessage().contains("level 3"), e.getMessage());
    }

    @Test
    void badInputGetsTypedNamedErrors() {
        CkksFixture f = new CkksFixture(CkksFixture.small(11, new int[] {55, 40, 40}, new int[] {61}));
        CkksFixture g = new CkksFixture(CkksFixture.small(11, new int[] {50, 40, 40}, new int[] {61}));
        Evaluator ev = f.evaluator(f.kg.genRotationKeysForSteps(f.sk, f.params.maxLevel(), new int[] {1}, false));
        ComplexVector v = ComplexVector.random(r, f.params.slots());
        Ciphertext a = f.encrypt(v), other = g.encrypt(v);
        assertThrows(ParameterMismatchException.class, () -> ev.add(a, other));
        assertThrows(LevelMismatchException.class, () -> ev.add(a, ev.dropLevel(a, 1)));
        Ciphertext rescaled = ev.rescale(ev.mulRelin(a, a));
        assertThrows(ScaleMismatchException.class, () -> ev.add(ev.dropLevel(a, 1), rescaled));
        var missing = assertThrows(MissingRotationKeyException.class, () -> ev.rotate(a, 5));
        assertTrue(missing.getMessage().contains("rotation by 5"), missing.getMessage());
        assertThrows(MissingRotationKeyException.class, () -> ev.conjugate(a));
        assertThrows(WrongOperandException.class, () -> ev.rotate(ev.mul(a, a), 1), "degree-2 ciphertext");
        assertThrows(WrongOperandException.class, () -> ev.relinearize(a), "nothing to relinearize");
        assertThrows(LevelMismatchException.class, () -> ev.rescale(ev.atLevel(a, 0)));
        var pt = f.encoder.encode(v, 0, f.params.defaultScale());
        assertThrows(LevelMismatchException.class, () -> ev.mulPlain(a, pt), "plaintext below the ciphertext");
        assertThrows(MissingRelinearizationKeyException.class, () -> new Evaluator(f.ctx).relinearize(ev.mul(a, a)));
        assertThrows(ParameterMismatchException.class, () -> new Evaluator(f.ctx, g.rlk, null));
    }

    @Test
    void encoderRefusesValuesTooLargeForTheModulus() {
        CkksFixture f = new CkksFixture(CkksFixture.small(11, new int[] {55, 40}, new int[] {61}));
        Encoder enc = f.encoder;
        double[] big = new double[f.params.slots()];
        Arrays.fill(big, 1e6);
        // at level 0 Q has 55 bits: 1e6·2^40 ≈ 2^60 does not fit; at level 1 (95 bits) it does
        var e = assertThrows(EncodingOverflowException.class, () -> enc.encode(big, 0, 0x1p40));
        assertTrue(e.getMessage().contains("bits"), e.getMessage());
        ComplexVector back = enc.decode(enc.encode(big, 1, 0x1p40));
        assertEquals(1e6, back.re()[7], 1e-3);
        double[] nan = {Double.NaN};
        assertThrows(EncodingOverflowException.class, () -> enc.encode(nan, 1, 0x1p40));
        assertThrows(EncodingOverflowException.class, () -> enc.encode(new double[f.params.slots() + 1], 1, 0x1p40));
        // QP encoding has room for P as well
        var qp = enc.encodeQP(ComplexVector.ofReal(big), 0, 0x1p40);
        assertEquals(0, qp.level());
    }

    /** Edge cases a review found: a secret of full Hamming weight, and α = 16 special primes (17-prime merged ModDown). */
    @Test
    void fullWeightSecretAndManySpecialPrimes() {
        CkksFixture f = new CkksFixture(CkksParameters.builder()
                .logN(10)
                .logQ(50, 40)
                .logP(61, 61)
                .scale(0x1p40)
                .secret(SecretDistribution.sparseTernary(1 << 10))
                .allowInsecure()
                .build());
        ComplexVector v = ComplexVector.random(r, f.params.slots());
        f.assertBits(v, f.encrypt(v), 19, "h = N");
        int[] p16 = new int[16];
        Arrays.fill(p16, 50);
        CkksFixture g = new CkksFixture(CkksParameters.builder()
                .logN(11)
                .logQ(55, 40, 40)
                .logP(p16)
                .scale(0x1p40)
                .allowInsecure()
                .build());
        assertEquals(16, g.params.alpha());
        Evaluator ev = g.evaluator(g.kg.genRotationKeysForSteps(g.sk, g.params.maxLevel(), new int[] {3}, false));
        ComplexVector w = ComplexVector.random(r, g.params.slots());
        Ciphertext c = g.encrypt(w);
        g.assertBits(w.rotate(3), ev.rotate(c, 3), 19, "α = 16 rotation");
        // at scale 2^80 so that dividing by q_L (≈ 2^40) leaves a usable scale
        Ciphertext big = g.encryptor.encrypt(g.encoder.encode(w, g.params.maxLevel(), 0x1p80));
        Ciphertext merged = ev.modDownRescale(ev.rotateHoistedLazy(big, ev.decompose(big), 3));
        assertEquals(c.level() - 1, merged.level());
        g.assertBits(w.rotate(3), merged, 19, "α = 16 merged ModDown+rescale");
    }

    @Test
    void securityCheckAndPresets() {
        var e = assertThrows(
                InsecureParametersException.class,
                () -> CkksParameters.builder()
                        .logN(12)
                        .logQ(60, 40, 40)
                        .logP(60)
                        .build());
        assertTrue(e.getMessage().contains("log QP") && e.getMessage().contains("109"), e.getMessage());
        CkksParameters insecure = CkksParameters.builder()
                .logN(12)
                .logQ(60, 40, 40)
                .logP(60)
                .allowInsecure()
                .build();
        assertFalse(insecure.secure());
        assertTrue(insecure.securityLabel().startsWith("NOT SECURE"));
        for (String name : CkksParameters.presetNames()) {
            CkksParameters p = CkksParameters.preset(name);
            assertTrue(p.secure(), name + " is secure: " + p);
            assertEquals(p.qCount() + p.alpha(), p.qPrimes().length + p.pPrimes().length);
        }
        CkksParameters n16 = CkksParameters.preset("n16");
        assertEquals(25, n16.qCount());
        assertEquals(8, n16.alpha());
        assertEquals(4, n16.beta());
        // explicit primes reproduce the generated ones
        CkksParameters n13 = CkksParameters.preset("n13");
        CkksParameters same = CkksParameters.builder()
                .logN(13)
                .qPrimes(n13.qPrimes())
                .pPrimes(n13.pPrimes())
                .scale(0x1p40)
                .build();
        assertEquals(n13.logQP(), same.logQP());
        assertThrows(IllegalArgumentException.class, () -> CkksParameters.preset("n99"));
        assertThrows(
                IllegalArgumentException.class,
                () -> CkksParameters.builder()
                        .logN(12)
                        .logQ(40)
                        .logP(40)
                        .logSlots(12)
                        .allowInsecure()
                        .build());
        assertThrows(
                IllegalArgumentException.class,
                () -> CkksParameters.builder()
                        .logN(12)
                        .qPrimes(16385)
                        .logP(40)
                        .allowInsecure()
                        .build());
        CkksContext.create(n13);
    }
}
