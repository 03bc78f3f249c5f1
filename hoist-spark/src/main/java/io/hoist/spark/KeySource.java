package io.hoist.spark;

import io.hoist.ckks.io.MalformedDataException;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.apache.spark.SparkFiles;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;

/**
 * Where executors find the rotation-key store (a {@link io.hoist.ckks.io.KeyStore} file, which
 * holds evaluation keys only): a path every executor can read (a shared file system), or a file
 * shipped with the job by Spark itself.
 */
public sealed interface KeySource extends Serializable {
    /** The store's path on this machine (an executor). */
    Path resolve();

    /** A store at {@code path} on a file system every executor mounts at the same place. */
    static KeySource shared(Path path) {
        return new Shared(path.toAbsolutePath().toString());
    }

    /**
     * Checks, on an executor, that the store found is the one the job was made with; a shipped
     * store carries its size (Spark keeps the first file added under a name).
     */
    default void check(long fileBytes, Path where) {}

    /**
     * Ships the store with the job ({@code SparkContext.addFile}): each executor fetches one copy. It
     * goes under a name of its own (a hard link beside the store, or a copy where links are not
     * possible), because Spark ignores a second file added under a name it already has; it is removed when the
     * context stops.
     */
    static KeySource ship(JavaSparkContext sc, Path path) {
        if (!Files.isRegularFile(path)) throw new IllegalArgumentException("no key store at " + path);
        Path abs = path.toAbsolutePath();
        Path unique = abs.resolveSibling(".hoist-" + UUID.randomUUID() + "-" + abs.getFileName());
        try {
            try {
                Files.createLink(unique, abs);
            } catch (UnsupportedOperationException | IOException e) {
                Files.copy(abs, unique);
            }
            unique.toFile().deleteOnExit();
            sc.addFile(unique.toString());
            // addFile has fetched its own copy for the driver; the link is served to executors while the context runs
            sc.sc().addSparkListener(new SparkListener() {
                @Override
                public void onApplicationEnd(SparkListenerApplicationEnd end) {
                    try {
                        Files.deleteIfExists(unique);
                    } catch (IOException e) {
                        // deleteOnExit tries again
                    }
                }
            });
            return new Shipped(unique.getFileName().toString(), Files.size(abs));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot ship the key store " + path + ": " + e.getMessage(), e);
        }
    }

    record Shared(String path) implements KeySource {
        @Override
        public Path resolve() {
            return Path.of(path);
        }
    }

    record Shipped(String fileName, long bytes) implements KeySource {
        @Override
        public Path resolve() {
            return Path.of(SparkFiles.get(fileName));
        }

        @Override
        public void check(long fileBytes, Path where) {
            if (fileBytes != bytes) {
                throw new MalformedDataException("the key store shipped as " + fileName + " has " + fileBytes
                        + " bytes at " + where + ", the job's had " + bytes);
            }
        }
    }
}
