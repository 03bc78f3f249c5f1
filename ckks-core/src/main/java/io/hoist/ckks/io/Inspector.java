package io.hoist.ckks.io;

import com.google.common.io.BaseEncoding;
import io.hoist.ckks.CkksParameters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * What a Hoist file holds, without the parameters it was made for: kind, version, level, scale,
 * sizes, the keys of a key store, and whether every checksum holds. Reads the file in bounded
 * chunks; never allocates more than the header announces (and the file has).
 */
public final class Inspector {
    private Inspector() {}

    /** The result; {@code damage} is null when every check passed. */
    public record Inspection(
            String kind,
            int version,
            long fileBytes,
            long bodyBytes,
            int level,
            double scale,
            boolean seeded,
            boolean limbStreams,
            String parametersFingerprint,
            String parameters,
            List<Long> galoisElements,
            boolean checksumOk,
            String damage,
            String keyPairId) {
        public Inspection {
            galoisElements = List.copyOf(galoisElements);
        }

        public boolean ok() {
            return damage == null;
        }
    }

    /**
     * @throws FileRefusedException if {@code path} is not a regular file (nothing is read)
     */
    public static Inspection inspect(Path path) {
        Objects.requireNonNull(path, "the path is null");
        FileChecks.requireRegularFile(path, "the file");
        String pairId = null;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            ByteBuffer hb = ByteBuffer.allocate((int) Math.min(Header.SIZE, size));
            read(ch, hb, 0);
            hb.flip();
            Header h;
            try {
                h = Header.read(hb);
            } catch (MalformedDataException e) {
                return new Inspection(
                        "unknown",
                        0,
                        size,
                        0,
                        -1,
                        0,
                        false,
                        false,
                        null,
                        null,
                        List.of(),
                        false,
                        e.getMessage(),
                        pairId);
            }
            String fp = BaseEncoding.base16().lowerCase().encode(h.fingerprint());
            if (h.paired() && h.bodyLength() >= KeyPairId.BYTES && size >= Header.SIZE + KeyPairId.BYTES) {
                ByteBuffer idb = ByteBuffer.allocate(KeyPairId.BYTES);
                read(ch, idb, Header.SIZE);
                pairId = KeyPairId.of(idb.array()).toString();
            }
            long want = h.bodyLength() > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : Header.SIZE + h.bodyLength() + 4;
            if (size != want) {
                return damaged(
                        h,
                        size,
                        fp,
                        pairId,
                        (size < want ? "truncated: " : "trailing bytes: ") + size + " bytes, the header announces "
                                + want);
            }
            if (h.kind() == ObjectKind.KEY_STORE) return inspectStore(ch, h, size, fp, pairId);
            CRC32C crc = new CRC32C();
            ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
            long pos = 0, end = Header.SIZE + h.bodyLength();
            while (pos < end) {
                chunk.clear().limit((int) Math.min(chunk.capacity(), end - pos));
                read(ch, chunk, pos);
                chunk.flip();
                pos += chunk.remaining();
                crc.update(chunk);
            }
            ByteBuffer t = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
            read(ch, t, end);
            boolean ok = t.getInt(0) == (int) crc.getValue();
            String params = null;
            if (ok && h.kind() == ObjectKind.PARAMETERS) {
                try {
                    // no allocation sized by the file: a parameters body is small, whatever the header says
                    if (h.bodyLength() > ParametersSerialization.MAX_BODY_BYTES || size > FileChecks.MAX_OBJECT_BYTES)
                        throw new MalformedDataException("a parameters file of " + size + " bytes");
                    byte[] all = new byte[(int) size];
                    read(ch, ByteBuffer.wrap(all), 0);
                    CkksParameters p = ParametersSerialization.read(all);
                    params = p.toString();
                } catch (MalformedDataException e) {
                    return new Inspection(
                            h.kind().label(),
                            h.version(),
                            size,
                            h.bodyLength(),
                            h.level(),
                            h.scale(),
                            h.seeded(),
                            h.limbStreams(),
                            fp,
                            null,
                            List.of(),
                            true,
                            e.getMessage(),
                            pairId);
                }
            }
            return new Inspection(
                    h.kind().label(),
                    h.version(),
                    size,
                    h.bodyLength(),
                    h.level(),
                    h.scale(),
                    h.seeded(),
                    h.limbStreams(),
                    fp,
                    params,
                    List.of(),
                    ok,
                    ok ? null : "checksum mismatch: the data is damaged",
                    pairId);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + FileChecks.reason(e), e);
        }
    }

    private static Inspection inspectStore(FileChannel ch, Header h, long size, String fp, String pairId)
            throws IOException {
        int prefix = h.paired() ? KeyPairId.BYTES : 0;
        ByteBuffer cb = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        read(ch, cb, Header.SIZE + prefix);
        int count = cb.getInt(0);
        long indexBytes = prefix + 4 + 28L * count;
        if (count < 0 || indexBytes > h.bodyLength() || Header.SIZE + indexBytes > FileChecks.MAX_OBJECT_BYTES) {
            return damaged(h, size, fp, pairId, "key store index of " + count + " keys does not fit its body");
        }
        byte[] head = new byte[(int) (Header.SIZE + indexBytes)];
        read(ch, ByteBuffer.wrap(head), 0);
        CRC32C crc = new CRC32C();
        crc.update(head);
        ByteBuffer t = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        read(ch, t, Header.SIZE + h.bodyLength());
        if (t.getInt(0) != (int) crc.getValue()) {
            return damaged(h, size, fp, pairId, "checksum mismatch in the key store's index: the data is damaged");
        }
        ByteBuffer ib =
                ByteBuffer.wrap(head, Header.SIZE + prefix + 4, 28 * count).order(ByteOrder.LITTLE_ENDIAN);
        List<Long> gs = new ArrayList<>();
        String damage = null;
        ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
        for (int i = 0; i < count && damage == null; i++) {
            long g = ib.getLong(), off = ib.getLong(), len = ib.getLong();
            int want = ib.getInt();
            gs.add(g);
            if (off < indexBytes || len < 0 || off > h.bodyLength() - len) { // no sum that could overflow
                damage = "key " + i + " lies outside the body";
                break;
            }
            CRC32C c = new CRC32C();
            long pos = Header.SIZE + off, end = pos + len;
            while (pos < end) {
                chunk.clear().limit((int) Math.min(chunk.capacity(), end - pos));
                read(ch, chunk, pos);
                chunk.flip();
                pos += chunk.remaining();
                c.update(chunk);
            }
            if ((int) c.getValue() != want)
                damage = "checksum mismatch in key " + i + " (Galois element " + g + "): the data is damaged";
        }
        return new Inspection(
                h.kind().label(),
                h.version(),
                size,
                h.bodyLength(),
                h.level(),
                h.scale(),
                h.seeded(),
                h.limbStreams(),
                fp,
                null,
                gs,
                damage == null,
                damage,
                pairId);
    }

    /** What is known of a file whose check failed: its header fields and the reason. */
    private static Inspection damaged(Header h, long size, String fp, String pairId, String why) {
        return new Inspection(
                h.kind().label(),
                h.version(),
                size,
                h.bodyLength(),
                h.level(),
                h.scale(),
                h.seeded(),
                h.limbStreams(),
                fp,
                null,
                List.of(),
                false,
                why,
                pairId);
    }

    private static void read(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        while (b.hasRemaining()) {
            int r = ch.read(b, pos);
            if (r < 0) throw new MalformedDataException("truncated");
            pos += r;
        }
    }
}
