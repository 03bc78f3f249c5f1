package io.hoist.ckks.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The checks every file Hoist reads or writes goes through, before any byte moves: only regular
 * files are opened for reading (a FIFO would block, a device would stream forever), sizes are
 * compared with the header before the body is read, and only absent or regular files are written
 * over. Errors name the path and the reason.
 */
public final class FileChecks {
    private FileChecks() {}

    /** The largest object read into one array; larger files are key stores, which are read key by key. */
    public static final long MAX_OBJECT_BYTES = Integer.MAX_VALUE - 64;

    /**
     * Refuses {@code path} unless it is a regular file (links followed); returns its size.
     *
     * @throws FileRefusedException if it is missing, a directory, a FIFO, a device or a socket
     */
    public static long requireRegularFile(Path path, String what) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            throw new FileRefusedException("cannot read " + what + " " + path + ": " + reason(e));
        }
        if (a.isDirectory()) throw new FileRefusedException("cannot read " + what + " " + path + ": it is a directory");
        if (!a.isRegularFile()) {
            throw new FileRefusedException("cannot read " + what + " " + path
                    + ": it is not a regular file (a FIFO, device or socket), refused before reading");
        }
        return a.size();
    }

    /**
     * A whole Hoist object file (not a key store): the type checked, the header read and its
     * announced length compared with the file's before the body is read.
     *
     * @throws FileRefusedException if the path is not a regular file or the object is over {@link #MAX_OBJECT_BYTES}
     * @throws MalformedDataException if the header is bad or the size disagrees with it
     */
    public static byte[] readObject(Path path, String what) {
        long size = requireRegularFile(path, what);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer hb = ByteBuffer.allocate((int) Math.min(Header.SIZE, size));
            readFully(ch, hb, 0);
            hb.flip();
            Header h = Header.read(hb);
            long announced = Header.SIZE + h.bodyLength() + 4;
            if (h.bodyLength() > MAX_OBJECT_BYTES || announced > MAX_OBJECT_BYTES) {
                throw new FileRefusedException(what + " " + path + " announces " + announced
                        + " bytes, more than one object may have (" + MAX_OBJECT_BYTES + ")");
            }
            if (size != announced) {
                throw new MalformedDataException(
                        what + " " + path + ": " + (size < announced ? "truncated: " : "trailing bytes: ") + size
                                + " bytes, its header announces " + announced);
            }
            ByteBuffer all = ByteBuffer.allocate((int) announced);
            readFully(ch, all, 0);
            return all.array();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + what + " " + path + ": " + reason(e), e);
        }
    }

    private static void readFully(FileChannel ch, ByteBuffer b, long pos) throws IOException {
        while (b.hasRemaining()) {
            int r = ch.read(b, pos);
            if (r < 0) throw new MalformedDataException("truncated: the file ended at " + pos + " bytes");
            pos += r;
        }
    }

    /**
     * Refuses to write {@code path} unless it is absent or a regular file (not a link, a device, a
     * FIFO or a directory) in an existing directory.
     *
     * @throws FileRefusedException naming the path and the reason
     */
    public static void requireWritableTarget(Path path, String what) {
        Path abs = path.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir == null || !Files.isDirectory(dir))
            throw new FileRefusedException(
                    "cannot write " + what + " " + path + ": the directory " + dir + " does not exist");
        if (Files.isSymbolicLink(abs))
            throw new FileRefusedException(
                    "cannot write " + what + " " + path + ": it is a symbolic link (name the file itself)");
        if (Files.exists(abs, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(abs, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileRefusedException(
                    "cannot write " + what + " " + path + ": it exists and is not a regular file ("
                            + (Files.isDirectory(abs) ? "a directory" : "a device, FIFO or socket") + ")");
        }
    }

    /** Whether two paths name one file: equal after normalisation, or (both existing) the same inode, hard links included. */
    public static boolean sameFile(Path a, Path b) {
        if (canonical(a).equals(canonical(b))) return true;
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /** The real path of the parent directory (links resolved) and the file name: two spellings of one absent file compare equal. */
    private static Path canonical(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path dir = abs.getParent();
        try {
            return dir == null ? abs : dir.toRealPath().resolve(abs.getFileName());
        } catch (IOException e) {
            return abs;
        }
    }

    /** What went wrong, in words: the JDK's exceptions for files carry only the path as their message. */
    public static String reason(IOException e) {
        if (e instanceof NoSuchFileException) return "no such file or directory";
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof FileAlreadyExistsException) return "the file already exists";
        if (e instanceof NotDirectoryException) return "not a directory";
        if (e instanceof DirectoryNotEmptyException) return "the directory is not empty";
        if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
