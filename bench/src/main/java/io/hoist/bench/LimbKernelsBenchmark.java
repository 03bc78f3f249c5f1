package io.hoist.bench;

import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.ScalarLimbKernels;
import io.hoist.ring.VectorLimbKernels;
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
 * Every coefficient-wise kernel above the NTT, scalar twin against vector form, one limb of N
 * coefficients: the per-kernel comparison the engine's choice of kernels rests on (on AVX2 the
 * vector forms rebuild 64-bit products from 32×32-bit lane products). dot2 is a key inner product
 * of {@code terms} digits with two outputs; sumShoup a BConv row of {@code terms} source limbs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-XX:+UseParallelGC"})
public class LimbKernelsBenchmark {
    @Param({"scalar", "vector"})
    public String kernels;

    @Param({"13", "16"})
    public int logN;

    @Param({"50"})
    public int bits;

    @Param({"3"})
    public int terms;

    private LimbKernels k;
    private long q, w, ws;
    private long[][] x, y, z;
    private long[] out0, out1, signed, ys, yss;

    @Setup
    public void setup() {
        k = kernels.equals("scalar") ? new ScalarLimbKernels() : new VectorLimbKernels();
        int n = 1 << logN;
        q = Primes.nttPrimes(logN, bits, 1).get(0);
        SplittableRandom r = new SplittableRandom(3);
        x = new long[terms][n];
        y = new long[terms][n];
        z = new long[terms][n];
        for (int t = 0; t < terms; t++)
            for (int i = 0; i < n; i++) {
                x[t][i] = r.nextLong(q);
                y[t][i] = r.nextLong(q);
                z[t][i] = r.nextLong(q);
            }
        out0 = new long[n];
        out1 = new long[n];
        signed = new long[n];
        for (int i = 0; i < n; i++) signed[i] = r.nextLong(1L << 40) - (1L << 39);
        w = r.nextLong(q);
        ws = ModArith.shoupQuotient(w, q);
        ys = new long[terms];
        yss = new long[terms];
        for (int t = 0; t < terms; t++) {
            ys[t] = r.nextLong(q);
            yss[t] = ModArith.shoupQuotient(ys[t], q);
        }
    }

    @Benchmark
    public long[] dot2() {
        k.dot2Montgomery(x, y, z, terms, out0, out1, q, false);
        return out0;
    }

    @Benchmark
    public long[] mulShoup() {
        k.mulShoup(x[0], w, ws, q, out0, 0, out0.length);
        return out0;
    }

    @Benchmark
    public long[] sumShoup() {
        k.sumShoup(x, terms, ys, yss, q, out0, 0, out0.length);
        return out0;
    }

    @Benchmark
    public long[] liftSigned() {
        k.liftSigned(signed, w, ws, q, out0);
        return out0;
    }

    @Benchmark
    public long[] subMulShoup() {
        k.subMulShoup(x[0], x[1], out0, w, ws, q);
        return out0;
    }

    @Benchmark
    public long[] mulMod() {
        k.mulMod(x[0], y[0], out0, q, false);
        return out0;
    }
}
