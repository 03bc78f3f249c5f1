package io.hoist.bench;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.Plaintext;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.keygen.KeyGenerator;
import io.hoist.ring.RnsPoly;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** The scheme's operations at the presets n14 … n16 (single thread, default backend). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-XX:+UseParallelGC", "-Xmx12g"})
public class CkksBenchmark {
    @Param({"n14", "n15", "n16"})
    public String preset;

    private static final int[] STEPS = {1, 2, 3, 4, 5, 6, 7, 8};
    private CkksParameters params;
    private Encoder encoder;
    private Encryptor encryptor;
    private Evaluator ev;
    private ComplexVector x;
    private Plaintext px;
    private Ciphertext cx, cy, prod;
    private PolyQP[] digits;
    private PolyQP pc;

    @Setup(Level.Trial)
    public void setup() {
        params = CkksParameters.preset(preset);
        CkksContext ctx = CkksContext.create(params);
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        RotationKeySet rot = kg.genRotationKeysForSteps(sk, params.maxLevel(), STEPS, false);
        encoder = new Encoder(ctx);
        encryptor = Encryptor.withPublicKey(ctx, kg.genPublicKey(sk));
        ev = new Evaluator(ctx, kg.genRelinearizationKey(sk), rot);
        x = ComplexVector.random(new SplittableRandom(1), params.slots());
        px = encoder.encode(x, params.maxLevel(), params.defaultScale());
        cx = encryptor.encrypt(px);
        cy = encryptor.encrypt(px);
        prod = ev.mulRelin(cx, cy);
        digits = ev.decompose(cx);
        pc = ev.keySwitcher().timesP(cx.poly(0, RawAccess.get()));
    }

    @Benchmark
    public Plaintext encode() {
        return encoder.encode(x, params.maxLevel(), params.defaultScale());
    }

    @Benchmark
    public Ciphertext encrypt() {
        return encryptor.encrypt(px);
    }

    @Benchmark
    public Ciphertext mulRelin() {
        return ev.mulRelin(cx, cy);
    }

    @Benchmark
    public Ciphertext rescale() {
        return ev.rescale(prod);
    }

    @Benchmark
    public Ciphertext rotate() {
        return ev.rotate(cx, 1);
    }

    @Benchmark
    public Map<Integer, Ciphertext> rotateHoisted8() {
        return ev.rotateHoisted(cx, STEPS);
    }

    @Benchmark
    public PolyQP[] decompose() {
        return ev.decompose(cx);
    }

    @Benchmark
    public RnsPoly modDown() {
        return ev.keySwitcher().modDown(pc);
    }
}
