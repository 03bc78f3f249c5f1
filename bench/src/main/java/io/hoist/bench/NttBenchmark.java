package io.hoist.bench;

import io.hoist.math.Primes;
import io.hoist.ring.NttBackend;
import io.hoist.ring.NttBackends;
import io.hoist.ring.NttTables;
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

/** Forward and inverse NTT of one limb, per backend, ring degree and prime size. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-XX:+UseParallelGC"})
public class NttBenchmark {
    @Param({"cpu-scalar", "cpu-vector"})
    public String backend;

    @Param({"12", "13", "14", "15", "16"})
    public int logN;

    @Param({"50", "60"})
    public int bits;

    private NttBackend b;
    private long[][] limb;
    private NttTables[] tables;

    @Setup
    public void setup() {
        b = NttBackends.get(backend);
        NttTables t = NttTables.of(logN, Primes.nttPrimes(logN, bits, 1).get(0));
        b.prepare(t);
        tables = new NttTables[] {t};
        limb = new long[1][1 << logN];
        SplittableRandom r = new SplittableRandom(1);
        for (int k = 0; k < limb[0].length; k++) limb[0][k] = r.nextLong(t.q());
    }

    @Benchmark
    public long[][] forward() {
        b.forward(limb, tables, 1);
        return limb;
    }

    @Benchmark
    public long[][] inverse() {
        b.inverse(limb, tables, 1);
        return limb;
    }
}
