package io.hoist.ckks.io;

import java.nio.file.Files;
import java.nio.file.Path;

/** A FIFO for tests, or null where mkfifo is not available. */
final class FileChecksTestSupport {
    private FileChecksTestSupport() {}

    static Path fifo(Path dir) throws Exception {
        Path f = dir.resolve("fifo");
        try {
            Process p = new ProcessBuilder("mkfifo", f.toString()).start();
            return p.waitFor() == 0 && Files.exists(f) ? f : null;
        } catch (java.io.IOException e) {
            return null;
        }
    }
}
