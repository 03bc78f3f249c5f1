package io.hoist.cli;

import io.hoist.math.Primes;
import io.hoist.ring.NttBackend;
import io.hoist.ring.NttBackends;
import io.hoist.ring.NttStats;
import io.hoist.ring.NttTables;
import io.hoist.ring.ScalarNttBackend;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/**
 * {@code hoist ntt}: times forward and inverse transforms of M random limbs on one backend (median of
 * repeated batched calls after a timed warm-up) and checks its outputs bit for bit against cpu-scalar.
 */
@Command(name = "ntt", mixinStandardHelpOptions = true,
        description = "Time forward/inverse NTTs of random limbs on a backend and check them against cpu-scalar.")
public final class NttCommand implements Callable<Integer> {

    @Option(names = "--backend", description = "NTT backend: ${COMPLETION-CANDIDATES}; default: the fastest correct one here",
            completionCandidates = BackendNames.class)
    String backend;

    @Option(names = "--logN", defaultValue = "16", description = "log2 of the ring degree N (10..17), default ${DEFAULT-VALUE}")
    int logN;

    @Option(names = "--limbs", defaultValue = "8", description = "limbs per batched call, default ${DEFAULT-VALUE}")
    int limbs;

    @Option(names = "--bits", defaultValue = "50", description = "prime size in bits, default ${DEFAULT-VALUE}")
    int bits;

    @Option(names = "--warmup", defaultValue = "4", description = "warm-up seconds per backend before timing, default ${DEFAULT-VALUE}")
    double warmupSeconds;

    @Option(names = "--runs", defaultValue = "31", description = "timed calls per direction (the median is reported), default ${DEFAULT-VALUE}")
    int runs;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    static final class BackendNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return NttBackends.names().iterator();
        }
    }

    /** Median per-limb timings of one backend. */
    record Timing(double forwardMicrosPerLimb, double inverseMicrosPerLimb, double warmupSeconds) {}

    @Override
    public Integer call() {
        if (limbs < 1) throw new IllegalArgumentException("--limbs must be at least 1");
        if (runs < 1) throw new IllegalArgumentException("--runs must be at least 1");
        NttBackend b = backend == null ? NttBackends.defaultBackend() : NttBackends.get(backend);
        NttBackend scalar = NttBackends.scalar();
        int n = 1 << logN;
        List<Long> primes = Primes.nttPrimes(logN, bits, limbs);
        NttTables[] tables = primes.stream().map(q -> NttTables.of(logN, q)).toArray(NttTables[]::new);
        for (NttTables t : tables) {
            if (!b.accepts(t)) {
                throw new IllegalArgumentException("backend " + b.name() + " does not accept " + bits + "-bit primes at N=2^" + logN);
            }
        }
        SplittableRandom rnd = new SplittableRandom(0x5eed);
        long[][] input = new long[limbs][n];
        for (int i = 0; i < limbs; i++) for (int k = 0; k < n; k++) input[i][k] = rnd.nextLong(tables[i].q());

        boolean bitExact = sameOutputs(b, scalar, input, tables);
        Timing timing = time(b, input, tables);
        Timing scalarTiming = b == scalar || json ? null : time(scalar, input, tables);
        NttStats.Snapshot stats = b.stats().snapshot();

        if (json) {
            System.out.println(Json.obj()
                    .put("backend", b.name())
                    .put("logN", logN)
                    .put("limbs", limbs)
                    .put("primeBits", bits)
                    .put("forwardMicrosPerLimb", timing.forwardMicrosPerLimb())
                    .put("inverseMicrosPerLimb", timing.inverseMicrosPerLimb())
                    .put("bitExact", bitExact)
                    .put("warmupSeconds", timing.warmupSeconds())
                    .put("runs", runs));
        } else {
            System.out.printf("NTT report: backend %s, N = 2^%d, %d limbs of %d-bit primes per call%n", b.name(), logN, limbs, bits);
            System.out.printf("  forward  %10.1f µs/limb (median of %d calls after %.1f s warm-up)%n", timing.forwardMicrosPerLimb(), runs, timing.warmupSeconds());
            System.out.printf("  inverse  %10.1f µs/limb%n", timing.inverseMicrosPerLimb());
            if (scalarTiming != null) {
                System.out.printf("  cpu-scalar forward %8.1f µs/limb, inverse %8.1f µs/limb → %s is %.2f× / %.2f× faster%n",
                        scalarTiming.forwardMicrosPerLimb(), scalarTiming.inverseMicrosPerLimb(), b.name(),
                        scalarTiming.forwardMicrosPerLimb() / timing.forwardMicrosPerLimb(),
                        scalarTiming.inverseMicrosPerLimb() / timing.inverseMicrosPerLimb());
            }
            System.out.printf("  bit-exact against cpu-scalar: %s%n", bitExact ? "yes" : "NO");
            System.out.printf("  backend statistics: %d calls, %.1f limbs/call, %.1f MB in, %.1f MB out, %.1f ms in kernels%n",
                    stats.calls(), stats.limbsPerCall(), stats.bytesIn() / 1e6, stats.bytesOut() / 1e6, stats.nanos() / 1e6);
            System.out.printf("  backends here: %s (default %s)%n", String.join(", ", NttBackends.names()), NttBackends.defaultBackend().name());
        }
        return bitExact ? 0 : 1;
    }

    /** Forward then inverse on both backends from the same inputs; every output word must match. */
    private static boolean sameOutputs(NttBackend b, NttBackend ref, long[][] input, NttTables[] tables) {
        long[][] x = deepCopy(input), y = deepCopy(input);
        int m = input.length;
        b.forward(x, tables, m);
        ref.forward(y, tables, m);
        boolean ok = Arrays.deepEquals(x, y);
        // inverse from the same NTT-domain data (random, not just the round trip)
        long[][] u = deepCopy(input), v = deepCopy(input);
        b.inverse(u, tables, m);
        ref.inverse(v, tables, m);
        ok &= Arrays.deepEquals(u, v);
        b.inverse(x, tables, m);
        ok &= Arrays.deepEquals(x, input);
        return ok;
    }

    private Timing time(NttBackend b, long[][] input, NttTables[] tables) {
        int m = input.length;
        long[][] work = deepCopy(input);
        long warmEnd = System.nanoTime() + (long) (warmupSeconds * 1e9);
        long warmStart = System.nanoTime();
        do {
            b.forward(work, tables, m);
            b.inverse(work, tables, m);
        } while (System.nanoTime() < warmEnd);
        double warm = (System.nanoTime() - warmStart) / 1e9;
        long[] fw = new long[runs], iv = new long[runs];
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            b.forward(work, tables, m);
            long t1 = System.nanoTime();
            b.inverse(work, tables, m);
            long t2 = System.nanoTime();
            fw[r] = t1 - t0;
            iv[r] = t2 - t1;
        }
        return new Timing(median(fw) / 1e3 / m, median(iv) / 1e3 / m, warm);
    }

    static double median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }

    static long[][] deepCopy(long[][] a) {
        long[][] c = new long[a.length][];
        for (int i = 0; i < a.length; i++) c[i] = a[i].clone();
        return c;
    }

    static {
        // keep the scalar reference loaded even when another backend is chosen
        ScalarNttBackend.class.getName();
    }
}
