package io.hoist.ckks.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.primitives.Bytes;
import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.keygen.KeyGenerator;
import io.hoist.testing.SpecialFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A key store and its secret key are written as one unit and read back only as a pair. */
class KeyFilesTest {
    static CkksContext ctx;
    static KeyGenerator kg;

    @BeforeAll
    static void setUp() {
        ctx = CkksContext.create(CkksParameters.builder()
                .logN(10)
                .logQ(40, 30)
                .logP(45)
                .scale(0x1p30)
                .allowInsecure()
                .build());
        kg = new KeyGenerator(ctx);
    }

    @AfterEach
    void noHook() {
        KeyFiles.hook = step -> {};
    }

    record Pair(SecretKey sk, RotationKeySet keys) {}

    static Pair freshPair() {
        SecretKey sk = kg.genSecretKey();
        return new Pair(sk, kg.genRotationKeysForSteps(sk, ctx.params().maxLevel(), new int[] {1, 2}, false));
    }

    /** Every entry of {@code dir} with its bytes: the exact state a failure must leave alone. */
    static TreeMap<String, byte[]> snapshot(Path dir) throws IOException {
        TreeMap<String, byte[]> m = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                // links, FIFOs and directories made by a test are named, not read (a FIFO would block)
                m.put(
                        p.getFileName().toString(),
                        Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) ? Files.readAllBytes(p) : new byte[0]);
            }
        }
        return m;
    }

    static void assertSameState(TreeMap<String, byte[]> before, TreeMap<String, byte[]> after) {
        assertEquals(before.keySet(), after.keySet(), "no file added or removed (temporaries and backups cleaned up)");
        for (String k : before.keySet()) assertArrayEquals(before.get(k), after.get(k), k + " unchanged");
    }

    @ParameterizedTest(name = "a failure at step {0} leaves the previous pair exactly as it was")
    @ValueSource(ints = {1, 2, 3, 4})
    void aFailureAtAnyStepLeavesThePreviousPairAsItWas(int step, @TempDir Path dir) throws IOException {
        Path store = dir.resolve("keys.hks"), secret = dir.resolve("keys.hsk");
        Pair old = freshPair();
        KeyPairId oldId = KeyFiles.writePair(store, secret, old.keys(), old.sk(), false, InsecureSecretKeyAccess.get());
        TreeMap<String, byte[]> before = snapshot(dir);
        KeyFiles.hook = k -> {
            if (k == step) throw new IOException("injected failure at step " + k);
        };
        Pair next = freshPair();
        UncheckedIOException e = assertThrows(
                UncheckedIOException.class,
                () -> KeyFiles.writePair(store, secret, next.keys(), next.sk(), true, InsecureSecretKeyAccess.get()));
        assertTrue(
                e.getMessage().contains("injected failure at step " + step)
                        && e.getMessage().contains("the previous files are unchanged"),
                e.getMessage());
        assertSameState(before, snapshot(dir));
        try (KeyStore s = KeyStore.open(store, ctx, false)) {
            assertEquals(oldId, s.pairId().orElseThrow());
            SecretKey back = KeyFiles.readSecretKeyFor(s, store, secret, ctx, InsecureSecretKeyAccess.get());
            assertArrayEquals(
                    KeySerialization.writeSecretKey(old.sk(), InsecureSecretKeyAccess.get()),
                    KeySerialization.writeSecretKey(back, InsecureSecretKeyAccess.get()),
                    "the old secret reads back");
        }
    }

    @ParameterizedTest(name = "a failure at step {0} with no previous pair leaves nothing behind")
    @ValueSource(ints = {1, 2, 3, 4})
    void aFailureWithNoPreviousPairLeavesNothing(int step, @TempDir Path dir) throws IOException {
        KeyFiles.hook = k -> {
            if (k == step) throw new IOException("injected");
        };
        Pair next = freshPair();
        assertThrows(
                UncheckedIOException.class,
                () -> KeyFiles.writePair(
                        dir.resolve("k.hks"),
                        dir.resolve("k.hsk"),
                        next.keys(),
                        next.sk(),
                        false,
                        InsecureSecretKeyAccess.get()));
        assertTrue(snapshot(dir).isEmpty(), "nothing written: " + snapshot(dir).keySet());
    }

    @Test
    void thePairCarriesOneRandomIdAndNoSecretInTheStore(@TempDir Path dir) throws IOException {
        Pair p = freshPair();
        Path store = dir.resolve("k.hks"), secret = dir.resolve("k.hsk");
        KeyPairId id = KeyFiles.writePair(store, secret, p.keys(), p.sk(), true, InsecureSecretKeyAccess.get());
        assertEquals(
                id, KeySerialization.secretKeyPairId(Files.readAllBytes(secret)).orElseThrow());
        byte[] sBytes = Files.readAllBytes(secret), kBytes = Files.readAllBytes(store);
        byte[] firstLimb =
                Arrays.copyOfRange(sBytes, Header.SIZE + KeyPairId.BYTES, Header.SIZE + KeyPairId.BYTES + 64);
        assertFalse(Bytes.indexOf(kBytes, firstLimb) >= 0, "the store holds none of the secret's bytes");
        assertTrue(
                Files.getPosixFilePermissions(secret).stream()
                        .noneMatch(x -> x.name().startsWith("GROUP") || x.name().startsWith("OTHERS")),
                "secret is owner-only");
        Inspector.Inspection i = Inspector.inspect(store);
        assertTrue(i.ok(), i.damage());
        assertEquals(id.toString(), i.keyPairId());
        assertEquals(2, i.galoisElements().size());
        assertFalse(
                KeyFiles.writePair(store, secret, p.keys(), p.sk(), true, InsecureSecretKeyAccess.get())
                        .equals(id),
                "each pair written gets a fresh id");
    }

    @Test
    void aStoreAndASecretOfDifferentPairsAreRefusedBeforeDecryption(@TempDir Path dir) throws IOException {
        Pair a = freshPair(), b = freshPair();
        Path sa = dir.resolve("a.hks"), ka = dir.resolve("a.hsk"), sb = dir.resolve("b.hks"), kb = dir.resolve("b.hsk");
        KeyFiles.writePair(sa, ka, a.keys(), a.sk(), false, InsecureSecretKeyAccess.get());
        KeyFiles.writePair(sb, kb, b.keys(), b.sk(), false, InsecureSecretKeyAccess.get());
        try (KeyStore s = KeyStore.open(sa, ctx, false)) {
            KeyPairMismatchException e = assertThrows(
                    KeyPairMismatchException.class,
                    () -> KeyFiles.readSecretKeyFor(s, sa, kb, ctx, InsecureSecretKeyAccess.get()));
            assertTrue(
                    e.getMessage().contains(sa.toString()) && e.getMessage().contains(kb.toString()), e.getMessage());
        }
        Path unpaired = dir.resolve("old.hsk"), unpairedStore = dir.resolve("old.hks");
        Formats.writeAtomically(unpaired, KeySerialization.writeSecretKey(a.sk(), InsecureSecretKeyAccess.get()));
        KeyStore.write(unpairedStore, a.keys(), false);
        try (KeyStore s = KeyStore.open(sa, ctx, false);
                KeyStore u = KeyStore.open(unpairedStore, ctx, false)) {
            assertTrue(assertThrows(
                            KeyPairMismatchException.class,
                            () -> KeyFiles.readSecretKeyFor(s, sa, unpaired, ctx, InsecureSecretKeyAccess.get()))
                    .getMessage()
                    .contains("and none"));
            assertThrows(
                    KeyPairMismatchException.class,
                    () -> KeyFiles.readSecretKeyFor(u, unpairedStore, unpaired, ctx, InsecureSecretKeyAccess.get()));
            assertEquals(
                    2,
                    u.load(List.of(ctx.params().galoisElementForRotation(1))).size() + 1,
                    "an unpaired store still loads its keys");
        }
    }

    @Test
    void theSameFileTwiceAndTargetsThatAreNotRegularFilesAreRefusedAndNothingIsWritten(@TempDir Path dir)
            throws Exception {
        Pair p = freshPair();
        Path same = dir.resolve("same.bin");
        FileRefusedException e = assertThrows(
                FileRefusedException.class,
                () -> KeyFiles.writePair(same, same, p.keys(), p.sk(), false, InsecureSecretKeyAccess.get()));
        assertTrue(e.getMessage().contains("would be the same file"), e.getMessage());
        assertThrows(
                FileRefusedException.class,
                () -> KeyFiles.writePair(
                        same,
                        dir.resolve(".").resolve("same.bin"),
                        p.keys(),
                        p.sk(),
                        false,
                        InsecureSecretKeyAccess.get()));
        Path store = dir.resolve("k.hks"), secret = dir.resolve("k.hsk");
        KeyFiles.writePair(store, secret, p.keys(), p.sk(), false, InsecureSecretKeyAccess.get());
        Path link = dir.resolve("link.hsk");
        Files.createLink(link, store);
        TreeMap<String, byte[]> before = snapshot(dir);
        assertThrows(
                FileRefusedException.class,
                () -> KeyFiles.writePair(store, link, p.keys(), p.sk(), false, InsecureSecretKeyAccess.get()),
                "a hard link to the store");
        Path sym = dir.resolve("sym.hsk");
        Files.createSymbolicLink(sym, dir.resolve("elsewhere.hsk"));
        before = snapshot(dir);
        assertThrows(
                FileRefusedException.class,
                () -> KeyFiles.writePair(
                        dir.resolve("n.hks"), sym, p.keys(), p.sk(), false, InsecureSecretKeyAccess.get()),
                "a symbolic link");
        Path sub = Files.createDirectory(dir.resolve("sub"));
        assertThrows(
                FileRefusedException.class,
                () -> KeyFiles.writePair(
                        dir.resolve("n.hks"), sub, p.keys(), p.sk(), false, InsecureSecretKeyAccess.get()),
                "a directory");
        Path fifo = SpecialFiles.fifo(dir);
        if (fifo != null)
            assertThrows(
                    FileRefusedException.class,
                    () -> KeyFiles.writePair(
                            dir.resolve("n.hks"), fifo, p.keys(), p.sk(), false, InsecureSecretKeyAccess.get()),
                    "a FIFO");
        assertThrows(
                FileRefusedException.class,
                () -> KeyFiles.writePair(
                        dir.resolve("n.hks"),
                        dir.resolve("missing/n.hsk"),
                        p.keys(),
                        p.sk(),
                        false,
                        InsecureSecretKeyAccess.get()),
                "a missing directory");
        TreeMap<String, byte[]> after = snapshot(dir);
        after.keySet().removeAll(Set.of("sub", "fifo"));
        before.keySet().removeAll(Set.of("sub", "fifo"));
        assertSameState(before, after);
        assertFalse(Files.exists(dir.resolve("elsewhere.hsk")), "nothing written through the link");
    }

    @Test
    void twoSpellingsOfOneAbsentFileAreTheSameFile(@TempDir Path dir) throws IOException {
        Path real = Files.createDirectory(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        Pair p = freshPair();
        FileRefusedException e = assertThrows(
                FileRefusedException.class,
                () -> KeyFiles.writePair(
                        real.resolve("k.bin"),
                        link.resolve("k.bin"),
                        p.keys(),
                        p.sk(),
                        false,
                        InsecureSecretKeyAccess.get()));
        assertTrue(e.getMessage().contains("would be the same file"), e.getMessage());
        assertTrue(snapshot(real).isEmpty(), "nothing written");
    }
}
