package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.WrongOperandException;
import io.hoist.ckks.io.KeySerialization;
import io.hoist.random.Prng;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which keys a generator makes, and that they are the same bytes for the same test seed on any thread count. */
class KeySetIdentityTest {
    private static final CkksParameters P = CkksFixture.small(11, new int[] {55, 40, 40}, new int[] {61});

    /** The keys of 12 rotations and the conjugation from test seed 42 on a context of {@code threads} threads. */
    private static String keySetDigest(int threads) throws Exception {
        try (AutoCloseable seeds = Prng.insecureDeterministicSeedsForTesting(42)) {
            CkksContext ctx = CkksContext.create(P, "cpu", threads);
            KeyGenerator kg = new KeyGenerator(ctx);
            SecretKey sk = kg.genSecretKey();
            RotationKeySet keys = kg.genRotationKeysForSteps(
                    sk, P.maxLevel(), new int[] {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, 100, 511}, true);
            Hasher h = Hashing.sha256().newHasher();
            for (long g : keys.galoisElements()) h.putBytes(KeySerialization.write(keys.get(g, "test"), false));
            return h.hash().toString();
        }
    }

    /** Each key's seed and noise are drawn in order before the keys are made in parallel (they were drawn racily). */
    @Test
    void aTestSeedGivesTheSameKeysOnAnyThreadCount() throws Exception {
        String one = keySetDigest(1);
        assertEquals(one, keySetDigest(1));
        for (int i = 0; i < 4; i++) assertEquals(one, keySetDigest(2), "two threads, repeat " + i);
    }

    @Test
    void theIdentityHasNoKeyAndAnElementMustBeReduced() {
        CkksFixture f = new CkksFixture(P);
        long twoN = 2L * P.n();
        WrongOperandException e =
                assertThrows(WrongOperandException.class, () -> f.kg.genGaloisKey(f.sk, 1, P.maxLevel()));
        assertTrue(e.getMessage().contains("identity"), e.getMessage());
        assertThrows(WrongOperandException.class, () -> f.kg.genGaloisKey(f.sk, 1 + twoN, P.maxLevel()));
        RotationKeySet set = f.kg.genRotationKeys(f.sk, P.maxLevel(), List.of(1L, 5L, 5 + twoN));
        assertEquals(List.of(5L), set.galoisElements());
        assertFalse(set.contains(1));
        GaloisKey five = set.get(5, "rotation by 1");
        for (long g : new long[] {5 + twoN, -5, 4, 0, 1, twoN + 1})
            assertThrows(WrongOperandException.class, () -> new GaloisKey(g, five.key()), "g = " + g);
        assertEquals(5, new GaloisKey(5, five.key()).galoisElement());
    }

    @Test
    void residuesOfAnotherRingAreRefused() {
        CkksFixture f = new CkksFixture(P);
        CkksParameters other = CkksFixture.small(11, new int[] {58, 48, 48}, new int[] {61});
        PolyQP foreign =
                new KeyGenerator(CkksContext.create(other)).genSecretKey().material(InsecureSecretKeyAccess.get());
        assertThrows(ParameterMismatchException.class, () -> new SecretKey(P, foreign, InsecureSecretKeyAccess.get()));
        PolyQP own = f.sk.material(InsecureSecretKeyAccess.get());
        assertThrows(ParameterMismatchException.class, () -> f.kg.genSwitchingKey(foreign, own, P.maxLevel()));
        assertThrows(ParameterMismatchException.class, () -> f.kg.genSwitchingKey(own, foreign, P.maxLevel()));
    }
}
