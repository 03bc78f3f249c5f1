package io.hoist.ckks.io;

import io.hoist.ckks.CkksParameters;

import java.nio.ByteBuffer;

/**
 * The framing of the Hoist binary format for serializers in other modules (plans and encoded
 * transforms live in lt-bsgs): header, checked open, checksum.
 */
public final class Formats {
    private Formats() {}

    /** A buffer for header + body + trailer, header written, positioned at the body. */
    public static ByteBuffer start(ObjectKind kind, int flags, byte[] fingerprint, int level, double scale, long bodyLength) {
        return Envelope.start(kind, flags, fingerprint, level, scale, bodyLength);
    }

    /** Appends the checksum and returns the bytes. */
    public static byte[] finish(ByteBuffer b) {
        return Envelope.finish(b);
    }

    /** The header of {@code data}, checked (magic, version, kind). */
    public static Header header(byte[] data) {
        return Envelope.header(data);
    }

    /**
     * Checks kind, fingerprint (unless {@code params} is null), the exact body length and the checksum;
     * returns the body.
     */
    public static ByteBuffer open(byte[] data, Header h, ObjectKind want, CkksParameters params, long expectedBody) {
        return Envelope.open(data, h, want, params, expectedBody);
    }

    public static byte[] fingerprint(CkksParameters p) {
        return ParametersSerialization.fingerprint(p);
    }

    /**
     * Writes {@code data} to a temporary file next to {@code path}, forces it to disk and renames it
     * into place (atomically where the file system allows): a crash leaves the old file or the new one.
     */
    public static void writeAtomically(java.nio.file.Path path, byte[] data) {
        java.nio.file.Path tmp = null;
        try {
            tmp = java.nio.file.Files.createTempFile(path.toAbsolutePath().getParent(), path.getFileName().toString(), ".tmp");
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(data);
                while (b.hasRemaining()) ch.write(b);
                ch.force(true);
            }
            moveIntoPlace(tmp, path);
            tmp = null;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    static void moveIntoPlace(java.nio.file.Path tmp, java.nio.file.Path path) throws java.io.IOException {
        try {
            java.nio.file.Files.move(tmp, path, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (java.nio.file.AtomicMoveNotSupportedException e) {
            java.nio.file.Files.move(tmp, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }

    static void deleteQuietly(java.nio.file.Path tmp) {
        if (tmp == null) return;
        try {
            java.nio.file.Files.deleteIfExists(tmp);
        } catch (java.io.IOException ignored) {
            // the temporary file is left behind; the target was not touched
        }
    }
}
