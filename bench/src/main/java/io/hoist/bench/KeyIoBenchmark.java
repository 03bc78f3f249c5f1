package io.hoist.bench;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.io.KeySerialization;
import io.hoist.ckks.io.KeyStore;
import io.hoist.keygen.KeyGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading and writing switching keys in the binary format: one Galois key to and from bytes (full and
 * seeded), and a key store written and read back. Throughput = key bytes / time (target ≥ 1 GB/s).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-XX:+UseParallelGC", "-Xmx8g"})
public class KeyIoBenchmark {
    @Param({"n14", "n16"})
    public String preset;

    @Param({"false", "true"})
    public boolean seeded;

    private CkksContext ctx;
    private GaloisKey key;
    private RotationKeySet keys;
    private byte[] bytes;
    private Path dir, store;

    @Setup
    public void setup() throws IOException {
        CkksParameters p = CkksParameters.preset(preset);
        ctx = CkksContext.create(p);
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        keys = kg.genRotationKeysForSteps(sk, p.maxLevel(), new int[] {1, 2, 3, 4}, false);
        key = keys.get(p.galoisElementForRotation(1), "1");
        bytes = KeySerialization.write(key, seeded);
        dir = Files.createTempDirectory("hoist-io");
        store = dir.resolve("keys.hks");
        KeyStore.write(store, keys, seeded);
    }

    @TearDown
    public void tearDown() throws IOException {
        Files.deleteIfExists(store);
        Files.deleteIfExists(dir);
    }

    @Benchmark
    public byte[] writeKey() {
        return KeySerialization.write(key, seeded);
    }

    @Benchmark
    public GaloisKey readKey() {
        return KeySerialization.readGaloisKey(bytes, ctx);
    }

    @Benchmark
    public int writeAndReadStore() {
        KeyStore.write(store, keys, seeded);
        try (KeyStore st = KeyStore.open(store, ctx, true)) {
            return st.load(List.copyOf(keys.galoisElements())).size();
        }
    }
}
