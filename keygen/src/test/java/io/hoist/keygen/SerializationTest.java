package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.MissingRotationKeyException;
import io.hoist.ckks.Plaintext;
import io.hoist.ckks.PublicKey;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.SeededCiphertext;
import io.hoist.ckks.SwitchingKey;
import io.hoist.ckks.io.CiphertextSerialization;
import io.hoist.ckks.io.Inspector;
import io.hoist.ckks.io.KeySerialization;
import io.hoist.ckks.io.KeyStore;
import io.hoist.ckks.io.MalformedDataException;
import io.hoist.ckks.io.ParametersSerialization;
import io.hoist.testing.SeededFuzz;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Round trips of every kind, the key store, and refusals of damaged input (issue 11). */
class SerializationTest {

    static CkksFixture fixture(int logN) {
        return new CkksFixture(CkksFixture.small(logN, new int[] {50, 40, 40}, new int[] {60, 60}));
    }

    static void assertSameKey(SwitchingKey a, SwitchingKey b) {
        assertEquals(a.beta(), b.beta());
        assertEquals(a.level(), b.level());
        for (int t = 0; t < a.beta(); t++) {
            assertEquals(a.b(t).q(), b.b(t).q());
            assertEquals(a.b(t).p(), b.b(t).p());
            assertEquals(a.a(t).q(), b.a(t).q());
            assertEquals(a.a(t).p(), b.a(t).p());
        }
    }

    @ParameterizedTest(name = "logN {0}")
    @ValueSource(ints = {10, 11, 12})
    void everyKindRoundTrips(int logN) {
        CkksFixture f = fixture(logN);
        CkksContext ctx = f.ctx;
        CkksParameters p2 = ParametersSerialization.read(ParametersSerialization.write(f.params));
        assertEquals(f.params, p2);
        SecretKey sk = KeySerialization.readSecretKey(
                KeySerialization.writeSecretKey(f.sk, InsecureSecretKeyAccess.get()),
                ctx,
                InsecureSecretKeyAccess.get());
        assertTrue(f.sk.equalsKey(sk), "the secret key reads back");
        PublicKey pk = KeySerialization.readPublicKey(KeySerialization.write(f.pk), ctx);
        assertEquals(f.pk.b(), pk.b());
        assertEquals(f.pk.a(), pk.a());
        for (boolean seeded : new boolean[] {false, true}) {
            assertSameKey(
                    f.rlk.key(),
                    KeySerialization.readRelinearizationKey(KeySerialization.write(f.rlk, seeded), ctx)
                            .key());
            GaloisKey gk = f.kg.genGaloisKey(f.sk, f.params.galoisElementForRotation(3), 1);
            GaloisKey back = KeySerialization.readGaloisKey(KeySerialization.write(gk, seeded), ctx);
            assertEquals(gk.galoisElement(), back.galoisElement());
            assertSameKey(gk.key(), back.key());
        }
        SplittableRandom r = new SplittableRandom(logN);
        ComplexVector x = ComplexVector.random(r, f.params.slots());
        Ciphertext ct = f.encrypt(x);
        assertEquals(ct, CiphertextSerialization.readCiphertext(CiphertextSerialization.write(ct), ctx));
        Ciphertext ct2 = f.evaluator(null).mul(ct, ct);
        assertEquals(ct2, CiphertextSerialization.readCiphertext(CiphertextSerialization.write(ct2), ctx));
        Plaintext pt = f.encoder.encode(x, 1, 0x1p30);
        Plaintext pb = CiphertextSerialization.readPlaintext(CiphertextSerialization.write(pt), ctx);
        assertEquals(pt.poly(), pb.poly());
        assertEquals(pt.scale(), pb.scale());
        SeededCiphertext sc = Encryptor.withSecretKey(ctx, f.sk).encryptSeeded(pt);
        SeededCiphertext sb = CiphertextSerialization.readSeededCiphertext(CiphertextSerialization.write(sc), ctx);
        assertEquals(
                Encryptor.withSecretKey(ctx, f.sk).expand(sc),
                Encryptor.withSecretKey(ctx, f.sk).expand(sb));
        assertTrue(CiphertextSerialization.write(sc).length
                < 0.55
                        * CiphertextSerialization.write(
                                        Encryptor.withSecretKey(ctx, f.sk).expand(sc))
                                .length);
    }

