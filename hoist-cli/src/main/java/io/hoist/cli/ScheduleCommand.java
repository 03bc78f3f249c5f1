package io.hoist.cli;

import io.hoist.ckks.CkksParameters;
import io.hoist.cli.options.CliSupport;
import io.hoist.cli.options.DiagonalStorageOptions;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.report.Json;
import io.hoist.cli.report.Plots;
import io.hoist.cli.report.Units;
import io.hoist.cli.run.Bars;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.LatencyModel;
import io.hoist.lt.schedule.LedgerKind;
import io.hoist.lt.schedule.ScheduleCompiler;
import io.hoist.lt.schedule.TrafficLedger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * {@code hoist schedule}: the six-phase memory-aware schedule of a dense n×n transform, modelled —
 * per phase the off-chip bytes, iterations, working set and latency under an on-chip budget, against
 * DH-BSGS executed straightforwardly; with {@code --search}, the best split and the Pareto front
 * budget → traffic for TH-BSGS and DH-BSGS. Nothing is encrypted: this is the schedule compiler.
 */
@Command(
        name = "schedule",
        mixinStandardHelpOptions = true,
        description =
                "Model the six-phase schedule of TH-BSGS or DH-BSGS: off-chip traffic per phase under an on-chip budget, latency, "
                        + "reduction against DH-BSGS executed straightforwardly; --search finds the best split and the budget → traffic Pareto front.")
public final class ScheduleCommand implements Callable<Integer> {
    @Option(names = "--algo", defaultValue = "th-bsgs", description = "th-bsgs or dh-bsgs (default ${DEFAULT-VALUE})")
    String algo;

    @Option(
            names = "--table2",
            description =
                    "the paper's Table II setting: N = 2^16, n = 2^15, L = 31, α = 12, β = 3, 54-bit words (insecure; modelled only)")
    boolean table2;

    @Mixin
    ParamsOptions paramsOptions;

    @Option(names = "--n", description = "matrix dimension (default: 2^15 with --table2, else the slot count)")
    Integer n;

    @Option(
            names = "--split",
            split = ",",
            description = "split factors (default: the fewest-keys split, ties to the least traffic)")
    int[] split;

    @Option(
            names = "--onchip-mb",
            defaultValue = "43",
            description = "on-chip (working-set) budget in MB of 10^6 bytes (default ${DEFAULT-VALUE}, the U280)")
    double onchipMb;

    @Option(
            names = "--bandwidth-gbs",
            defaultValue = "480",
            description = "off-chip bandwidth in GB/s (default ${DEFAULT-VALUE}, the U280's HBM)")
    double bandwidthGbs;

    @Option(
            names = "--clock-mhz",
            defaultValue = "300",
            description =
                    "clock of the processing elements in MHz (default ${DEFAULT-VALUE}; assumed, see docs/schedule.md)")
    double clockMhz;

    @Option(
            names = "--pes",
            defaultValue = "512",
            description =
                    "processing elements, one modular multiplication per cycle each (default ${DEFAULT-VALUE}; assumed)")
    int pes;

    @Mixin
    DiagonalStorageOptions diagonalStorage;

    @Option(names = "--word-bits", description = "bits per stored word (default: 54 with --table2, else 64)")
    Integer wordBits;

    @Option(
            names = "--search",
            description =
                    "search every power-of-two split and report the budget → traffic Pareto front of TH-BSGS and DH-BSGS")
    boolean search;

    @Option(
            names = "--goal",
            defaultValue = "traffic",
            description = "with --search: traffic or latency (default ${DEFAULT-VALUE})")
    String goal;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Option(
            names = "--plot",
            description =
                    "write per-phase traffic (TH, DH phased, DH baseline) to FILE.svg|png; with --search also FILE-pareto.svg|png")
    Path plot;

    /** One phase of a report. */
    record PhaseRow(
            int phase,
            String lines,
            long readBytes,
            long writeBytes,
            long iterations,
            long residentBytes,
            double latencyMicros,
            Map<String, Long> readByKind,
            Map<String, Long> writeByKind) {}

    /** A scheduled plan in a report. */
    record Scheduled(
            String algo,
            int[] split,
            Map<String, Integer> grouping,
            long offchipBytes,
            double latencyMicros,
            int rotationKeys,
            List<PhaseRow> phases) {}

    /** One point of a Pareto front. */
    record FrontRow(
            long budgetBytes, long offchipBytes, double latencyMicros, int[] split, Map<String, Integer> grouping) {}

