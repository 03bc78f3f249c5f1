package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.ring.LimbPool;
import java.util.List;
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

    /**
     * The generator's temporaries (φ(s), s², the scratch limb that holds a·s) all go back to its pool,
     * zeroed: secret residues are not left in limbs the pool hands out again. Full and seeded keys, on
     * two threads, and a key refused after φ(s) was borrowed.
     */
    @Test
    void temporariesGoBackZeroed() {
        CkksFixture f = new CkksFixture(CkksFixture.small(10, new int[] {50, 40, 40}, new int[] {55}));
        KeyGenerator kg = new KeyGenerator(CkksContext.create(f.params, null, 2));
        SecretKey sk = kg.genSecretKey();
        kg.genRelinearizationKey(sk);
        long g = f.params.galoisElementForRotation(1), h = f.params.galoisElementForRotation(3);
        kg.genRotationKeys(sk, f.params.maxLevel(), List.of(g, h));
        kg.genRotationKeys(sk, f.params.maxLevel(), List.of(g, h), Progress.NONE, KeyStorage.SEEDED);
        assertThrows(
                LevelMismatchException.class, () -> kg.genGaloisKey(sk, g, f.params.maxLevel() + 1)); // after borrowing
        LimbPool pool = kg.temporaries();
        assertEquals(0, pool.outstanding(), "limbs still out");
        long[][] back = pool.get((int) pool.created());
        for (long[] limb : back) for (long x : limb) assertEquals(0L, x, "a temporary came back with residues in it");
        pool.put(back);
    }
}
