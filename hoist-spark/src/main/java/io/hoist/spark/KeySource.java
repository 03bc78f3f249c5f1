package io.hoist.spark;

import org.apache.spark.SparkFiles;
import org.apache.spark.api.java.JavaSparkContext;

import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;

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

    /** Ships the store with the job ({@code SparkContext.addFile}): each executor fetches one copy. */
    static KeySource ship(JavaSparkContext sc, Path path) {
        if (!Files.isRegularFile(path)) throw new IllegalArgumentException("no key store at " + path);
        sc.addFile(path.toAbsolutePath().toString());
        return new Shipped(path.getFileName().toString());
    }

    record Shared(String path) implements KeySource {
        @Override
        public Path resolve() {
            return Path.of(path);
        }
    }

    record Shipped(String fileName) implements KeySource {
        @Override
        public Path resolve() {
            return Path.of(SparkFiles.get(fileName));
        }
    }
}
