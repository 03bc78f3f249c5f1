package io.hoist.cli;

import com.google.common.math.Quantiles;
import io.hoist.cli.options.CliSupport;
import io.hoist.cli.options.EngineOptions;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.report.Json;
import io.hoist.cli.report.Plots;
import io.hoist.cli.run.MemoryCheck;
import io.hoist.math.Primes;
import io.hoist.ring.NttBackend;
import io.hoist.ring.NttBackends;
import io.hoist.ring.NttEngine;
import io.hoist.ring.NttStats;
import io.hoist.ring.NttTables;
import io.hoist.ring.OpCounters;
import io.hoist.ring.fpga.FpgaSimBackend;
import io.hoist.ring.fpga.FpgaTimingModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hoist ntt}: times forward and inverse transforms of M random limbs on one backend (median of
 * repeated batched calls after a timed warm-up) and checks its outputs bit for bit against cpu-scalar.
 */
@Command(
        name = "ntt",
        mixinStandardHelpOptions = true,
        description = "Time forward/inverse NTTs of random limbs on a backend and check them against cpu-scalar.")
public final class NttCommand implements Callable<Integer> {

    @Option(
            names = "--logN",
            defaultValue = "16",
            description = "log2 of the ring degree N (10..17), default ${DEFAULT-VALUE}")
    int logN;

    @Option(names = "--limbs", defaultValue = "8", description = "limbs per batched call, default ${DEFAULT-VALUE}")
    int limbs;

    @Option(names = "--bits", defaultValue = "50", description = "prime size in bits, default ${DEFAULT-VALUE}")
    int bits;

    @Option(
            names = "--warmup",
            defaultValue = "4",
            description = "warm-up seconds per backend before timing, default ${DEFAULT-VALUE}")
    double warmupSeconds;

    @Option(
            names = "--runs",
            defaultValue = "31",
            description = "timed calls per direction (the median is reported), default ${DEFAULT-VALUE}")
    int runs;

    @Mixin
    EngineOptions engine;

    @Option(
            names = "--mode",
            defaultValue = "streaming",
            description = "fpga-sim transfer mode: streaming or mm (default ${DEFAULT-VALUE})")
    String mode;

    @Option(
            names = "--sweep-limbs",
            description = "fpga-sim: model calls of a..b limbs (e.g. 1..33) and print time per limb by stage")
    String sweep;

    @Option(
            names = "--plot",
            description = "with --sweep-limbs: write the per-limb breakdown as an SVG bar chart to this file")
    Path plot;

    /** Median per-limb timings of one backend. */
    /** Largest limbs per call a sweep models: the device's roots store holds 64 primes. */
    static final int MAX_SWEEP = 64;