    /** What the command computes; rendered as a table, JSON or plots. */
    record Report(
            String algo,
            String setting,
            boolean modelOnly,
            boolean secure,
            int logN,
            int levels,
            int alpha,
            int beta,
            int wordBits,
            int n,
            String storage,
            int[] split,
            long onchipBudgetBytes,
            double bandwidthBytesPerSecond,
            double clockHz,
            int processingElements,
            Map<String, Integer> grouping,
            List<PhaseRow> phases,
            long offchipBytes,
            double latencyMicros,
            Scheduled baseline,
            Scheduled dhPhased,
            double reduction,
            Map<String, List<FrontRow>> paretoFront,
            List<String> plots) {}

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Report r = compute();
        if (plot != null) render(r, plot);
        if (json) System.out.println(Json.write(r));
        else print(r);
        return 0;
    }

    Report compute() {
        CliSupport.requireCompanion(spec, "--goal", search, "--search");
        Algorithm a = Algorithm.parse(algo);
        if (a != Algorithm.TH_BSGS && a != Algorithm.DH_BSGS)
            throw new IllegalArgumentException("--algo must be th-bsgs or dh-bsgs");
        LimbLayout layout;
        String setting;
        boolean secure;
        int dim;
        if (table2) {
            for (String o :
                    new String[] {"--preset", "--logN", "--logQ", "--logP", "--logScale", "--logSlots", "--insecure"})
                if (CliSupport.given(spec, o))
                    throw new IllegalArgumentException("give either --table2 or parameters (" + o + "), not both");
            layout = LimbLayout.table2();
            if (wordBits != null) layout = new LimbLayout(layout.logN(), layout.level(), layout.alpha(), wordBits);
            setting = "table2";
            secure = false;
            dim = n != null ? n : 1 << 15;
        } else {
            CkksParameters p = paramsOptions.build("n16");
            layout = new LimbLayout(p.logN(), p.maxLevel(), p.alpha(), wordBits != null ? wordBits : 64);
            setting = p.name() == null ? "custom" : p.name();
            secure = p.secure();
            dim = n != null ? n : p.slots();
        }
        if (dim < 2 || Integer.bitCount(dim) != 1 || dim > layout.n() / 2) {
            throw new IllegalArgumentException(
                    "--n must be a power of two in [2, N/2 = " + layout.n() / 2 + "], got " + dim);
        }
        Storage st = diagonalStorage.storage();
        // bounded above too: a cast to long would saturate, an infinite rate would model nothing
        if (!(onchipMb >= 1e-6) || onchipMb > 1e9)
            throw new IllegalArgumentException("--onchip-mb must be in [10^-6, 10^9] (one byte up), got " + onchipMb);
        long budget = (long) (onchipMb * 1e6);
        if (!(bandwidthGbs > 0) || bandwidthGbs > 1e6 || !(clockMhz > 0) || clockMhz > 1e6 || pes < 1)
            throw new IllegalArgumentException(
                    "--bandwidth-gbs and --clock-mhz must be in (0, 10^6] and --pes positive");
        LatencyModel model = new LatencyModel(bandwidthGbs * 1e9, clockMhz * 1e6, pes, budget);
        ScheduleCompiler.Goal gl = switch (goal.toLowerCase(Locale.ROOT)) {
            case "traffic" -> ScheduleCompiler.Goal.TRAFFIC;
            case "latency" -> ScheduleCompiler.Goal.LATENCY;
            default -> throw new IllegalArgumentException("--goal must be traffic or latency");
        };

        ScheduleCompiler.Result chosen;
        if (split != null && search)
            throw new IllegalArgumentException("--search finds the split: give --split or --search, not both");
        if (split != null) {
            Plan plan = Plan.dense(dim, a, split);
            LtProgram prog = LtProgram.compile(plan, layout);
            chosen = ScheduleCompiler.evaluate(prog, st, ScheduleCompiler.bestGrouping(prog, st, budget), model);
        } else if (search) {
            chosen = ScheduleCompiler.best(dim, a, layout, st, budget, model, gl);
        } else {
            List<ScheduleCompiler.Result> all =
                    ScheduleCompiler.searchSplits(dim, a, layout, st, budget, model, ScheduleCompiler.Goal.TRAFFIC);
            chosen = all.isEmpty()
                    ? ScheduleCompiler.best(dim, a, layout, st, budget, model, gl)
                    : fewestKeys(all); // best(…) names the smallest feasible budget
        }
        ScheduleCompiler.Result base = ScheduleCompiler.dhBaseline(dim, layout, st, model);
        ScheduleCompiler.Result dh =
                ScheduleCompiler.best(dim, Algorithm.DH_BSGS, layout, st, budget, model, ScheduleCompiler.Goal.TRAFFIC);
        Map<String, List<FrontRow>> front = null;
        if (search) {
            front = new LinkedHashMap<>();
            long[] budgets = budgets(layout);
            for (Algorithm x : new Algorithm[] {Algorithm.TH_BSGS, Algorithm.DH_BSGS}) {
                List<FrontRow> rows = new ArrayList<>();
                List<ScheduleCompiler.FrontPoint> points;
                try (Bars bar = Bars.of("Pareto front " + x.cliName(), json)) {
                    points = ScheduleCompiler.paretoFront(dim, x, layout, st, model, budgets, bar);
                }
                for (ScheduleCompiler.FrontPoint fp : points) {
                    rows.add(new FrontRow(
                            fp.budgetBytes(),
                            fp.best().offchipBytes(),
                            fp.best().latencyMicros(),
                            fp.best().plan().split(),
                            fp.best().grouping().asMap()));
                }
                front.put(x.cliName(), rows);
            }
        }
        List<String> plots = new ArrayList<>();
        if (plot != null) {
            plots.add(plot.toAbsolutePath().toString());
            if (search)
                plots.add(Plots.sibling(plot, "-pareto").toAbsolutePath().toString());
        }
        return new Report(
                a.cliName(),
                setting,
                table2,
                secure,
                layout.logN(),
                layout.lq(),
                layout.alpha(),
                layout.beta(),
                layout.wordBits(),
                dim,
                st.name().toLowerCase(Locale.ROOT),
                chosen.plan().split(),
                budget,
                model.bandwidthBytesPerSecond(),
                model.clockHz(),
                model.processingElements(),
                chosen.grouping().asMap(),
                rows(chosen),
                chosen.offchipBytes(),
                chosen.latencyMicros(),
                scheduled(base),
                scheduled(dh),
                1 - (double) chosen.offchipBytes() / base.offchipBytes(),
                front,
                plots);
    }

    private static ScheduleCompiler.Result fewestKeys(List<ScheduleCompiler.Result> rs) {
        ScheduleCompiler.Result best = null;
        for (ScheduleCompiler.Result r : rs) {
            if (best == null
                    || r.plan().rotations().size() < best.plan().rotations().size()) best = r;
        }
        return best;
    }

    /** Budgets from 4 MB to 4 GB in steps of √2. */
    private static long[] budgets(LimbLayout lay) {
        List<Long> b = new ArrayList<>();
        for (double x = 4e6; x <= 4.1e9; x *= Math.sqrt(2)) b.add((long) x);
        return b.stream().mapToLong(Long::longValue).toArray();
    }

    private static List<PhaseRow> rows(ScheduleCompiler.Result r) {
        List<PhaseRow> out = new ArrayList<>();
        for (TrafficLedger.PhaseTraffic p : r.ledger().phases()) {
            Map<String, Long> rd = new LinkedHashMap<>(), wr = new LinkedHashMap<>();
            for (LedgerKind k : LedgerKind.values()) {
                rd.put(k.jsonName(), p.readBytes().get(k));
                wr.put(k.jsonName(), p.writeBytes().get(k));
            }
            out.add(new PhaseRow(
                    p.phase(),
                    p.lines(),
                    p.read(),
                    p.write(),
                    p.iterations(),
                    p.peakResidentBytes(),
                    r.phaseMicros().get(p.phase() - 1),
                    rd,
                    wr));
        }
        return out;
    }

    private static Scheduled scheduled(ScheduleCompiler.Result r) {
        return new Scheduled(
                r.plan().algorithm().cliName(),
                r.plan().split(),
                r.grouping() == null ? null : r.grouping().asMap(),
                r.offchipBytes(),
                r.latencyMicros(),
                r.plan().rotations().size(),
                rows(r));
    }

    static void print(Report r) {
        System.out.printf(
                Locale.ROOT,
                "schedule: %s, N = 2^%d, n = %d, L+1 = %d, α = %d, β = %d, %d-bit words, %s diagonals%s%n",
                r.setting(),
                r.logN(),
                r.n(),
                r.levels(),
                r.alpha(),
                r.beta(),
                r.wordBits(),
                r.storage(),
                r.modelOnly()
                        ? " — modelled only, NOT SECURE parameters (the paper's Table II)"
                        : r.secure() ? "" : " — NOT SECURE");
        System.out.printf(
                Locale.ROOT,
                "  %s %s, on-chip budget %.1f MB, %.0f GB/s, %.0f MHz × %d PEs; grouping %s%n",
                r.algo(),
                Arrays.toString(r.split()),
                r.onchipBudgetBytes() / 1e6,
                r.bandwidthBytesPerSecond() / 1e9,
                r.clockHz() / 1e6,
                r.processingElements(),
                r.grouping());
        System.out.println("  phase  lines   read        written     iterations  working set   latency");
        for (PhaseRow p : r.phases()) {
            System.out.printf(
                    Locale.ROOT,
                    "  %5d  %-6s  %-10s  %-10s  %10d  %8.1f MB  %8.1f ms%n",
                    p.phase(),
                    p.lines(),
                    Units.gib(p.readBytes()),
                    Units.gib(p.writeBytes()),
                    p.iterations(),
                    p.residentBytes() / 1e6,
                    p.latencyMicros() / 1e3);
        }
        System.out.printf(
                Locale.ROOT,
                "  off-chip traffic %s, latency %.1f ms%n",
                Units.gib(r.offchipBytes()),
                r.latencyMicros() / 1e3);
        Scheduled b = r.baseline(), d = r.dhPhased();
        System.out.printf(
                Locale.ROOT,
                "  baseline: DH-BSGS %s straightforward (every step's inputs and outputs off chip): %s, %.1f ms%n",
                Arrays.toString(b.split()),
                Units.gib(b.offchipBytes()),
                b.latencyMicros() / 1e3);
        System.out.printf(
                Locale.ROOT,
                "  DH-BSGS %s on the same six-phase schedule: %s, %.1f ms%n",
                Arrays.toString(d.split()),
                Units.gib(d.offchipBytes()),
                d.latencyMicros() / 1e3);
        System.out.printf(
                Locale.ROOT,
                "  reduction against the baseline: %.1f %% (the paper: more than 52 %%)%n",
                100 * r.reduction());
        if (r.paretoFront() != null) {
            for (var e : r.paretoFront().entrySet()) {
                System.out.println("  Pareto front " + e.getKey() + ": budget → least traffic");
                for (FrontRow f : e.getValue()) {
                    System.out.printf(
                            Locale.ROOT,
                            "    %9.1f MB → %-11s %s %s%n",
                            f.budgetBytes() / 1e6,
                            Units.gib(f.offchipBytes()),
                            Arrays.toString(f.split()),
                            f.grouping());
                }
            }
        }
        for (String p : r.plots()) System.out.println("  plot written to " + p);
    }

    static void render(Report r, Path file) {
        List<String> labels = new ArrayList<>();
        double[][] s = new double[3][6];
        for (int p = 0; p < 6; p++) {
            labels.add((p + 1) + " (" + r.phases().get(p).lines() + ")");
            s[0][p] = (r.phases().get(p).readBytes() + r.phases().get(p).writeBytes()) / (double) (1L << 30);
            s[1][p] = (r.dhPhased().phases().get(p).readBytes()
                            + r.dhPhased().phases().get(p).writeBytes())
                    / (double) (1L << 30);
            s[2][p] = (r.baseline().phases().get(p).readBytes()
                            + r.baseline().phases().get(p).writeBytes())
                    / (double) (1L << 30);
        }
        String title = String.format(
                Locale.ROOT,
                "Off-chip traffic per phase, N = 2^%d, n = %d, %.0f MB on chip, %s diagonals",
                r.logN(),
                r.n(),
                r.onchipBudgetBytes() / 1e6,
                r.storage());
        Plots.save(
                Plots.bars(
                        title,
                        "phase (Algorithm 2 lines)",
                        "GiB",
                        labels,
                        s,
                        new String[] {
                            r.algo() + " " + Arrays.toString(r.split()),
                            "dh-bsgs " + Arrays.toString(r.dhPhased().split()) + " phased",
                            "dh-bsgs " + Arrays.toString(r.baseline().split()) + " straightforward"
                        },
                        false),
                file);
        if (r.paretoFront() != null) {
            var chart = Plots.lines(
                    "Least off-chip traffic against the on-chip budget, N = 2^" + r.logN() + ", n = " + r.n(),
                    "on-chip budget (MB)",
                    "off-chip traffic (GiB)",
                    true,
                    false);
            for (var e : r.paretoFront().entrySet()) {
                if (e.getValue().isEmpty()) continue;
                double[] x = e.getValue().stream()
                        .mapToDouble(f -> f.budgetBytes() / 1e6)
                        .toArray();
                double[] y = e.getValue().stream()
                        .mapToDouble(f -> f.offchipBytes() / (double) (1L << 30))
                        .toArray();
                chart.addSeries(e.getKey(), x, y);
            }
            Plots.save(chart, Plots.sibling(file, "-pareto"));
        }
    }
}
