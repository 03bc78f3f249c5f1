package io.hoist.bench;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.bfv.BatchEncoder;
import io.hoist.bfv.BfvCiphertext;
import io.hoist.bfv.BfvContext;
import io.hoist.bfv.BfvDecryptor;
import io.hoist.bfv.BfvEncryptor;
import io.hoist.bfv.BfvKeyGenerator;
import io.hoist.bfv.BfvParameters;
import io.hoist.bfv.BfvPlaintext;
import io.hoist.bfv.BfvSecretKey;
import io.hoist.bfv.seal.SealFormat;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.Warmup;

/** The BFV client's two paths as SEAL's figures time them: encode + seeded symmetric encryption + save, and decrypt + decode of a full ciphertext. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-XX:+UseParallelGC"})
public class BfvClientBenchmark {
    @Param({"seal4096", "seal8192", "small4096"})
    public String preset;

    private BatchEncoder enc;
    private BfvEncryptor sym;
    private BfvDecryptor dec;
    private long[] values;
    private BfvCiphertext full;

    @Setup
    public void setup() {
        var access = InsecureSecretKeyAccess.get();
        BfvContext ctx = BfvContext.of(BfvParameters.preset(preset));
        BfvSecretKey sk = new BfvKeyGenerator(ctx).secretKey();
        enc = new BatchEncoder(ctx);
        sym = BfvEncryptor.symmetric(ctx, sk, access);
        dec = new BfvDecryptor(ctx, sk, access);
        values = new SplittableRandom(1).longs(ctx.n(), 0, ctx.params().t()).toArray();
        full = sym.encrypt(enc.encode(values));
    }

    @Benchmark
    public byte[] encodeEncryptSeededSave() {
        BfvPlaintext m = enc.encode(values);
        return SealFormat.write(sym.encryptSeeded(m));
    }

    @Benchmark
    public long[] decryptDecode() {
        return enc.decode(dec.decrypt(full));
    }
}
