package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.Hashing;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.RelinearizationKey;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SwitchingKey;
import io.hoist.ckks.WrongOperandException;
import io.hoist.ckks.io.FileRefusedException;
import io.hoist.ckks.io.Inspector;
import io.hoist.ckks.io.KeySerialization;
import io.hoist.ckks.io.KeyStore;
import io.hoist.random.Prng;
import io.hoist.ring.Op;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded key storage (issue 22, item 5): a key holding only b parts and its seed regenerates each a
 * limb inside the key inner product, bit-identical to the stored limb, counted as expanded not read.
 */
class SeededKeyStorageTest {

    @ParameterizedTest(name = "logN {0}")
    @ValueSource(ints = {10, 11, 12})
    void seededKeysSwitchBitIdenticallyAndHoldAboutHalf(int logN) {
        CkksFixture f = new CkksFixture(CkksFixture.small(logN, new int[] {50, 40, 40, 40}, new int[] {60, 60}));
        int[] steps = {1, 5, -3};
        RotationKeySet full = f.kg.genRotationKeysForSteps(f.sk, f.params.maxLevel(), steps, true);
        RotationKeySet seeded = full.withStorage(KeyStorage.SEEDED);
        long fullBytes = full.memoryBytes(), seededBytes = seeded.memoryBytes();
        assertEquals(full.sizes().fullBytes(), fullBytes);
        assertEquals(full.sizes().seededBytes(), seededBytes);
        assertTrue(seededBytes < 0.51 * fullBytes, seededBytes + " of " + fullBytes);

        Evaluator ef = f.evaluator(full), es = f.evaluator(seeded);
        Ciphertext x = f.encrypt(ComplexVector.random(new SplittableRandom(logN), f.params.slots()));
        CkksContext ctx = f.ctx;
        for (int k : steps) {
            long expanded0 = ctx.counters().get(Op.KEY_LIMBS_EXPANDED);
            Ciphertext want = ef.rotate(x, k);
            assertEquals(expanded0, ctx.counters().get(Op.KEY_LIMBS_EXPANDED), "full keys expand nothing");
            long read0 = ctx.counters().get(Op.LIMBS_READ);
            Ciphertext got = es.rotate(x, k);
            int limbs = f.params.maxLevel() + 1 + f.params.alpha(), beta = f.params.beta(f.params.maxLevel());
            assertEquals((long) beta * limbs, ctx.counters().get(Op.KEY_LIMBS_EXPANDED) - expanded0, "step " + k);
            assertTrue(ctx.counters().get(Op.LIMBS_READ) - read0 > 0);
            assertEquals(want, got, "rotation by " + k);
        }
        assertEquals(ef.conjugate(x), es.conjugate(x));
        assertEquals(ef.rotateHoisted(x, steps), es.rotateHoisted(x, steps));
        // a low-level ciphertext reads the first limbs of a top-level key: the same limbs regenerate
        Ciphertext low = ef.dropLevel(x, 2);
        assertEquals(ef.rotate(low, 1), es.rotate(low, 1));
        // the relinearization key held seeded as well
        SwitchingKey rs = f.rlk.key().withStorage(KeyStorage.SEEDED);
        Evaluator er = new Evaluator(ctx, new RelinearizationKey(rs), seeded);
        assertEquals(ef.mulRelin(x, x), er.mulRelin(x, x));
    }

