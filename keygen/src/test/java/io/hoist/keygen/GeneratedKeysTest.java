package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
     * Galois keys each at its own level: a key below the top rotates a ciphertext at its level and below, holds the
     * limbs of its level only, and an element named twice (equal mod 2N) takes the higher level; a level outside
     * the chain is refused by name.
     */
    @Test
    void galoisKeysAtTheirOwnLevels() {
        CkksFixture f = new CkksFixture(CkksFixture.small(12, new int[] {55, 40, 40, 40}, new int[] {60}));
        SplittableRandom r = new SplittableRandom(53);
        ComplexVector v = ComplexVector.random(r, f.params.slots());
        long g1 = f.params.galoisElementForRotation(1), g5 = f.params.galoisElementForRotation(5);
        long twoN = 2L * f.params.n();
        Map<Long, Integer> levels = new LinkedHashMap<>();
        levels.put(g1, 3);
        levels.put(g5, 1);
        levels.put(g5 + twoN, 2); // the same element: the higher level
        RotationKeySet rot = f.kg.genRotationKeys(f.sk, levels, Progress.NONE, KeyStorage.FULL);
        assertEquals(2, rot.size());
        assertEquals(3, rot.forRotation(1).key().level());
        assertEquals(2, rot.forRotation(5).key().level());
        assertTrue(rot.forRotation(5).key().memoryBytes()
                < rot.forRotation(1).key().memoryBytes());
        Evaluator ev = f.evaluator(rot);
        Ciphertext c = f.encrypt(v);
        for (int level : new int[] {2, 1, 0}) {
            Ciphertext at = ev.atLevel(c, level);
            f.assertBits(v.rotate(5), ev.rotate(at, 5), 21, "rotate 5 at level " + level);
            f.assertBits(v.rotate(1), ev.rotate(at, 1), 21, "rotate 1 at level " + level);
        }
        assertThrows(LevelMismatchException.class, () -> ev.rotate(c, 5), "a level-2 key at level 3");
        assertThrows(
                LevelMismatchException.class,
                () -> f.kg.genRotationKeys(f.sk, Map.of(g1, f.params.maxLevel() + 1), Progress.NONE, KeyStorage.FULL));
        assertThrows(
                LevelMismatchException.class,
                () -> f.kg.genRotationKeys(f.sk, Map.of(g1, -1), Progress.NONE, KeyStorage.FULL));
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
