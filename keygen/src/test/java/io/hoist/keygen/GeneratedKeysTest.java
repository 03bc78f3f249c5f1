package io.hoist.keygen;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.RotationKeySet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The key generator's keys do what the scheme needs: its public key encrypts, its relinearization
 * key relinearizes, its Galois keys rotate and conjugate (the scheme itself is tested in ckks-core's
 * SchemeTest, with reference keys). Thresholds as there: ≥ 21 bits fresh and key-switched, ≥ 20 after
 * one multiplication and rescale.
 */
class GeneratedKeysTest {
    @Test
    void publicRelinearizationAndGaloisKeysWork() {
        CkksFixture f = new CkksFixture(CkksFixture.small(12, new int[] {55, 40, 40, 40}, new int[] {60, 60}));
        SplittableRandom r = new SplittableRandom(52);
        ComplexVector v = ComplexVector.random(r, f.params.slots()), w = ComplexVector.random(r, f.params.slots());
        int[] steps = {1, -7, f.params.slots() / 2};
        RotationKeySet rot = f.kg.genRotationKeysForSteps(f.sk, f.params.maxLevel(), steps, true);
        Evaluator ev = f.evaluator(rot);
        Ciphertext c = f.encrypt(v), d = f.encrypt(w);
        f.assertBits(v, c, 21, "public-key encryption");
        f.assertBits(v.mul(w), ev.rescale(ev.mulRelin(c, d)), 20, "relinearization");
        for (int k : steps) f.assertBits(v.rotate(k), ev.rotate(c, k), 21, "rotate " + k);
        f.assertBits(v.conjugate(), ev.conjugate(c), 21, "conjugate");
    }
}
