package io.hoist.bench;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.SecretKey;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import java.util.HashMap;
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

/**
 * One dense n×n matrix–vector product with n = slots, per algorithm (fewest-keys split; BSGS and
 * DH-BSGS at Lattigo's ratio-1 split), at n13 and at an n14-sized set (the Lattigo anchor's).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-XX:+UseParallelGC", "-Xmx20g"})
public class LtBenchmark {
    @Param({"n13", "n14anchor"})
    public String params;

    @Param({"th-bsgs", "dh-bsgs", "bsgs", "diagonal"})
    public String algo;

    @Param({"precomputed"})
    public String storage;

    private LinearTransformEvaluator lte;
    private EncodedTransform et;
    private Ciphertext ct;

    @Setup(Level.Trial)
    public void setup() {
        CkksParameters p = params.equals("n14anchor")
                ? CkksParameters.builder()
                        .name("n14anchor")
                        .logN(14)
                        .logQ(45, 34, 34, 34)
                        .logP(44, 43)
                        .build()
                : CkksParameters.preset(params);
        CkksContext ctx = CkksContext.create(p);
        int n = p.slots();
        SplittableRandom r = new SplittableRandom(1);
        Map<Integer, ComplexVector> diags = new HashMap<>();
        for (int i = 0; i < n; i++) diags.put(i, ComplexVector.random(r, n).scale(1 / Math.sqrt(n)));
        LinearTransform t = LinearTransform.fromDiagonals(n, diags);
        Algorithm a = Algorithm.parse(algo);
        Plan plan = switch (a) {
            case DIAGONAL -> Plan.of(t, a);
            case BSGS, DH_BSGS -> Plan.auto(t, p, p.maxLevel(), a, Objective.FEWEST_KEYS, 0);
            case TH_BSGS -> Plan.auto(t, p, p.maxLevel(), a, Objective.FEWEST_KEYS, 0);
        };
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        lte = new LinearTransformEvaluator(ctx, kg.genRotationKeys(sk, p.maxLevel(), plan.rotationKeys(p)));
        et = lte.encode(t, plan, p.maxLevel(), Storage.valueOf(storage.toUpperCase()));
        Encoder enc = new Encoder(ctx);
        ct = Encryptor.withSecretKey(ctx, sk)
                .encrypt(enc.encode(ComplexVector.random(r, n), p.maxLevel(), p.defaultScale()));
    }

    @Benchmark
    public Ciphertext evaluate() {
        return lte.evaluate(ct, et);
    }
}
