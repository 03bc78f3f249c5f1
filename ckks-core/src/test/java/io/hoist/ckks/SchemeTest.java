package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ring.Domain;
import io.hoist.ring.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Every operation against plaintext arithmetic at N = 2^12, Δ = 2^40, values in the unit square, with
 * keys from the slow reference generator ({@link ReferenceKeys}); keygen's own keys are checked by
 * its {@code GeneratedKeysTest}.
 *
 * <p>Thresholds (worst slot, L2 error): a fresh public-key encryption carries e0 + u·e + e1·s, whose
 * coefficients have standard deviation ≈ σ·√(4N/3) ≈ 2^7.9 at N = 2^12; a slot sums N of them, so
 * its error is ≈ 2^(7.9 + 6 − 40) = 2^-26 on average (measured: 26.7 bits avg) and about 2 bits worse
 * in the worst of 2048 slots (measured: 22.4–24.3). Key switching (ModDown rounding ≈ √N·α) and
 * rescaling (rounding ≈ √(N·2/3)) add less than that. So: ≥ 21 bits for fresh and key-switched
 * results, ≥ 20 bits after one multiplication and rescale, ≥ 18 after two.
 */
class SchemeTest {
    static final SchemeFixture F = new SchemeFixture(12, new int[] {55, 40, 40, 40}, new int[] {60, 60}, 20261201L);
    static final double FRESH_BITS = 21, MUL_BITS = 20;
    final SplittableRandom r = new SplittableRandom(51);

    private ComplexVector rand() {
        return ComplexVector.random(r, F.params.slots());
    }

    @Test
    void encodeDecodeAndEncryptDecrypt() {
        ComplexVector v = rand();
        Plaintext pt = F.encoder.encode(v, F.params.maxLevel(), F.params.defaultScale());
        PrecisionStats enc = PrecisionStats.of(v, F.encoder.decode(pt));
        assertTrue(enc.minBits() > 30, "encode/decode " + enc);
        check(v, F.encrypt(v), FRESH_BITS, "pk encryption");
    }

    @Test
    void seededSymmetricEncryptionHalvesTheUpload() {
        ComplexVector v = rand();
        Encryptor sym = Encryptor.withSecretKey(F.ctx, F.sk);
        Plaintext pt = F.encoder.encode(v, F.params.maxLevel(), F.params.defaultScale());
        SeededCiphertext sc = sym.encryptSeeded(pt);
        Ciphertext full = sym.expand(sc);
        check(v, full, FRESH_BITS, "v, full");
        assertTrue(
                sc.sizeBytes() * 2 <= full.sizeBytes() + 64,
                "seeded " + sc.sizeBytes() + " vs full " + full.sizeBytes());
        // the server expands without any key
        Ciphertext again = Encryptor.withPublicKey(F.ctx, F.pk).expand(sc);
        assertEquals(full, again);
    }

    @Test
    void additionSubtractionAndConstants() {
        Evaluator ev = F.evaluator(null);
        ComplexVector a = rand(), b = rand();
        Ciphertext ca = F.encrypt(a), cb = F.encrypt(b);
        Plaintext pb = F.encoder.encode(b, F.params.maxLevel(), F.params.defaultScale());
        check(a.add(b), ev.add(ca, cb), FRESH_BITS, "a.add(b), ev.add(ca, cb)");
        check(a.sub(b), ev.sub(ca, cb), FRESH_BITS, "a.sub(b), ev.sub(ca, cb)");
        check(a.add(b), ev.add(ca, pb), FRESH_BITS, "a.add(b), ev.add(ca, pb)");
        check(a.sub(b), ev.sub(ca, pb), FRESH_BITS, "a.sub(b), ev.sub(ca, pb)");
        check(a.scale(-1), ev.negate(ca), FRESH_BITS, "a.scale(-1), ev.negate(ca)");
        ComplexVector c = new ComplexVector(filled(0.25), filled(-0.5));
        check(a.add(c), ev.addConstant(ca, 0.25, -0.5), FRESH_BITS, "a.add(c), ev.addConstant(ca, 0.25, -0.5)");
        check(a.scale(3), ev.mulInteger(ca, 3), FRESH_BITS - 2, "a.scale(3), ev.mulInteger(ca, 3)");
    }

