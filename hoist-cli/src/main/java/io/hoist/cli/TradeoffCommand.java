package io.hoist.cli;

import io.hoist.ckks.Progress;
import io.hoist.cli.options.CliSupport;
import io.hoist.cli.options.DiagonalStorageOptions;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.report.Json;
import io.hoist.cli.report.TradeoffRender;
import io.hoist.cli.run.Bars;
import io.hoist.cli.run.TradeoffMeasure;
import io.hoist.cli.run.TradeoffResult;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.planning.Tradeoffs;
import io.hoist.lt.schedule.LatencyModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hoist tradeoff}: rotation keys, key bytes, counts, traffic and modelled latency of every
 * split of every algorithm over matrix sizes, ring degrees, levels and α; as a table, CSV, JSON and
 * plots. {@code --measure} runs real evaluations at small rings and fits a time model to them.
 */
@Command(
        name = "tradeoff",
        mixinStandardHelpOptions = true,
        description =
                "Key-size versus complexity study: keys, key bytes (full/seeded), Decompose, ModDown, KS-IP, PtMul, NTTs, modular "
                        + "multiplications, off-chip traffic under a working-set budget and modelled latency for every split; table, --csv, --json, --plot; "
                        + "--measure fits a time model to real runs.")
public final class TradeoffCommand implements Callable<Integer> {
    @Option(
            names = "--logN",
            split = ",",
            defaultValue = "16",
            description = "log2 ring degrees (comma list) (default ${DEFAULT-VALUE})")
    int[] logN;

    @Option(
            names = "--n",
            defaultValue = "16..32768",
            description =
                    "matrix sizes: a comma list or a power-of-two range LO..HI, capped at N/2 (default ${DEFAULT-VALUE})")
    String sizes;

    @Option(
            names = "--levels",
            split = ",",
            defaultValue = "31",
            description = "L, the top level (L + 1 limbs of Q) (comma list) (default ${DEFAULT-VALUE}, Table II)")
    int[] levels;

    @Option(
            names = "--alpha",
            defaultValue = "12",
            description = "α, limbs per digit (β = ⌈(L+1)/α⌉) (comma list, or 'all') (default ${DEFAULT-VALUE})")
    String alpha;

    @Option(
            names = "--word-bits",
            defaultValue = "54",
            description = "bits per stored word for key and traffic bytes (default ${DEFAULT-VALUE}, Table II)")
    int wordBits;

    @Option(names = "--algo", split = ",", description = "algorithms (default: all four)")
    String[] algos;

    @Option(
            names = "--pareto",
            description = "report only the keys–multiplications Pareto-optimal splits of each algorithm")
    boolean pareto;

    @Option(
            names = "--budget-mb",
            defaultValue = "43",
            description =
                    "working-set budget in MB for traffic and latency (0: no traffic) (default ${DEFAULT-VALUE}, the U280)")
    double budgetMb;

    @Mixin
    DiagonalStorageOptions diagonalStorage;

    @Option(names = "--csv", description = "write the rows to FILE (Apache Commons CSV)")
    Path csv;

    @Option(names = "--plot", description = "write the figures (SVG and PNG) into DIR")
    Path plotDir;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Option(
            names = "--measure",
            description = "also run real evaluations at small rings for the Pareto points and fit the time model")
    boolean measure;

    @Option(
            names = "--measure-logN",
            defaultValue = "12..14",
            description = "with --measure: ring degrees to run, LO..HI (default ${DEFAULT-VALUE})")
    String measureLogN;

    @Option(
            names = "--measure-n",
            defaultValue = "256",
            description = "with --measure: matrix size of the runs (default ${DEFAULT-VALUE})")
    int measureN;

    @Option(
            names = "--predict-logN",
            defaultValue = "15",
            description =
                    "with --measure: a larger ring whose fewest-keys TH-BSGS point is predicted, then measured (0: none) (default ${DEFAULT-VALUE})")
    int predictLogN;

    @Override
    public Integer call() {
        TradeoffResult r = compute();
        List<String> files = new ArrayList<>();
        if (csv != null) {
            TradeoffRender.csv(r.points(), csv);
            files.add(csv.toAbsolutePath().toString());
        }
        if (plotDir != null)
            files.addAll(TradeoffRender.plots(r, plotDir, layouts().get(0), storageOf()));
        r = new TradeoffResult(r.points(), r.minKeys(), r.budgetBytes(), r.storage(), files, r.measured());
        if (json) System.out.println(Json.write(r));
        else TradeoffRender.table(r);
        return 0;
    }

    @Spec
    CommandSpec spec;

