package io.hoist.ckks.io;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files crafted to pass the checksums: the inspector reports them damaged, never fails or sizes an allocation by them. */
class InspectorHardeningTest {
    private static final byte[] MAGIC = {(byte) 0x89, 'H', 'O', 'I', 'S', 'T', '\r', '\n'};

    @Test
    void aKeyStoreEntryAtAnOffsetThatWouldOverflowIsOutsideTheBody(@TempDir Path dir) throws IOException {
        long body = 4 + 28;
        ByteBuffer b = ByteBuffer.allocate(Header.SIZE + (int) body + 4).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putShort((short) 1).putShort((short) 9).putInt(2);
        b.put(new byte[32]).putInt(0).putDouble(0).putLong(body);
        b.putInt(1); // one key: Galois element, offset, length, checksum
        b.putLong(3).putLong(Long.MAX_VALUE - 10).putLong(20).putInt(0);
        CRC32C c = new CRC32C();
        c.update(b.array(), 0, b.position());
        b.putInt((int) c.getValue());
        Path p = dir.resolve("evil.hks");
        Files.write(p, b.array());
        Inspector.Inspection i = Inspector.inspect(p);
        assertFalse(i.ok());
        assertTrue(i.damage().contains("outside the body"), i.damage());
    }

    @Test
    void aParametersFileLongerThanAnyParametersIsDamagedWithoutReadingIt(@TempDir Path dir) throws IOException {
        long body = 1 << 20;
        ByteBuffer h = ByteBuffer.allocate(Header.SIZE).order(ByteOrder.LITTLE_ENDIAN);
        h.put(MAGIC).putShort((short) 1).putShort((short) 1).putInt(0);
        h.put(new byte[32]).putInt(-1).putDouble(0).putLong(body);
        CRC32C c = new CRC32C();
        c.update(h.array());
        c.update(new byte[(int) body]);
        Path p = dir.resolve("big.params");
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.write(h.array());
            f.setLength(Header.SIZE + body + 4);
            f.seek(Header.SIZE + body);
            int v = (int) c.getValue();
            f.write(new byte[] {(byte) v, (byte) (v >> 8), (byte) (v >> 16), (byte) (v >>> 24)});
        }
        Inspector.Inspection i = Inspector.inspect(p);
        assertTrue(i.checksumOk());
        assertFalse(i.ok());
    }
}
