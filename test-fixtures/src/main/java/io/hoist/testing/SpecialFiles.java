package io.hoist.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Files that are not regular files, for the refusal tests. */
public final class SpecialFiles {
    private SpecialFiles() {}

    /** A FIFO in {@code dir}, or null where {@code mkfifo} is not available (the caller skips that case). */
    public static Path fifo(Path dir) throws InterruptedException {
        Path f = dir.resolve("fifo");
        try {
            return new ProcessBuilder("mkfifo", f.toString()).start().waitFor() == 0 && Files.exists(f) ? f : null;
        } catch (IOException e) {
            return null;
        }
    }
}
