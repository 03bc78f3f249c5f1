package io.hoist.ckks.io;

import io.hoist.ckks.CkksParameters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * The framing of the Hoist binary format for serializers in other modules (plans and encoded
 * transforms live in lt-bsgs): header, checked open, checksum.
 */
public final class Formats {
    private Formats() {}

    /** A buffer for header + body + trailer, header written, positioned at the body. */
    public static ByteBuffer start(
            ObjectKind kind, int flags, byte[] fingerprint, int level, double scale, long bodyLength) {
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
     * into place (atomically where the file system allows): a crash leaves the old file or the new
     * one. The target must be absent or a regular file ({@link FileChecks#requireWritableTarget}).
     */
    public static void writeAtomically(Path path, byte[] data) {
        Objects.requireNonNull(path, "the path is null");
        Objects.requireNonNull(data, "the data is null");
        FileChecks.requireWritableTarget(path, "the file");
        Path tmp = null;
        try {
            tmp = writeTemporary(path, data);
            moveIntoPlace(tmp, path);
            tmp = null;
            syncDirectory(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + FileChecks.reason(e), e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    /** {@code data} in a new temporary file beside {@code path} (owner-only permissions), forced to disk; the caller renames it. */
    static Path writeTemporary(Path path, byte[] data) throws IOException {
        Path tmp = Files.createTempFile(
                path.toAbsolutePath().getParent(), path.getFileName().toString(), ".tmp");
        boolean done = false;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(data);
            while (b.hasRemaining()) ch.write(b);
            ch.force(true);
            done = true;
        } finally {
            if (!done) deleteQuietly(tmp);
        }
        return tmp;
    }

    static void moveIntoPlace(Path tmp, Path path) throws IOException {
        try {
            Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Forces the directory entry of {@code path} to disk (after a rename), where the platform allows it. */
    static void syncDirectory(Path path) {
        Path dir = path.toAbsolutePath().getParent();
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // not every platform opens directories; the rename itself is still atomic
        }
    }

    static void deleteQuietly(Path tmp) {
        if (tmp == null) return;
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // the temporary file is left behind; the target was not touched
        }
    }
}
