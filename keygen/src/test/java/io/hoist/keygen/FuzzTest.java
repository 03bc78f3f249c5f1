package io.hoist.keygen;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.io.CiphertextSerialization;
import io.hoist.ckks.io.KeySerialization;
import io.hoist.ckks.io.KeyStore;
import io.hoist.ckks.io.MalformedDataException;
import io.hoist.ckks.io.ParametersSerialization;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mutation fuzzing of every reader with jqwik: valid encodings of every kind, mutated by bit flips,
 * byte writes, truncation, extension and header-field changes — half of them with the checksum
 * recomputed, so the body checks are reached too. The only outcomes allowed are a correct object or
 * {@link MalformedDataException}; allocation stays within a small multiple of the input.
 * {@code jqwik.tries.default} (3000 in CI, 10^5 for a nightly run) sets the inputs per format.
 */
class FuzzTest {
    static CkksFixture f;
    static Map<String, byte[]> seeds;
    static Map<String, Function<byte[], Object>> readers;
    static Path store;

    @BeforeContainer
    static void setUp() throws IOException {
        f = new CkksFixture(CkksFixture.small(10, new int[] {50, 40}, new int[] {60}));
        CkksContext ctx = f.ctx;
        Ciphertext ct = f.encrypt(ComplexVector.random(new SplittableRandom(1), f.params.slots()));
        var pt = f.encoder.encode(ComplexVector.random(new SplittableRandom(2), f.params.slots()), 1, 0x1p30);
        var gk = f.kg.genGaloisKey(f.sk, f.params.galoisElementForRotation(1), 1);
        seeds = Map.of(
                "parameters", ParametersSerialization.write(f.params),
                "secretKey", KeySerialization.writeSecretKey(f.sk),
                "publicKey", KeySerialization.write(f.pk),
                "relinKeySeeded", KeySerialization.write(f.rlk, true),
                "galoisKey", KeySerialization.write(gk, false),
                "ciphertext", CiphertextSerialization.write(ct),
                "seededCiphertext", CiphertextSerialization.write(Encryptor.withSecretKey(ctx, f.sk).encryptSeeded(pt)),
                "plaintext", CiphertextSerialization.write(pt));
        readers = Map.of(
                "parameters", ParametersSerialization::read,
                "secretKey", b -> KeySerialization.readSecretKey(b, ctx),
                "publicKey", b -> KeySerialization.readPublicKey(b, ctx),
                "relinKeySeeded", b -> KeySerialization.readRelinearizationKey(b, ctx),
                "galoisKey", b -> KeySerialization.readGaloisKey(b, ctx),
                "ciphertext", b -> CiphertextSerialization.readCiphertext(b, ctx),
                "seededCiphertext", b -> CiphertextSerialization.readSeededCiphertext(b, ctx),
                "plaintext", b -> CiphertextSerialization.readPlaintext(b, ctx));
        store = Files.createTempFile("hoist-fuzz", ".hks");
        store.toFile().deleteOnExit();
    }

    /** A mutation: what is done, where, with which value, and whether the checksum is fixed afterwards. */
    record Mutation(int op, long position, long value, boolean fixCrc) {}

    @Provide
    Arbitrary<Mutation> mutations() {
        return net.jqwik.api.Combinators.combine(Arbitraries.integers().between(0, 6), Arbitraries.longs(), Arbitraries.longs(),
                Arbitraries.of(true, false)).as(Mutation::new);
    }

    static byte[] mutate(byte[] good, Mutation m) {
        byte[] b = good.clone();
        int pos = (int) Math.floorMod(m.position(), (long) b.length);
        switch (m.op()) {
            case 0 -> b[pos] ^= (byte) (1 << Math.floorMod(m.value(), 8));                         // one bit
            case 1 -> b[pos] = (byte) m.value();                                                    // one byte
            case 2 -> b = java.util.Arrays.copyOf(b, pos);                                          // truncated
            case 3 -> b = java.util.Arrays.copyOf(b, b.length + 1 + (int) Math.floorMod(m.value(), 64)); // extended
            case 4 -> {                                                                             // a header field
                int[] fields = {8, 10, 12, 48, 52, 60};
                int at = fields[(int) Math.floorMod(m.value(), fields.length)];
                ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at, (int) (m.position() >>> 7));
            }
            case 5 -> {                                                                             // a word of the body
                if (b.length > 80) ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(68 + Math.floorMod(m.position(), b.length - 80), m.value());
            }
            default -> {                                                                            // a run of bytes
                for (int i = 0; i < 16 && pos + i < b.length; i++) b[pos + i] = (byte) (m.value() >>> (4 * i));
            }
        }
        if (m.fixCrc()) fixCrc(b);
        return b;
    }

    static void fixCrc(byte[] b) {
        if (b.length < 4) return;
        CRC32C c = new CRC32C();
        c.update(b, 0, b.length - 4);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length - 4, (int) c.getValue());
    }

    static long allocated() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** Every try mutates each of the eight formats, so the tries are the inputs per format. */
    @Property
    void readersReturnAnObjectOrTheTypedError(@ForAll("mutations") Mutation m) {
        for (String kind : seeds.keySet()) {
            byte[] input = mutate(seeds.get(kind), m);
            long before = allocated();
            try {
                Object o = readers.get(kind).apply(input);
                assertTrue(o != null);
            } catch (MalformedDataException expected) {
                // the typed error: fine
            }
            long used = allocated() - before;
            // a seeded key rebuilds its uniform parts (as large as the stored ones); parsing may hold two copies of the input
            assertTrue(used <= 6L * input.length + (4 << 20), kind + " " + m + ": allocated " + used + " bytes for " + input.length + " input bytes");
        }
    }

    @Property
    void keyStoreReaderReturnsKeysOrTheTypedError(@ForAll("mutations") Mutation m) throws IOException {
        RotationKeysHolder.ensure();
        byte[] input = mutate(RotationKeysHolder.bytes, new Mutation(m.op(), m.position(), m.value(), false));
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