    /** "a..b" (or "a") with lo ≤ a ≤ b ≤ hi, else a one-line error naming the option. */
    static FpgaTimingModel.Mode parseMode(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "streaming" -> FpgaTimingModel.Mode.STREAMING;
            case "mm" -> FpgaTimingModel.Mode.MM;
            default -> throw new IllegalArgumentException("--mode must be streaming or mm, got '" + s + "'");
        };
    }

    record Timing(double forwardMicrosPerLimb, double inverseMicrosPerLimb, double warmupSeconds) {}

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (logN < 10 || logN > 17) throw new IllegalArgumentException("--logN must be in [10, 17], got " + logN);
        if (limbs < 1 || limbs > 1024) throw new IllegalArgumentException("--limbs must be in [1, 1024], got " + limbs);
        if (runs < 1 || runs > 100_000)
            throw new IllegalArgumentException("--runs must be in [1, 100000], got " + runs);
        if (!(warmupSeconds >= 0 && warmupSeconds <= 60))
            throw new IllegalArgumentException("--warmup must be in [0, 60] seconds, got " + warmupSeconds);
        CliSupport.requireCompanion(spec, "--plot", sweep != null, "--sweep-limbs");
        MemoryCheck.require(
                "--limbs " + limbs + " at N = 2^" + logN + " (input and two outputs)",
                MemoryCheck.mul(3L * limbs, 8L << logN),
                "use fewer --limbs");
        NttBackend b = engine.backend == null ? NttBackends.defaultBackend() : NttBackends.get(engine.backend);
        FpgaTimingModel.Mode fpgaMode = parseMode(mode);
        CliSupport.requireCompanion(spec, "--mode", b instanceof FpgaSimBackend, "--backend fpga-sim");
        if (b instanceof FpgaSimBackend)
            b = new FpgaSimBackend(FpgaTimingModel.PAPER, fpgaMode, null); // fresh statistics, chosen mode
        if (sweep != null) {
            // a sweep issues its own calls of 1 … b limbs, untimed: these options would be ignored
            for (String o : new String[] {"--limbs", "--runs", "--warmup", "--threads"})
                CliSupport.requireCompanion(spec, o, false, "a timed run (not --sweep-limbs)");
            Plots.requireTarget(plot);
            return sweep(b);
        }
        NttBackend scalar = NttBackends.scalar();
        int n = 1 << logN;
        // the simulated kernel needs q ≡ 1 mod 2^17 (its WLM multiplier), so draw its primes as for N = 2^16
        List<Long> primes = Primes.nttPrimes(b instanceof FpgaSimBackend ? Math.max(logN, 16) : logN, bits, limbs);
        NttTables[] tables = primes.stream().map(q -> NttTables.of(logN, q)).toArray(NttTables[]::new);
        for (NttTables t : tables) {
            if (!b.accepts(t)) {
                String why = b instanceof FpgaSimBackend ? ": " + FpgaSimBackend.refusal(t) : "";
                throw new IllegalArgumentException(
                        "backend " + b.name() + " does not accept " + bits + "-bit primes at N=2^" + logN + why);
            }
        }
        SplittableRandom rnd = new SplittableRandom(0x5eed);
        long[][] input = new long[limbs][n];
        for (int i = 0; i < limbs; i++) for (int k = 0; k < n; k++) input[i][k] = rnd.nextLong(tables[i].q());

        boolean bitExact = sameOutputs(b, scalar, input, tables);
        boolean device = b instanceof FpgaSimBackend;
        if (device) { // simulator wall time is not the point: few calls, said in the output
            if (CliSupport.given(spec, "--runs") && runs > 3
                    || CliSupport.given(spec, "--warmup") && warmupSeconds > 0.5)
                throw new IllegalArgumentException(
                        "fpga-sim times at most 3 calls after at most 0.5 s of warm-up (its modelled time is the point)");
            runs = Math.min(runs, 3);
            warmupSeconds = Math.min(warmupSeconds, 0.5);
        }
        Timing timing = time(b, input, tables);
        Timing scalarTiming = b == scalar || engine.json ? null : time(scalar, input, tables);
        NttStats.Snapshot stats = b.stats().snapshot();

        if (engine.json) {
            Json.Obj o = Json.obj()
                    .put("backend", b.name())
                    .put("kernels", new NttEngine(b, new OpCounters()).kernelForms())
                    .put("threads", engine.threads())
                    .put("logN", logN)
                    .put("limbs", limbs)
                    .put("primeBits", bits)
                    .put("forwardMicrosPerLimb", timing.forwardMicrosPerLimb())
                    .put("inverseMicrosPerLimb", timing.inverseMicrosPerLimb())
                    .put("bitExact", bitExact)
                    .put("warmupSeconds", timing.warmupSeconds())
                    .put("runs", runs);
            if (device) {
                o.put("deviceMicrosPerLimb", FpgaTimingModel.PAPER.callMicros(fpgaMode, limbs, n) / limbs)
                        .put("deviceMicrosPerCall", FpgaTimingModel.PAPER.callMicros(fpgaMode, limbs, n))
                        .put("mode", fpgaMode.name().toLowerCase(Locale.ROOT));
            }
            System.out.println(o);
        } else {
            System.out.printf(
                    "NTT report: backend %s, N = 2^%d, %d limbs of %d-bit primes per call%n",
                    b.name(), logN, limbs, bits);
            System.out.printf(
                    "  forward  %10.1f µs/limb (median of %d calls after %.1f s warm-up)%n",
                    timing.forwardMicrosPerLimb(), runs, timing.warmupSeconds());
            System.out.printf("  inverse  %10.1f µs/limb%n", timing.inverseMicrosPerLimb());
            if (scalarTiming != null) {
                System.out.printf(
                        "  cpu-scalar forward %8.1f µs/limb, inverse %8.1f µs/limb → %s is %.2f× / %.2f× faster%n",
                        scalarTiming.forwardMicrosPerLimb(),
                        scalarTiming.inverseMicrosPerLimb(),
                        b.name(),
                        scalarTiming.forwardMicrosPerLimb() / timing.forwardMicrosPerLimb(),
                        scalarTiming.inverseMicrosPerLimb() / timing.inverseMicrosPerLimb());
            }
            System.out.printf("  bit-exact against cpu-scalar: %s%n", bitExact ? "yes" : "NO");
            System.out.println("  kernels: " + new NttEngine(b, new OpCounters()).kernelSummary());
            if (device) {
                FpgaTimingModel.Breakdown bd = FpgaTimingModel.PAPER.call(fpgaMode, limbs, n);
                System.out.printf(
                        Locale.ROOT,
                        "  modelled device time (%s): %.1f µs per call of %d limbs = %.1f µs/limb (H2C %.1f, kernel %.1f, C2H %.1f µs per call)%n",
                        fpgaMode.name().toLowerCase(Locale.ROOT),
                        bd.totalMicros(),
                        limbs,
                        bd.totalMicros() / limbs,
                        bd.h2cMicros(),
                        bd.kernelMicros(),
                        bd.c2hMicros());
                System.out.println("  (the µs/limb above for fpga-sim is the simulator's own wall time on this CPU)");
            }
            System.out.printf(
                    "  backend statistics: %d calls, %.1f limbs/call, %.1f MB in, %.1f MB out, %.1f ms in kernels%n",
                    stats.calls(),
                    stats.limbsPerCall(),
                    stats.bytesIn() / 1e6,
                    stats.bytesOut() / 1e6,
                    stats.nanos() / 1e6);
            System.out.printf(
                    "  backends here: %s (default %s)%n",
                    String.join(", ", NttBackends.names()),
                    NttBackends.defaultBackend().name());
        }
        return bitExact ? 0 : 1;
    }

    /** Issues real calls of a..b limbs to the simulated device and reports its modelled time per limb by stage. */
    private int sweep(NttBackend b) {
        if (!(b instanceof FpgaSimBackend sim))
            throw new IllegalArgumentException("--sweep-limbs needs --backend fpga-sim");
        int[] range = ParamsOptions.parseRange(sweep, "--sweep-limbs", 1, MAX_SWEEP);
        int from = range[0], to = range[1];
        int n = 1 << logN;
        List<Long> primes = Primes.nttPrimes(Math.max(logN, 16), bits, to);
        NttTables[] tables = primes.stream().map(q -> NttTables.of(logN, q)).toArray(NttTables[]::new);
        List<String> labels = new ArrayList<>();
        double[][] series = new double[3][to - from + 1];
        List<SweepPoint> points = new ArrayList<>();
        for (int k = from; k <= to; k++) {
            sim.resetStats();
            long[][] limbsK = new long[k][n];
            sim.forward(limbsK, Arrays.copyOf(tables, k), k);
            FpgaSimBackend.OffloadStats st = sim.offloadStats();
            int i = k - from;
            series[0][i] = st.h2cMicros() / k;
            series[1][i] = st.kernelMicros() / k;
            series[2][i] = st.c2hMicros() / k;
            labels.add(Integer.toString(k));
            points.add(new SweepPoint(k, st.deviceMicros() / k, series[0][i], series[1][i], series[2][i]));
        }
        String modeName = sim.mode().name().toLowerCase(Locale.ROOT);
        if (engine.json) {
            System.out.println(Json.write(Json.obj()
                    .put("backend", sim.name())
                    .put("mode", modeName)
                    .put("logN", logN)
                    .put("bits", bits)
                    .put("points", points)
                    .put("plot", plot == null ? null : plot.toAbsolutePath().toString())));
        } else {
            System.out.printf(
                    "fpga-sim (%s), N = 2^%d, %d-bit primes: modelled time per limb by limbs per call%n",
                    modeName, logN, bits);
            System.out.printf("%6s %12s %10s %10s %10s%n", "limbs", "µs/limb", "H2C", "kernel", "C2H");
            for (SweepPoint pt : points)
                System.out.printf(
                        Locale.ROOT,
                        "%6d %12.1f %10.1f %10.1f %10.1f%n",
                        pt.limbs(),
                        pt.microsPerLimb(),
                        pt.h2cMicrosPerLimb(),
                        pt.kernelMicrosPerLimb(),
                        pt.c2hMicrosPerLimb());
        }
        if (plot != null) {
            Plots.save(
                    Plots.bars(
                            "Simulated FPGA NTT (" + sim.mode().name().toLowerCase(Locale.ROOT) + "), N = 2^" + logN
                                    + ": time per limb",
                            "limbs per call",
                            "µs per limb",
                            labels,
                            series,
                            new String[] {"host→card", "kernel", "card→host"},
                            true),
                    plot);
            if (!engine.json) System.out.println("plot written to " + plot.toAbsolutePath());
        }
        return 0;
    }

    /** One call size of a sweep: the modelled device time per limb and its three stages (µs). */
    record SweepPoint(
            int limbs,
            double microsPerLimb,
            double h2cMicrosPerLimb,
            double kernelMicrosPerLimb,
            double c2hMicrosPerLimb) {}

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

    /** Per-limb times of a batch on {@code b}, the batch's limbs spread over the threads asked for (one thread: the backend itself). */
    private Timing time(NttBackend backend, long[][] input, NttTables[] tables) {
        int threads = engine.threads();
        NttBackend b =
                threads == 1 ? backend : new EngineBackend(new NttEngine(backend, new OpCounters(), threads), backend);
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
        return new Timing(
                Quantiles.median().compute(fw) / 1e3 / m, Quantiles.median().compute(iv) / 1e3 / m, warm);
    }

    static long[][] deepCopy(long[][] a) {
        long[][] c = new long[a.length][];
        for (int i = 0; i < a.length; i++) c[i] = a[i].clone();
        return c;
    }

    /** A backend whose batches run through an engine (spread over its threads); timing only. */
    private record EngineBackend(NttEngine engine, NttBackend inner) implements NttBackend {
        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public void forward(long[][] limbs, NttTables[] tables, int count) {
            engine.forward(limbs, tables, count);
        }

        @Override
        public void inverse(long[][] limbs, NttTables[] tables, int count) {
            engine.inverse(limbs, tables, count);
        }

        @Override
        public boolean accepts(NttTables t) {
            return inner.accepts(t);
        }

        @Override
        public NttStats stats() {
            return inner.stats();
        }
    }
}