    @Test
    void multiplicationRelinearizationRescale() {
        Evaluator ev = F.evaluator(null);
        ComplexVector a = rand(), b = rand();
        Ciphertext ca = F.encrypt(a), cb = F.encrypt(b);
        Ciphertext prod = ev.mul(ca, cb);
        assertEquals(2, prod.degree());
        check(a.mul(b), prod, MUL_BITS, "degree-2 decrypt");
        Ciphertext rl = ev.relinearize(prod);
        Ciphertext rs = ev.rescale(rl);
        assertEquals(F.params.maxLevel() - 1, rs.level());
        check(a.mul(b), rs, MUL_BITS, "mul+relin+rescale");
        // plaintext product and a second multiplication level
        Plaintext pb = F.encoder.encode(b, F.params.maxLevel(), F.params.q(F.params.maxLevel()));
        Ciphertext pm = ev.rescale(ev.mulPlain(ca, pb));
        check(a.mul(b), pm, MUL_BITS, "mulPlain+rescale");
        Ciphertext sq = ev.rescale(ev.mulRelin(rs, rs));
        check(a.mul(b).mul(a.mul(b)), sq, 18, "second level");
        Ciphertext dropped = ev.dropLevel(ca, 2);
        assertEquals(F.params.maxLevel() - 2, dropped.level());
        check(a, dropped, FRESH_BITS, "a, dropped");
    }

    @Test
    void streamedHoistedRotationsAreTheMapsInStepOrderDuplicatesOnce() {
        int[] steps = {3, 0, -7, 3, 100, -7};
        RotationKeySet rot = F.keys.rotationKeys(new int[] {3, -7, 100}, false);
        Evaluator ev = F.evaluator(rot);
        Ciphertext c = F.encrypt(rand());
        Map<Integer, Ciphertext> held = ev.rotateHoisted(c, steps);
        List<Integer> order = new ArrayList<>();
        var before = F.ctx.counters().snapshot();
        ev.rotateHoisted(c, steps, (ct, k) -> {
            order.add(k);
            assertEquals(held.get(k), ct, "rotation by " + k + " as the map holds it");
        });
        assertEquals(List.of(3, 0, -7, 100), order);
        assertEquals(1, F.ctx.counters().since(before).get(Op.DECOMPOSE), "one shared Decompose");
        // a missing key is named before any rotation is handed out
        List<Integer> none = new ArrayList<>();
        assertThrows(
                MissingRotationKeyException.class, () -> ev.rotateHoisted(c, new int[] {3, 5}, (ct, k) -> none.add(k)));
        assertEquals(List.of(), none);
    }

