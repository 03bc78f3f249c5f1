package io.hoist.ckks.io;

import com.google.common.collect.ImmutableList;
import com.google.errorprone.annotations.MustBeClosed;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.MissingRotationKeyException;
import io.hoist.ckks.RotationKeySet;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many Galois keys in one file with an index, read lazily: {@link #open} checks the header and the
 * index only, and {@link #load} reads (optionally from a memory mapping) exactly the keys asked for,
 * each checked against its own CRC32C — OpenFHE users ask for this: load only the automorphism keys
 * a computation needs. {@link #write} writes a temporary file next to the target and renames it into
 * place, so a crash never leaves a half-written store behind.
 *
 * <p>Layout: the 68-byte {@link Header} (kind KEY_STORE; level and seeded flag of every key), then
 * the body — the 16-byte {@link KeyPairId} when the PAIRED flag is set, u32 count, count index entries (u64 Galois element, u64 offset in the body, u64 length,
 * u32 CRC32C of the entry), then the entries (Galois-key bodies, see {@link KeySerialization}) — and
 * a CRC32C of header and index. Thread-safe.
 */
public final class KeyStore implements AutoCloseable {
    static final int ENTRY = 28;

    private final CkksContext ctx;
    private final Path path;
    private final FileChannel channel;
    private final boolean memoryMapped;
    private final Header header;
    private final KeyPairId pairId;
    private final long[] elements, offsets;
    private final int[] crcs;
    private final long entryLength;
    private final Long2IntOpenHashMap index = new Long2IntOpenHashMap();
    private final AtomicInteger loaded = new AtomicInteger();

    private KeyStore(
            CkksContext ctx,
            Path path,
            FileChannel channel,
            boolean memoryMapped,
            Header header,
            KeyPairId pairId,
            long[] elements,
            long[] offsets,
            int[] crcs,
            long entryLength) {
        this.ctx = ctx;
        this.path = path;
        this.channel = channel;
        this.memoryMapped = memoryMapped;
        this.header = header;
        this.pairId = pairId;
        this.elements = elements;
        this.offsets = offsets;
        this.crcs = crcs;
        this.entryLength = entryLength;
        for (int i = 0; i < elements.length; i++) index.put(elements[i], i);
    }

    // ---------------------------------------------------------------- writing

    /** Writes {@code keys} (all at one level) to {@code path}, full or seeded, atomically. */
    public static void write(Path path, RotationKeySet keys, boolean seeded) {
        write(path, keys, seeded, null);
    }

    /**
     * Writes {@code keys} to {@code path} carrying {@code pairId} (null: none), atomically; see
     * {@link KeyFiles#writePair} for a store written together with its secret key.
     */
    public static void write(Path path, RotationKeySet keys, boolean seeded, KeyPairId pairId) {
        Objects.requireNonNull(path, "the key store's path is null");
        FileChecks.requireWritableTarget(path, "the key store");
        Path tmp = null;
        try {
            tmp = KeyStoreWriter.writeTemporary(path, keys, seeded, pairId);
            Formats.moveIntoPlace(tmp, path);
            tmp = null;
            Formats.syncDirectory(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the key store " + path + ": " + FileChecks.reason(e), e);
        } finally {
            Formats.deleteQuietly(tmp);
        }
    }

    // ---------------------------------------------------------------- reading

    /**
     * Opens {@code path} for {@code ctx}'s parameters: reads and checks the header and the index
     * only. With {@code memoryMapped}, each key is later parsed in place from a mapping of its own
     * entry (so stores over 2 GiB map as well as small ones).
     *
     * @throws FileRefusedException if the path is not a regular file
     * @throws MalformedDataException if the header, the index or the size disagree
     */
    @MustBeClosed
    public static KeyStore open(Path path, CkksContext ctx, boolean memoryMapped) {
        Objects.requireNonNull(path, "the key store's path is null");
        Objects.requireNonNull(ctx, "the context is null");
        FileChecks.requireRegularFile(path, "the key store");
        FileChannel ch = null;
        try {
            ch = FileChannel.open(path, StandardOpenOption.READ);
            long size = ch.size();
            ByteBuffer hb = ByteBuffer.allocate(Header.SIZE);
            readFully(ch, hb, 0);
            hb.flip();
            Header h = Header.read(hb);
            if (h.kind() != ObjectKind.KEY_STORE)
                throw new MalformedDataException(
                        "expected a key store, found a " + h.kind().label());
            if (!Header.keyFlagsValid(h.flags(), Header.PAIRED) || Double.doubleToRawLongBits(h.scale()) != 0) {
                throw new MalformedDataException("a key store with flags 0x" + Integer.toHexString(h.flags())
                        + " and scale " + h.scale() + " in its header: not what any writer produces");
            }
            CkksParameters p = ctx.params();
            if (!Arrays.equals(h.fingerprint(), ParametersSerialization.fingerprint(p))) {
                throw new MalformedDataException("the key store " + path.getFileName()
                        + " was made under other parameters (fingerprint differs)");
            }
            Envelope.checkLevel(h, p, 0);
            if (h.bodyLength() > Long.MAX_VALUE - Header.SIZE - 4 || size != Header.SIZE + h.bodyLength() + 4) {
                throw new MalformedDataException("key store of " + size + " bytes, its header announces " + Header.SIZE
                        + " + " + h.bodyLength() + " + 4"
                        + (h.bodyLength() <= Long.MAX_VALUE - Header.SIZE - 4 && size < Header.SIZE + h.bodyLength() + 4
                                ? " (truncated)"
                                : ""));
            }
            int prefix = h.paired() ? KeyPairId.BYTES : 0;
            if (h.bodyLength() < prefix + 4)
                throw new MalformedDataException("key store body of " + h.bodyLength() + " bytes");
            ByteBuffer cb = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            readFully(ch, cb, Header.SIZE + prefix);
            int count = cb.getInt(0);
            long entry = KeySerialization.switchingBytes(p, h.level(), ObjectKind.GALOIS_KEY, h.seeded());
            if (entry > FileChecks.MAX_OBJECT_BYTES)
                throw new FileRefusedException("keys of " + entry + " bytes each are larger than one object may be");
            long indexBytes = prefix + 4 + (long) ENTRY * count;
            if (count < 0 || count > p.n() || indexBytes + entry * count != h.bodyLength()) {
                throw new MalformedDataException("key store index of " + count + " keys does not match its body of "
                        + h.bodyLength() + " bytes");
            }
            byte[] head = new byte[(int) (Header.SIZE + indexBytes) + 4];
            ByteBuffer all = ByteBuffer.wrap(head, 0, (int) (Header.SIZE + indexBytes));
            readFully(ch, all, 0);
            ByteBuffer tail = ByteBuffer.wrap(head, (int) (Header.SIZE + indexBytes), 4);
            readFully(ch, tail, Header.SIZE + h.bodyLength());
            Envelope.checkCrc(head, 0, (int) (Header.SIZE + indexBytes), " in the key store's index");
            KeyPairId pairId = h.paired()
                    ? KeyPairId.of(Arrays.copyOfRange(head, Header.SIZE, Header.SIZE + KeyPairId.BYTES))
                    : null;
            ByteBuffer ib = ByteBuffer.wrap(head, Header.SIZE + prefix + 4, ENTRY * count)
                    .order(ByteOrder.LITTLE_ENDIAN);
            long[] gs = new long[count], offs = new long[count];
            int[] crcs = new int[count];
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < count; i++) {
                gs[i] = ib.getLong();
                offs[i] = ib.getLong();
                long len = ib.getLong();
                crcs[i] = ib.getInt();
                if (len != entry || offs[i] != indexBytes + i * entry)
                    throw new MalformedDataException("key store index entry " + i + " is inconsistent");
                if (gs[i] <= 1 || gs[i] >= 2L * p.n() || (gs[i] & 1) == 0 || !seen.add(gs[i])) {
                    throw new MalformedDataException(
                            "key store index entry " + i + ": Galois element " + gs[i] + " is invalid or repeated");
                }
            }
            return new KeyStore(ctx, path, ch, memoryMapped, h, pairId, gs, offs, crcs, entry);
        } catch (IOException e) {
            close(ch);
            throw new UncheckedIOException("cannot read the key store " + path + ": " + FileChecks.reason(e), e);
        } catch (RuntimeException e) {
            close(ch);
            throw e;
        }
    }

    /** The id of the secret key written with this store, if it was written as a pair ({@link KeyFiles#writePair}). */
    public Optional<KeyPairId> pairId() {
        return Optional.ofNullable(pairId);
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        while (b.hasRemaining()) {
            int r = ch.read(b, pos);
            if (r < 0) throw new MalformedDataException("truncated key store");
            pos += r;
        }
    }

    private static void close(FileChannel ch) {
        if (ch == null) return;
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing to recover
        }
    }

    /** The Galois elements in the store, in file order. */
    public List<Long> galoisElements() {
        ImmutableList.Builder<Long> b = ImmutableList.builder();
        for (long g : elements) b.add(g);
        return b.build();
    }

    public boolean contains(long galoisElement) {
        return index.containsKey(Math.floorMod(galoisElement, 2L * ctx.n()));
    }

    /** Level of every key in the store. */
    public int level() {
        return header.level();
    }

    public boolean seeded() {
        return header.seeded();
    }

    public int size() {
        return elements.length;
    }

    /** Bytes of the file. */
    public long fileBytes() {
        return Header.SIZE + header.bodyLength() + 4;
    }

    /** Keys read from the file so far (by {@link #load}). */
    public int keysLoaded() {
        return loaded.get();
    }

    /**
     * Exactly the keys for {@code galoisElements}, read now; a missing one is named (with the rotation
     * it performs when it is a rotation's element).
     *
     * @throws MissingRotationKeyException naming the first element the store lacks
     * @throws MalformedDataException if a key's checksum or contents are damaged
     */
    public RotationKeySet load(Collection<Long> galoisElements) {
        return load(galoisElements, KeyStorage.FULL);
    }

    /**
     * {@link #load(Collection)} with the keys held as {@code storage}: SEEDED from a seeded store keeps
     * only the b parts and the seeds in memory (the a parts are never expanded).
     *
     * @throws FileRefusedException if SEEDED is asked of a full store (no seeds) or of a seeded store
     *     written before per-limb streams (its keys cannot regenerate one limb; write it again)
     */
    public RotationKeySet load(Collection<Long> galoisElements, KeyStorage storage) {
        Objects.requireNonNull(storage, "storage is null");
        if (storage == KeyStorage.SEEDED && !(header.seeded() && header.limbStreams()))
            throw new FileRefusedException("the key store " + path.getFileName()
                    + (header.seeded()
                            ? " was written before per-limb seeds: its keys can only be held in full (make a new store with hoist keygen to hold them seeded)"
                            : " holds full keys without seeds: they can only be held in full"));
        List<GaloisKey> out = new ArrayList<>();
        Set<Long> done = new HashSet<>();
        for (long g0 : galoisElements) {
            long g = Math.floorMod(g0, 2L * ctx.n());
            if (!done.add(g)) continue;
            if (!index.containsKey(g))
                throw new MissingRotationKeyException(
                        "the key store " + path.getFileName() + " has no key for " + describe(g));
            out.add(read(index.get(g), storage));
        }
        return new RotationKeySet(ctx.params(), out);
    }

    /** Reads every key and checks every checksum (for inspection); returns the count. */
    public int verifyAll() {
        for (int i = 0; i < elements.length; i++)
            read(i, header.seeded() && header.limbStreams() ? KeyStorage.SEEDED : KeyStorage.FULL);
        return elements.length;
    }

    private GaloisKey read(int i, KeyStorage storage) {
        if (entryLength > FileChecks.MAX_OBJECT_BYTES)
            throw new FileRefusedException(
                    "a key of " + entryLength + " bytes in " + path + " is larger than one object may be");
        int len = (int) entryLength;
        ByteBuffer b;
        try {
            if (memoryMapped) {
                b = channel.map(
                        FileChannel.MapMode.READ_ONLY,
                        Header.SIZE + offsets[i],
                        len); // parsed in place: no copy of the entry
            } else {
                b = ByteBuffer.allocate(len);
                readFully(channel, b, Header.SIZE + offsets[i]);
                b.flip();
            }
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot read the key store " + path + ": " + FileChecks.reason(ex), ex);
        }
        b.order(ByteOrder.LITTLE_ENDIAN);
        if (Envelope.crc(b, 0, len) != crcs[i]) {
            throw new MalformedDataException(
                    "checksum mismatch in key " + i + " (" + describe(elements[i]) + "): the data is damaged");
        }
        KeySerialization.Body k =
                KeySerialization.readSwitchingBody(b, ctx, ObjectKind.GALOIS_KEY, header.level(), header, storage);
        if (k.galoisElement() != elements[i])
            throw new MalformedDataException(
                    "key " + i + " holds Galois element " + k.galoisElement() + ", its index says " + elements[i]);
        loaded.incrementAndGet();
        return k.galoisKey();
    }

    private String describe(long g) {
        CkksParameters p = ctx.params();
        if (g == p.galoisElementForConjugation()) return "conjugation (Galois element " + g + ")";
        long twoN = 2L * p.n(), x = 1;
        for (int r = 0; r < p.slots() && r < 1 << 17; r++) {
            if (x == g) return "rotation by " + r + " (Galois element " + g + ")";
            x = x * 5 % twoN;
        }
        return "Galois element " + g;
    }

    @Override
    public void close() {
        close(channel);
    }
}