    @Test
    void seededKeysRegenerateEveryLimbAndRefuseRawAccess() {
        CkksFixture f = new CkksFixture(CkksFixture.small(10, new int[] {50, 40}, new int[] {60}));
        GaloisKey g = f.kg.genGaloisKey(f.sk, f.params.galoisElementForRotation(1), f.params.maxLevel());
        SwitchingKey full = g.key(), seeded = full.withStorage(KeyStorage.SEEDED);
        assertEquals(KeyStorage.SEEDED, seeded.storage());
        assertSame(seeded, seeded.withStorage(KeyStorage.SEEDED));
        SwitchingKey back = seeded.withStorage(KeyStorage.FULL);
        assertNotSame(full, back);
        Prng scratch = Prng.of(new byte[Prng.SEED_BYTES], 0);
        long[] limb = new long[f.params.n()];
        for (int t = 0; t < full.beta(); t++) {
            assertEquals(full.a(t).q(), seeded.a(t).q());
            assertEquals(full.a(t).p(), back.a(t).p());
            for (int j = 0; j < full.level() + 1 + f.params.alpha(); j++) {
                seeded.uniformLimb(t, j, limb, scratch);
                long[] want = j <= full.level()
                        ? full.a(t).q().limb(j)
                        : full.a(t).p().limb(j - full.level() - 1);
                assertArrayEquals(want, limb, "digit " + t + " limb " + j);
            }
        }
        assertThrows(WrongOperandException.class, () -> seeded.a(0, RawAccess.get()));
        assertThrows(WrongOperandException.class, () -> seeded.uniformLimb(0, 0, new long[8], scratch));
        assertThrows(WrongOperandException.class, () -> full.uniformLimb(0, 0, new long[8], scratch));
        // a key built by hand with a seed its a parts do not come from is never held or written seeded
        PolyQP[] bs = new PolyQP[full.beta()], as = new PolyQP[full.beta()];
        for (int t = 0; t < full.beta(); t++) {
            bs[t] = full.b(t);
            as[t] = full.a(t);
        }
        SwitchingKey forged = new SwitchingKey(f.params, bs, as, Prng.newSeed());
        assertThrows(WrongOperandException.class, () -> forged.withStorage(KeyStorage.SEEDED));
        assertThrows(
                WrongOperandException.class,
                () -> KeySerialization.write(new GaloisKey(g.galoisElement(), forged), true));
        assertThrows(WrongOperandException.class, () -> seeded.uniformLimb(0, 99, limb, scratch));
        // written full or seeded, a seeded key gives the bytes the full key gives
        assertEquals(
                sha(KeySerialization.write(g, false)),
                sha(KeySerialization.write(new GaloisKey(g.galoisElement(), seeded), false)));
        assertEquals(
                sha(KeySerialization.write(g, true)),
                sha(KeySerialization.write(new GaloisKey(g.galoisElement(), seeded), true)));
    }

    @Test
    void keygenCanHoldKeysSeededFromTheStart() {
        CkksFixture f = new CkksFixture(CkksFixture.small(10, new int[] {50, 40}, new int[] {60}));
        List<Long> gs = List.of(f.params.galoisElementForRotation(1), f.params.galoisElementForRotation(2));
        RotationKeySet s = f.kg.genRotationKeys(f.sk, f.params.maxLevel(), gs, Progress.NONE, KeyStorage.SEEDED);
        for (long g : s.galoisElements())
            assertEquals(KeyStorage.SEEDED, s.get(g, "test").key().storage());
        Ciphertext x = f.encrypt(ComplexVector.random(new SplittableRandom(3), f.params.slots()));
        RotationKeySet full = s.withStorage(KeyStorage.FULL);
        assertEquals(f.evaluator(full).rotate(x, 2), f.evaluator(s).rotate(x, 2));
        f.assertBits(x(f, 3).rotate(2), f.evaluator(s).rotate(f.encrypt(x(f, 3)), 2), 20, "seeded rotation");
    }