    @Test
    void rotationsNegativeStepsConjugationAndHoisting() {
        int[] steps = {1, 2, 3, 5, 17, 100, -1, -7, F.params.slots() - 1, F.params.slots() / 2};
        RotationKeySet rot = F.keys.rotationKeys(steps, true);
        Evaluator ev = F.evaluator(rot);
        ComplexVector v = rand();
        Ciphertext c = F.encrypt(v);
        for (int k : steps) {
            check(v.rotate(k), ev.rotate(c, k), FRESH_BITS, "rotate " + k);
        }
        check(v.conjugate(), ev.conjugate(c), FRESH_BITS, "conjugate");
        check(v, ev.rotate(c, 0), FRESH_BITS, "rotate 0");

        var counters = F.ctx.counters();
        var before = counters.snapshot();
        Map<Integer, Ciphertext> hoisted = ev.rotateHoisted(c, steps);
        var used = counters.since(before);
        assertEquals(1, used.get(Op.DECOMPOSE), "one shared Decompose");
        assertEquals(steps.length, used.get(Op.KS_INNER_PRODUCT));
        assertEquals(2L * steps.length, used.get(Op.MOD_DOWN));
        for (int k : steps) {
            ComplexVector plain = F.decrypt(ev.rotate(c, k)), h = F.decrypt(hoisted.get(k));
            assertTrue(PrecisionStats.of(plain, h).minBits() > FRESH_BITS, "hoisted = plain rotation for " + k);
            assertTrue(PrecisionStats.of(v.rotate(k), h).minBits() > FRESH_BITS);
        }

        before = counters.snapshot();
        ev.rotate(c, 3);
        used = counters.since(before);
        assertEquals(1, used.get(Op.DECOMPOSE));
        assertEquals(2, used.get(Op.MOD_DOWN));
        assertEquals(1, used.get(Op.KS_INNER_PRODUCT));
        int logN = F.params.logN(), l = c.level(), beta = F.params.beta(l), d = l + 1 + F.params.alpha();
        assertEquals(
                (long) beta * d + 2L * d,
                used.get(Op.NTT_LIMBS) + used.get(Op.INTT_LIMBS),
                "limb transforms: β·D per Decompose, D per ModDown");

        // lazy hoisted rotations stay in QP; ModDown brings them back
        PolyQP[] digits = ev.decompose(c);
        CiphertextQP lazy = ev.rotateHoistedLazy(c, digits, 5);
        check(v.rotate(5), ev.modDown(lazy), FRESH_BITS, "v.rotate(5), ev.modDown(lazy)");
        CiphertextQP lazy0 = ev.rotateHoistedLazy(c, digits, 0);
        check(v, ev.modDown(lazy0), FRESH_BITS, "v, ev.modDown(lazy0)");
    }

    @Test
    void modDownMergedWithRescale() {
        RotationKeySet rot = F.keys.rotationKeys(new int[] {4}, false);
        Evaluator ev = F.evaluator(rot);
        ComplexVector v = rand(), w = rand();
        Ciphertext c = F.encrypt(v);
        // a QP ciphertext times a QP plaintext at scale ≈ q_L, then one merged ModDown+rescale
        CiphertextQP lazy = ev.rotateHoistedLazy(c, ev.decompose(c), 4);
        var ptw = F.encoder.encodeQP(w, c.level(), F.params.q(c.level()));
        var ringQ = F.ctx.ringQ();
        var ringP = F.ctx.ringP();
        PolyQP a = PolyQP.zero(F.ctx, c.level(), Domain.NTT), b = PolyQP.zero(F.ctx, c.level(), Domain.NTT);
        ringQ.mulCoeffs(lazy.a().q(), ptw.poly().q(), a.q());
        ringP.mulCoeffs(lazy.a().p(), ptw.poly().p(), a.p());
        ringQ.mulCoeffs(lazy.b().q(), ptw.poly().q(), b.q());
        ringP.mulCoeffs(lazy.b().p(), ptw.poly().p(), b.p());
        var before = F.ctx.counters().snapshot();
        Ciphertext out = ev.modDownRescale(new CiphertextQP(F.params, a, b, lazy.scale() * ptw.scale()));
        var used = F.ctx.counters().since(before);
        assertEquals(c.level() - 1, out.level());
        assertEquals(2, used.get(Op.MOD_DOWN));
        int d = c.level() + 1 + F.params.alpha();
        assertEquals(2L * d, used.get(Op.NTT_LIMBS) + used.get(Op.INTT_LIMBS), "merged: D transforms per polynomial");
        check(v.rotate(4).mul(w), out, MUL_BITS, "v.rotate(4).mul(w), out");
    }

    static void check(ComplexVector want, Ciphertext ct, double bits, String what) {
        F.assertBits(want, ct, bits, what);
    }

    static double[] filled(double x) {
        double[] a = new double[F.params.slots()];
        Arrays.fill(a, x);
        return a;
    }
}
