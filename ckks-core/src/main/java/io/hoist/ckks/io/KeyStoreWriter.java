package io.hoist.ckks.io;

import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.RotationKeySet;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Writes a key store (the layout of {@link KeyStore}): header, optional key-pair id, index with a
 * CRC per entry, then the entries, one reused entry buffer at a time, forced to disk.
 */
final class KeyStoreWriter {
    private KeyStoreWriter() {}

    /** The store written and forced to disk in a temporary file beside {@code path}; the caller renames it into place. */
    static Path writeTemporary(Path path, RotationKeySet keys, boolean seeded, KeyPairId pairId) throws IOException {
        Objects.requireNonNull(keys, "the key set is null");
        CkksParameters p = keys.params();
        List<GaloisKey> list = new ArrayList<>();
        for (long g : keys.galoisElements()) list.add(keys.get(g, "Galois element " + g));
        int level = list.isEmpty() ? p.maxLevel() : list.get(0).level();
        for (GaloisKey k : list)
            if (k.level() != level)
                throw new LevelMismatchException(
                        "a key store holds keys of one level; found " + level + " and " + k.level());
        long entry = KeySerialization.switchingBytes(p, level, ObjectKind.GALOIS_KEY, seeded);
        int prefix = pairId == null ? 0 : KeyPairId.BYTES;
        long indexBytes = prefix + 4 + (long) KeyStore.ENTRY * list.size();
        long body = Math.addExact(indexBytes, Math.multiplyExact(entry, (long) list.size()));
        int flags =
                Header.NTT | (seeded ? Header.SEEDED | Header.LIMB_STREAMS : 0) | (pairId == null ? 0 : Header.PAIRED);
        Path tmp = Files.createTempFile(
                path.toAbsolutePath().getParent(), path.getFileName().toString(), ".tmp");
        boolean done = false;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer head =
                    ByteBuffer.allocate(Header.SIZE + (int) indexBytes).order(ByteOrder.LITTLE_ENDIAN);
            new Header(
                            Header.VERSION,
                            ObjectKind.KEY_STORE,
                            flags,
                            ParametersSerialization.fingerprint(p),
                            level,
                            0,
                            body)
                    .write(head);
            if (pairId != null) head.put(pairId.toBytes());
            head.putInt(list.size());
            ch.position(Header.SIZE + indexBytes);
            ByteBuffer e = ByteBuffer.allocate((int) entry).order(ByteOrder.LITTLE_ENDIAN); // one entry buffer, reused
            for (int i = 0; i < list.size(); i++) {
                e.clear();
                KeySerialization.writeSwitchingBody(
                        e, ObjectKind.GALOIS_KEY, list.get(i).key(), list.get(i).galoisElement(), seeded);
                e.flip();
                int crc = Envelope.crc(e, 0, e.limit());
                head.putLong(list.get(i).galoisElement())
                        .putLong(indexBytes + i * entry)
                        .putLong(entry)
                        .putInt(crc);
                while (e.hasRemaining()) ch.write(e);
            }
            head.flip();
            int headCrc = Envelope.crc(head, 0, head.limit());
            ch.position(0);
            while (head.hasRemaining()) ch.write(head);
            ByteBuffer tail =
                    ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(headCrc);
            tail.flip();
            ch.position(Header.SIZE + body);
            while (tail.hasRemaining()) ch.write(tail);
            ch.force(true);
            done = true;
        } finally {
            if (!done) Formats.deleteQuietly(tmp);
        }
        return tmp;
    }
}