    /** Key generation straight into seeded storage makes no a part, yet the very b parts of the full path. */
    @Test
    void seededKeygenMakesTheFullPathsBParts() throws Exception {
        CkksParameters p = CkksFixture.small(11, new int[] {50, 40, 40}, new int[] {60, 60});
        List<Long> gs = List.of(p.galoisElementForRotation(1), p.galoisElementForConjugation());
        RotationKeySet[] made = new RotationKeySet[2];
        for (KeyStorage st : KeyStorage.values()) {
            try (AutoCloseable seeds = Prng.insecureDeterministicSeedsForTesting(77)) {
                CkksContext ctx = CkksContext.create(p, null, 1); // one thread: seeds drawn in program order
                KeyGenerator kg = new KeyGenerator(ctx);
                made[st.ordinal()] = kg.genRotationKeys(kg.genSecretKey(), p.maxLevel(), gs, Progress.NONE, st);
            }
        }
        for (long g : gs) {
            SwitchingKey full = made[0].get(g, "test").key(),
                    seeded = made[1].get(g, "test").key();
            assertEquals(KeyStorage.SEEDED, seeded.storage());
            for (int t = 0; t < full.beta(); t++) {
                assertEquals(full.b(t).q(), seeded.b(t).q(), "b, digit " + t);
                assertEquals(full.b(t).p(), seeded.b(t).p(), "b, digit " + t);
                assertEquals(full.a(t).q(), seeded.a(t).q(), "a, digit " + t);
            }
        }
    }

    private static ComplexVector x(CkksFixture f, int seed) {
        return ComplexVector.random(new SplittableRandom(seed), f.params.slots());
    }

    @Test
    void aSeededStoreLoadsSeededAndAFullOneRefuses(@TempDir Path dir) {
        CkksFixture f = new CkksFixture(CkksFixture.small(10, new int[] {50, 40}, new int[] {60}));
        RotationKeySet keys = f.kg.genRotationKeysForSteps(f.sk, f.params.maxLevel(), new int[] {1, 3}, false);
        Path seededStore = dir.resolve("s.hks"), fullStore = dir.resolve("f.hks");
        KeyStore.write(seededStore, keys, true);
        KeyStore.write(fullStore, keys, false);
        Ciphertext x = f.encrypt(x(f, 5));
        assertTrue(Inspector.inspect(seededStore).limbStreams(), "inspect names the per-limb streams");
        assertFalse(Inspector.inspect(fullStore).limbStreams());
        try (KeyStore st = KeyStore.open(seededStore, f.ctx, true)) {
            RotationKeySet s = st.load(keys.galoisElements(), KeyStorage.SEEDED);
            assertEquals(keys.sizes().seededBytes(), s.memoryBytes());
            assertEquals(f.evaluator(keys).rotate(x, 3), f.evaluator(s).rotate(x, 3));
            assertEquals(keys.memoryBytes(), st.load(keys.galoisElements()).memoryBytes(), "FULL expands");
        }
        try (KeyStore st = KeyStore.open(fullStore, f.ctx, true)) {
            assertThrows(FileRefusedException.class, () -> st.load(keys.galoisElements(), KeyStorage.SEEDED));
        }
    }

    /**
     * A seeded Galois key written by the code before per-limb streams (one stream per digit; the
     * deterministic seeds and parameters of FormatFreezeTest) still reads: written full, it is byte for
     * byte the full file that code wrote (SHA-256 below), and it cannot be held seeded.
     */
    @Test
    void seededFilesFromBeforeLimbStreamsStillRead() throws Exception {
        CkksParameters p = FormatFreezeTest.parameters();
        CkksContext ctx = CkksContext.create(p);
        byte[] legacy;
        try (InputStream in = SeededKeyStorageTest.class.getResourceAsStream("legacy-galois-seeded.hkey")) {
            legacy = in.readAllBytes();
        }
        GaloisKey g = KeySerialization.readGaloisKey(legacy, ctx);
        assertEquals(
                "c5828de42589038b37294c5f1e75812053b52098ce5951b16863d5a76a49655c",
                sha(KeySerialization.write(g, false)));
        assertThrows(WrongOperandException.class, () -> g.key().withStorage(KeyStorage.SEEDED));
        assertThrows(WrongOperandException.class, () -> KeySerialization.write(g, true));
    }

    static String sha(byte[] b) {
        return Hashing.sha256().hashBytes(b).toString();
    }
}
