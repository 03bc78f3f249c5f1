package io.hoist.bench;

import io.hoist.math.Primes;
import io.hoist.ring.Domain;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
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

/** Coefficient-wise multiply-accumulate out += a ⊙ b of two limbs (one prime) at N = 2^16. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--add-modules=jdk.incubator.vector", "-XX:+UseParallelGC"})
public class MulAddBenchmark {
    @Param({"16"})
    public int logN;

    @Param({"50", "60"})
    public int bits;

    private Ring ring;
    private RnsPoly a, b, out;

    @Setup
    public void setup() {
        ring = new Ring(logN, new long[] {Primes.nttPrimes(logN, bits, 1).get(0)});
        a = ring.newPoly(0, Domain.NTT);
        b = ring.newPoly(0, Domain.NTT);
        out = ring.newPoly(0, Domain.NTT);
        SplittableRandom r = new SplittableRandom(2);
        for (int k = 0; k < ring.n(); k++) {
            a.limb(0)[k] = r.nextLong(ring.prime(0));
            b.limb(0)[k] = r.nextLong(ring.prime(0));
        }
    }

    @Benchmark
    public RnsPoly mulAdd() {
        ring.mulCoeffsAdd(a, b, out);
        return out;
    }
}
