package io.hoist.ckks.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.testing.SpecialFiles;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inputs are refused by type or by size before a byte of their body is read; a store over 2 GiB opens. */
class FileChecksTest {
    private static final Duration SECOND = Duration.ofSeconds(1);

    @Test
    void aFifoADeviceAndADirectoryAreRefusedByTypeBeforeAnyRead(@TempDir Path dir) throws Exception {
        Path fifo = SpecialFiles.fifo(dir);
        if (fifo == null) fifo = dir.resolve("no-fifo-here");
        CkksContext ctx = CkksContext.create(CkksParameters.builder()
                .logN(10)
                .logQ(40, 40)
                .logP(45)
                .allowInsecure()
                .build());
        for (Path p : new Path[] {fifo, Path.of("/dev/zero"), dir}) {
            if (!Files.exists(p)) continue;
            FileRefusedException e = assertTimeoutPreemptively(
                    SECOND,
                    () -> assertThrows(FileRefusedException.class, () -> FileChecks.readObject(p, "the secret key")));
            assertTrue(
                    e.getMessage().contains(p.toString())
                            && (e.getMessage().contains("not a regular file")
                                    || e.getMessage().contains("directory")),
                    e.getMessage());
            assertTimeoutPreemptively(
                    SECOND, () -> assertThrows(FileRefusedException.class, () -> KeyStore.open(p, ctx, true)));
            assertTimeoutPreemptively(
                    SECOND, () -> assertThrows(FileRefusedException.class, () -> Inspector.inspect(p)));
        }
        assertTrue(assertThrows(
                        FileRefusedException.class,
                        () -> FileChecks.readObject(dir.resolve("absent"), "the secret key"))
                .getMessage()
                .endsWith("no such file or directory"));
    }

    @Test
    void anObjectAnnouncingMoreThanOneArrayIsRefusedBySizeWithoutReading(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("huge.hsk");
        ByteBuffer h = ByteBuffer.allocate(Header.SIZE).order(ByteOrder.LITTLE_ENDIAN);
        new Header(Header.VERSION, ObjectKind.SECRET_KEY, Header.NTT, new byte[32], 0, 0, 3L << 30).write(h);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.write(h.array());
            raf.setLength(Header.SIZE + (3L << 30) + 4); // sparse: no disk is used
        }
        FileRefusedException e = assertTimeoutPreemptively(
                SECOND,
                () -> assertThrows(FileRefusedException.class, () -> FileChecks.readObject(f, "the secret key")));
        assertTrue(e.getMessage().contains("more than one object may have"), e.getMessage());
        Path shortFile = dir.resolve("short.hsk");
        ByteBuffer h2 = ByteBuffer.allocate(Header.SIZE).order(ByteOrder.LITTLE_ENDIAN);
        new Header(Header.VERSION, ObjectKind.SECRET_KEY, Header.NTT, new byte[32], 0, 0, 1000).write(h2);
        Files.write(shortFile, h2.array());
        assertTrue(assertThrows(MalformedDataException.class, () -> FileChecks.readObject(shortFile, "the secret key"))
                .getMessage()
                .contains("truncated"));
    }

    /** A key store of about 2.1 GB, every entry zero (sparse), with a valid index: it opens, and a key reads as a typed error. */
    @Test
    void aKeyStoreOverTwoGibibytesOpensAndReadsKeyByKey(@TempDir Path dir) throws Exception {
        CkksParameters p = CkksParameters.builder()
                .logN(12)
                .logQ(new int[] {50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50})
                .logP(50, 50)
                .allowInsecure()
                .build();
        CkksContext ctx = CkksContext.create(p);
        long entry = KeySerialization.switchingBytes(p, p.maxLevel(), ObjectKind.GALOIS_KEY, false);
        int count = (int) ((2L << 30) / entry) + 4;
        long indexBytes = 4 + 28L * count, body = indexBytes + entry * count;
        assertTrue(Header.SIZE + body > Integer.MAX_VALUE, "the store is over 2 GiB: " + body);
        CRC32C zeros = new CRC32C();
        byte[] chunk = new byte[1 << 20];
        for (long left = entry; left > 0; left -= chunk.length)
            zeros.update(chunk, 0, (int) Math.min(chunk.length, left));
        ByteBuffer head = ByteBuffer.allocate(Header.SIZE + (int) indexBytes).order(ByteOrder.LITTLE_ENDIAN);
        new Header(
                        Header.VERSION,
                        ObjectKind.KEY_STORE,
                        Header.NTT,
                        ParametersSerialization.fingerprint(p),
                        p.maxLevel(),
                        0,
                        body)
                .write(head);
        head.putInt(count);
        for (int i = 0; i < count; i++)
            head.putLong(2L * i + 3) // odd elements past the identity, which has no key
                    .putLong(indexBytes + i * entry)
                    .putLong(entry)
                    .putInt((int) zeros.getValue());
        CRC32C hc = new CRC32C();
        hc.update(head.array(), 0, head.position());
        Path f = dir.resolve("big.hks");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.write(head.array());
            raf.setLength(Header.SIZE + body + 4);
            raf.seek(Header.SIZE + body);
            raf.write(ByteBuffer.allocate(4)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putInt((int) hc.getValue())
                    .array());
        }
        try (KeyStore store = KeyStore.open(f, ctx, true)) {
            assertEquals(count, store.size());
            MalformedDataException e =
                    assertThrows(MalformedDataException.class, () -> store.load(List.of(2L * (count - 1) + 3)));
            assertTrue(e.getMessage().contains("Galois element 0"), e.getMessage());
        }
    }
}