    @Test
    void keyStoreLoadsOnlyWhatIsAskedAndSeededIsAboutHalf(@TempDir Path dir) throws Exception {
        CkksFixture f = fixture(11);
        RotationKeySet keys =
                f.kg.genRotationKeysForSteps(f.sk, f.params.maxLevel(), new int[] {1, 2, 3, 5, 8, 13}, true);
        Path full = dir.resolve("full.hks"), seeded = dir.resolve("seeded.hks");
        KeyStore.write(full, keys, false);
        KeyStore.write(seeded, keys, true);
        assertTrue(Files.size(seeded) <= 0.55 * Files.size(full), Files.size(seeded) + " vs " + Files.size(full));
        try (var dirs = Files.list(dir)) {
            assertEquals(2, dirs.count(), "no temporary file is left behind");
        }
        for (Path path : List.of(full, seeded)) {
            for (boolean mmap : new boolean[] {false, true}) {
                try (KeyStore st = KeyStore.open(path, f.ctx, mmap)) {
                    assertEquals(keys.size(), st.size());
                    assertEquals(0, st.keysLoaded(), "opening reads the index only");
                    long g3 = f.params.galoisElementForRotation(3), g8 = f.params.galoisElementForRotation(8);
                    RotationKeySet two = st.load(List.of(g3, g8));
                    assertEquals(2, st.keysLoaded());
                    assertEquals(2, two.size());
                    assertSameKey(keys.get(g3, "3").key(), two.get(g3, "3").key());
                    var e = assertThrows(
                            MissingRotationKeyException.class,
                            () -> st.load(List.of(f.params.galoisElementForRotation(4))));
                    assertTrue(e.getMessage().contains("rotation by 4"), e.getMessage());
                    assertEquals(keys.size(), st.verifyAll());
                }
            }
            assertTrue(Inspector.inspect(path).ok());
            assertEquals(keys.size(), Inspector.inspect(path).galoisElements().size());
        }
        // another parameter set is refused, naming the reason
        CkksFixture other = new CkksFixture(CkksFixture.small(11, new int[] {50, 40, 40}, new int[] {61}));
        var e = assertThrows(MalformedDataException.class, () -> KeyStore.open(full, other.ctx, false));
        assertTrue(e.getMessage().contains("other parameters"), e.getMessage());
        // a damaged key is found when it is read, and by inspection; the others still load
        byte[] bytes = Files.readAllBytes(full);
        bytes[bytes.length - 100] ^= 1; // inside the last key
        Path bad = dir.resolve("bad.hks");
        Files.write(bad, bytes);
        assertFalse(Inspector.inspect(bad).ok());
        for (boolean mmap : new boolean[] {false, true}) {
            try (KeyStore st = KeyStore.open(bad, f.ctx, mmap)) {
                st.load(List.of(f.params.galoisElementForRotation(1)));
                var c = assertThrows(MalformedDataException.class, st::verifyAll);
                assertTrue(c.getMessage().contains("checksum"), c.getMessage());
            }
        }
    }

    @Test
    void damagedInputIsRefusedWithTheTypedError() {
        CkksFixture f = fixture(10);
        Ciphertext ct = f.encrypt(ComplexVector.random(new SplittableRandom(1), f.params.slots()));
        byte[] good = CiphertextSerialization.write(ct);
        Function<byte[], Object> read = b -> CiphertextSerialization.readCiphertext(b, f.ctx);
        assertRefused(read, Arrays.copyOf(good, good.length - 1), "truncated");
        assertRefused(read, Arrays.copyOf(good, 40), "truncated");
        byte[] flip = good.clone();
        flip[500] ^= 0x10;
        assertRefused(read, flip, "checksum");
        byte[] version = good.clone();
        version[8] = 2;
        assertRefused(read, version, "version 2");
        byte[] kind = good.clone();
        kind[10] = 99;
        assertRefused(read, kind, "kind 99");
        byte[] magic = good.clone();
        magic[1] = 'X';
        assertRefused(read, magic, "magic");
        byte[] huge = good.clone();
        ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putLong(60, Long.MAX_VALUE / 2);
        assertRefused(read, huge, "body length");
        assertRefused(
                b -> KeySerialization.readSecretKey(b, f.ctx, InsecureSecretKeyAccess.get()),
                good,
                "expected a secret key");
        CkksFixture other = fixture(11);
        assertRefused(b -> CiphertextSerialization.readCiphertext(b, other.ctx), good, "other parameters");
        // a residue ≥ its prime, with the checksum fixed up: the body check catches it
        byte[] big = good.clone();
        ByteBuffer.wrap(big).order(ByteOrder.LITTLE_ENDIAN).putLong(69, -1L);
        SeededFuzz.fixTrailingCrc(big);
        assertRefused(read, big, "not below its prime");
    }

    static void assertRefused(Function<byte[], Object> read, byte[] data, String why) {
        var e = assertThrows(MalformedDataException.class, () -> read.apply(data));
        assertTrue(e.getMessage().contains(why), "expected '" + why + "' in: " + e.getMessage());
    }
}
