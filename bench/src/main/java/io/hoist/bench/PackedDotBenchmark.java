package io.hoist.bench;

import io.hoist.math.Primes;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.PackedLimbs;
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

/**
 * Diagonal sums as phase 4 streams them: {@code sets} groups of {@code terms} diagonal limbs (64 MB
 * unpacked at the defaults, far past the caches) against one set of babies (A_b, B_b), with the
 * machine's kernels; plain limbs against the same residues packed two to a word ({@code PackedLimbs},
 * primes below 2^31).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-XX:+UseParallelGC", "-Xmx4g"})
public class PackedDotBenchmark {
    @Param({"13"})
    public int logN;

    @Param({"30"})
    public int bits;

    @Param({"16"})
    public int terms;

    @Param({"64"})
    public int sets;

    private final LimbKernels k = LimbKernels.best();
    private long q;
    private long[][][] plain, packed;
    private long[][] y, z;
    private long[] out0, out1;

    @Setup
    public void setup() {
        int n = 1 << logN;
        q = Primes.nttPrimes(logN, bits, 1).get(0);
        SplittableRandom r = new SplittableRandom(5);
        plain = new long[sets][terms][n];
        packed = new long[sets][terms][];
        y = new long[terms][n];
        z = new long[terms][n];
        for (int s = 0; s < sets; s++)
            for (int t = 0; t < terms; t++) {
                for (int i = 0; i < n; i++) plain[s][t][i] = r.nextLong(q);
                packed[s][t] = PackedLimbs.pack(plain[s][t]);
            }
        for (int t = 0; t < terms; t++)
            for (int i = 0; i < n; i++) {
                y[t][i] = r.nextLong(q);
                z[t][i] = r.nextLong(q);
            }
        out0 = new long[n];
        out1 = new long[n];
    }

    @Benchmark
    public long[] plain() {
        for (long[][] x : plain) k.dot2Montgomery(x, y, z, terms, out0, out1, q, true);
        return out0;
    }

    @Benchmark
    public long[] packed() {
        for (long[][] x : packed) k.dot2MontgomeryPacked(x, y, z, terms, out0, out1, q, true);
        return out0;
    }
}
