package io.hoist.bench;

import io.hoist.math.Primes;
import io.hoist.ring.ConstantTimeNtt;
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

/** The constant-time NTT: 32-bit kernel (30-bit primes) and 64-bit kernel (36- and 50-bit primes), scalar against vector form. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-XX:+UseParallelGC"})
public class ConstantTimeNttBenchmark {
    @Param({"SCALAR", "VECTOR"})
    public String form;

    @Param({"12", "13"})
    public int logN;

    @Param({"30", "36", "50"})
    public int bits;

    private ConstantTimeNtt ntt;
    private long[] limb;

    @Setup
    public void setup() {
        long q = Primes.nttPrimes(logN, bits, 1).getFirst();
        ntt = ConstantTimeNtt.of(logN, q, ConstantTimeNtt.Form.valueOf(form));
        limb = new SplittableRandom(1).longs(1 << logN, 0, q).toArray();
    }

    @Benchmark
    public long[] forward() {
        ntt.forward(limb);
        return limb;
    }

    @Benchmark
    public long[] inverse() {
        ntt.inverse(limb);
        return limb;
    }
}