    TradeoffResult compute() {
        for (String o : new String[] {"--measure-logN", "--measure-n", "--predict-logN"})
            CliSupport.requireCompanion(spec, o, measure, "--measure");
        List<Algorithm> as = algorithms();
        List<LimbLayout> lays = layouts();
        Storage st = storageOf();
        long budget = budgetBytes();
        List<Tradeoffs.Point> points = new ArrayList<>();
        int total = 0;
        for (LimbLayout lay : lays) total += sizes(lay).size();
        int done = 0;
        try (Bars bar = Bars.of("tradeoff", json)) {
            for (LimbLayout lay : lays) {
                LatencyModel model = new LatencyModel(480e9, 300e6, 512, Math.max(1, budget));
                for (int n : sizes(lay)) {
                    List<Tradeoffs.Point> ps = Tradeoffs.sweep(n, lay, as, st, budget, model, Progress.NONE);
                    points.addAll(pareto ? Tradeoffs.paretoFront(ps) : ps);
                    bar.step(++done, total);
                }
            }
        }
        Map<String, Integer> minKeys = new LinkedHashMap<>();
        for (Tradeoffs.Point p : points) minKeys.merge(p.algorithm(), p.rotationKeys(), Math::min);
        if (measure && predictLogN != 0) CliSupport.bounded("--predict-logN", predictLogN, 10, 17);
        if (measure) CliSupport.bounded("--measure-n", measureN, 1, 1 << 16);
        TradeoffMeasure.Result m = measure
                ? TradeoffMeasure.run(
                        ParamsOptions.parseRange(measureLogN, "--measure-logN", 10, 16),
                        measureN,
                        predictLogN,
                        as,
                        json)
                : null;
        return new TradeoffResult(points, minKeys, budget, st.name().toLowerCase(Locale.ROOT), List.of(), m);
    }

    private Storage storageOf() {
        return diagonalStorage.storage();
    }

    private long budgetBytes() {
        if (!(budgetMb >= 0) || budgetMb > 1e6 || (budgetMb > 0 && budgetMb < 1e-6))
            throw new IllegalArgumentException(
                    "--budget-mb must be 0 or in [10^-6, 10^6] (a byte up), got " + budgetMb);
        return (long) (budgetMb * 1e6);
    }

    private List<Algorithm> algorithms() {
        if (algos == null) return List.of(Algorithm.values());
        List<Algorithm> out = new ArrayList<>();
        for (String a : algos) out.add(Algorithm.parse(a.trim()));
        if (out.isEmpty()) throw new IllegalArgumentException("--algo names no algorithm");
        return out;
    }

    List<LimbLayout> layouts() {
        if (wordBits < 1 || wordBits > 64)
            throw new IllegalArgumentException("--word-bits must be in [1, 64], got " + wordBits);
        if (logN.length == 0) throw new IllegalArgumentException("--logN names no ring degree");
        if (levels.length == 0) throw new IllegalArgumentException("--levels names no level");
        List<LimbLayout> out = new ArrayList<>();
        for (int k : logN) {
            if (k < 4 || k > 17) throw new IllegalArgumentException("--logN must be in [4, 17], got " + k);
            for (int l : levels) {
                if (l < 0 || l > 255) throw new IllegalArgumentException("--levels must be in [0, 255], got " + l);
                for (int a : alphas(l)) {
                    if (a < 1 || a > l + 1)
                        throw new IllegalArgumentException(
                                "α = " + a + " is larger than the " + (l + 1) + " Q primes at L = " + l);
                    out.add(new LimbLayout(k, l, a, wordBits));
                }
            }
        }
        return out;
    }

    /** 'all': one α per distinct β = ⌈(L+1)/α⌉ (the smallest α giving it). */
    private List<Integer> alphas(int l) {
        if (alpha.trim().equalsIgnoreCase("all")) {
            List<Integer> out = new ArrayList<>();
            int lastBeta = -1;
            for (int a = 1; a <= l + 1; a++) { // β falls as α grows: the first α of each β is the smallest
                int beta = (l + 1 + a - 1) / a;
                if (beta != lastBeta) {
                    out.add(a);
                    lastBeta = beta;
                }
            }
            return out;
        }
        List<Integer> out = new ArrayList<>();
        for (String s : alpha.split(","))
            out.add(CliSupport.parseInt(s, "--alpha wants a comma list of integers or 'all'"));
        if (out.isEmpty()) throw new IllegalArgumentException("--alpha names no α (a comma list of integers or 'all')");
        return out;
    }

    private List<Integer> sizes(LimbLayout lay) {
        int max = lay.n() / 2;
        List<Integer> out = new ArrayList<>();
        if (sizes.contains("..")) {
            int[] r = ParamsOptions.parseRange(sizes, "--n", 2, 999_999_999);
            long lo = Long.highestOneBit(r[0]) == r[0] ? r[0] : Long.highestOneBit(r[0]) << 1;
            for (long n = lo; n <= Math.min(r[1], max); n <<= 1) out.add((int) n);
        } else {
            for (String s : sizes.split(",")) {
                int n = CliSupport.parseInt(s, "--n (sizes like 32768, 64,256 or 16..32768)");
                if (n < 2 || Integer.bitCount(n) != 1)
                    throw new IllegalArgumentException("--n: " + n + " is not a power of two ≥ 2");
                if (n > max)
                    throw new IllegalArgumentException("--n: " + n + " exceeds the " + max + " slots at N = 2^"
                            + lay.logN() + " (block matrices are not in this study)");
                out.add(n);
            }
        }
        if (out.isEmpty()) throw new IllegalArgumentException("--n '" + sizes + "' leaves no size in [2, " + max + "]");
        return out;
    }
}
