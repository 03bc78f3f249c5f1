package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.Plaintext;
import io.hoist.ckks.PublicKey;
import io.hoist.ckks.RelinearizationKey;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.SeededCiphertext;
import io.hoist.ckks.io.CiphertextSerialization;
import io.hoist.ckks.io.KeySerialization;
import io.hoist.ckks.io.KeyStore;
import io.hoist.ckks.io.MalformedDataException;
import io.hoist.ckks.io.ParametersSerialization;
import io.hoist.testing.SeededFuzz;
import io.hoist.testing.SeededFuzz.Mutation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Mutation fuzzing of every reader ({@link SeededFuzz}): valid encodings of every kind, mutated by bit
 * flips, byte writes, truncation, extension and header-field changes — half of them with the checksum
 * recomputed, so the body checks are reached too. The only outcomes allowed are a correct object or
 * {@link MalformedDataException}; allocation stays within a small multiple of the input.
 * {@code -Dhoist.fuzz.tries} (3000 in CI, 10^5 for a nightly run) sets the inputs per format, and a
 * failure names the seed and index that reproduce it.
 */
class FuzzTest {
    static CkksFixture f;
    static Map<String, byte[]> seeds;
    static Map<String, Function<byte[], Object>> readers;
    /** Each format is canonical: an input a reader accepts is exactly what writing its object gives. */
    static Map<String, Function<Object, byte[]>> writers;

    static Path store;

    static final int CI_TRIES = 3000;

    @BeforeAll
    static void setUp() throws IOException {
        f = new CkksFixture(CkksFixture.small(10, new int[] {50, 40}, new int[] {60}));
        CkksContext ctx = f.ctx;
        Ciphertext ct = f.encrypt(ComplexVector.random(new SplittableRandom(1), f.params.slots()));
        var pt = f.encoder.encode(ComplexVector.random(new SplittableRandom(2), f.params.slots()), 1, 0x1p30);
        var gk = f.kg.genGaloisKey(f.sk, f.params.galoisElementForRotation(1), 1);
        seeds = Map.of(
                "parameters", ParametersSerialization.write(f.params),
                "secretKey", KeySerialization.writeSecretKey(f.sk, InsecureSecretKeyAccess.get()),
                "publicKey", KeySerialization.write(f.pk),
                "relinKeySeeded", KeySerialization.write(f.rlk, true),
                "galoisKey", KeySerialization.write(gk, false),
                "ciphertext", CiphertextSerialization.write(ct),
                "seededCiphertext",
                        CiphertextSerialization.write(
                                Encryptor.withSecretKey(ctx, f.sk).encryptSeeded(pt)),
                "plaintext", CiphertextSerialization.write(pt));
        readers = Map.of(
                "parameters", ParametersSerialization::read,
                "secretKey", b -> KeySerialization.readSecretKey(b, ctx, InsecureSecretKeyAccess.get()),
                "publicKey", b -> KeySerialization.readPublicKey(b, ctx),
                "relinKeySeeded", b -> KeySerialization.readRelinearizationKey(b, ctx),
                "galoisKey", b -> KeySerialization.readGaloisKey(b, ctx),
                "ciphertext", b -> CiphertextSerialization.readCiphertext(b, ctx),
                "seededCiphertext", b -> CiphertextSerialization.readSeededCiphertext(b, ctx),
                "plaintext", b -> CiphertextSerialization.readPlaintext(b, ctx));
        writers = Map.of(
                "parameters", o -> ParametersSerialization.write((CkksParameters) o),
                "secretKey", o -> KeySerialization.writeSecretKey((SecretKey) o, InsecureSecretKeyAccess.get()),
                "publicKey", o -> KeySerialization.write((PublicKey) o),
                "relinKeySeeded", o -> KeySerialization.write((RelinearizationKey) o, true),
                "galoisKey", o -> KeySerialization.write((GaloisKey) o, false),
                "ciphertext", o -> CiphertextSerialization.write((Ciphertext) o),
                "seededCiphertext", o -> CiphertextSerialization.write((SeededCiphertext) o),
                "plaintext", o -> CiphertextSerialization.write((Plaintext) o));
        store = Files.createTempFile("hoist-fuzz", ".hks");
        store.toFile().deleteOnExit();
    }

    /** Every try mutates each of the eight formats, so the tries are the inputs per format. */
    @Test
    void readersReturnAnObjectOrTheTypedError() {
        SeededFuzz.run("readers", SeededFuzz.tries(CI_TRIES), SeededFuzz.KINDS, FuzzTest::readOne);
    }

    private static void readOne(Mutation m) {
        for (String kind : new TreeSet<>(seeds.keySet())) { // a fixed order: the seed reproduces the run
            byte[] input = SeededFuzz.mutate(seeds.get(kind), m);
            long before = SeededFuzz.allocatedBytes();
            try {
                Object o = readers.get(kind).apply(input);
                assertTrue(
                        Arrays.equals(writers.get(kind).apply(o), input),
                        kind + ": an accepted input is not what its object writes back");
            } catch (MalformedDataException expected) {
                // the typed error: fine
            }
            long used = SeededFuzz.allocatedBytes() - before;
            // a seeded key rebuilds its uniform parts (as large as the stored ones); parsing may hold two copies of the
            // input
            assertTrue(
                    used <= 6L * input.length + (4 << 20),
                    kind + " " + m + ": allocated " + used + " bytes for " + input.length + " input bytes");
        }
    }

    @Test
    void keyStoreReaderReturnsKeysOrTheTypedError() throws IOException {
        RotationKeysHolder.ensure();
        SeededFuzz.run("key store", SeededFuzz.tries(CI_TRIES), SeededFuzz.KINDS, m -> {
            try {
                readStore(m);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private static void readStore(Mutation m) throws IOException {
        byte[] input =
                SeededFuzz.mutate(RotationKeysHolder.bytes, new Mutation(m.op(), m.position(), m.value(), false));
        if (m.fixCrc() && input.length > 100) {
            // fix the index checksum so the index checks are reached
            int count = ByteBuffer.wrap(input).order(ByteOrder.LITTLE_ENDIAN).getInt(68);
            long indexEnd = 68 + 4 + 28L * Math.max(0, Math.min(count, 1000));
            if (indexEnd + 4 <= input.length) {
                CRC32C c = new CRC32C();
                c.update(input, 0, (int) indexEnd);
                ByteBuffer.wrap(input).order(ByteOrder.LITTLE_ENDIAN).putInt(input.length - 4, (int) c.getValue());
            }
        }
        Files.write(store, input);
        try (KeyStore st = KeyStore.open(store, f.ctx, m.value() % 2 == 0)) {
            st.verifyAll();
        } catch (MalformedDataException expected) {
            // the typed error: fine
        } catch (UncheckedIOException e) {
            throw new AssertionError("I/O error instead of the typed one: " + e.getMessage(), e);
        }
    }

    /** A small key store to mutate. */
    static final class RotationKeysHolder {
        static byte[] bytes;

        static synchronized void ensure() throws IOException {
            if (bytes != null) return;
            Path p = Files.createTempFile("hoist-fuzz-seed", ".hks");
            KeyStore.write(p, f.kg.genRotationKeysForSteps(f.sk, f.params.maxLevel(), new int[] {1, 2}, false), true);
            bytes = Files.readAllBytes(p);
            Files.delete(p);
        }
    }
}
