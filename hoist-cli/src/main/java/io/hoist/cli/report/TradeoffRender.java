package io.hoist.cli.report;

import io.hoist.ckks.io.FileChecks;
import io.hoist.cli.run.TradeoffMeasure;
import io.hoist.cli.run.TradeoffResult;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.planning.Tradeoffs;
import io.hoist.lt.schedule.LatencyModel;
import io.hoist.lt.schedule.ScheduleCompiler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The renderings of a tradeoff study: table, CSV (the JSON rows' columns), figures. */
public final class TradeoffRender {
    private TradeoffRender() {}

    static final String[] COLUMNS = {
        "logN",
        "levels",
        "alpha",
        "beta",
        "wordBits",
        "n",
        "algorithm",
        "split",
        "rotationKeys",
        "keyBytes",
        "seededKeyBytes",
        "decompose",
        "modDown",
        "keySwitchInnerProducts",
        "ptMuls",
        "ntt",
        "modMuls",
        "offchipBytes",
        "latencyMicros"
    };

    static List<Object> row(Tradeoffs.Point p) {
        return List.of(
                p.logN(),
                p.levels(),
                p.alpha(),
                p.beta(),
                p.wordBits(),
                p.n(),
                p.algorithm(),
                String.join("x", p.split().stream().map(String::valueOf).toList()),
                p.rotationKeys(),
                p.keyBytes(),
                p.seededKeyBytes(),
                p.decompose(),
                p.modDown(),
                p.keySwitchInnerProducts(),
                p.ptMuls(),
                p.ntt(),
                p.modMuls(),
                p.offchipBytes() == null ? "" : p.offchipBytes(),
                p.latencyMicros() == null ? "" : p.latencyMicros());
    }

    public static void csv(List<Tradeoffs.Point> points, Path file) {
        FileChecks.requireWritableTarget(file, "the CSV file");
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                CSVPrinter out = new CSVPrinter(
                        w, CSVFormat.DEFAULT.builder().setHeader(COLUMNS).get())) {
            for (Tradeoffs.Point p : points) out.printRecord(row(p));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + FileChecks.reason(e), e);
        }
    }

    public static void table(TradeoffResult r) {
        System.out.printf(
                Locale.ROOT,
                "%5s %4s %5s %4s %7s %-9s %-14s %6s %10s %5s %5s %6s %8s %11s %12s %10s%n",
                "logN",
                "L",
                "alpha",
                "beta",
                "n",
                "algo",
                "split",
                "keys",
                "key GiB",
                "Dec",
                "MD",
                "KS-IP",
                "PtMul",
                "modMuls",
                "offchip GB",
                "latency ms");
        for (Tradeoffs.Point p : r.points()) {
            System.out.printf(
                    Locale.ROOT,
                    "%5d %4d %5d %4d %7d %-9s %-14s %6d %10.2f %5d %5d %6d %8d %11.4e %12s %10s%n",
                    p.logN(),
                    p.levels(),
                    p.alpha(),
                    p.beta(),
                    p.n(),
                    p.algorithm(),
                    String.join("·", p.split().stream().map(String::valueOf).toList()),
                    p.rotationKeys(),
                    p.keyBytes() / (double) (1L << 30),
                    p.decompose(),
                    p.modDown(),
                    p.keySwitchInnerProducts(),
                    p.ptMuls(),
                    p.modMuls(),
                    p.offchipBytes() == null ? "-" : String.format(Locale.ROOT, "%.2f", p.offchipBytes() / 1e9),
                    p.latencyMicros() == null ? "-" : String.format(Locale.ROOT, "%.2f", p.latencyMicros() / 1e3));
        }
        System.out.println("fewest keys per algorithm: " + r.minKeys());
        if (r.measured() != null) TradeoffMeasure.print(r.measured());
        for (String f : r.files()) System.out.println("wrote " + f);
    }

    /** The four figures, each as SVG and PNG; returns the files written. */
    public static List<String> plots(TradeoffResult r, Path dir, LimbLayout first, Storage storage) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        List<String> files = new ArrayList<>();
        save(keysAgainstN(r.points()), dir.resolve("keys-vs-n"), files);
        save(paretoFront(r.points()), dir.resolve("pareto-keys-mults"), files);
        save(keyBytesAgainstDnum(r.points()), dir.resolve("keybytes-vs-dnum"), files);
        save(trafficAgainstBudget(r.points(), first, storage), dir.resolve("traffic-vs-budget"), files);
        return files;
    }

    private static void save(XYChart c, Path base, List<String> files) {
        for (String ext : new String[] {".svg", ".png"}) {
            Path f = base.resolveSibling(base.getFileName() + ext);
            Plots.save(c, f);
            files.add(f.toAbsolutePath().toString());
        }
    }

    /** Fewest keys per algorithm against n (first layout), log–log, with the reference curves n, 2√n and 3∛n. */
    private static XYChart keysAgainstN(List<Tradeoffs.Point> pts) {
        XYChart c =
                Plots.lines("Rotation keys against matrix size (fewest-keys split)", "n", "rotation keys", true, true);
        Tradeoffs.Point p0 = pts.get(0);
        Map<String, TreeMap<Integer, Integer>> min = new TreeMap<>();
        for (Tradeoffs.Point p : pts) {
            if (p.logN() != p0.logN() || p.levels() != p0.levels() || p.alpha() != p0.alpha()) continue;
            min.computeIfAbsent(p.algorithm(), k -> new TreeMap<>()).merge(p.n(), p.rotationKeys(), Math::min);
        }
        for (var e : min.entrySet()) {
            c.addSeries(
                    e.getKey(),
                    e.getValue().keySet().stream().map(Integer::doubleValue).toList(),
                    e.getValue().values().stream().map(Integer::doubleValue).toList());
        }
        TreeMap<Integer, Integer> ns = min.values().iterator().next();
        double n0 = ns.firstKey();
        for (double[] ref : new double[][] {{1, 1}, {0.5, 2}, {1.0 / 3, 3}}) {
            List<Double> x = new ArrayList<>(), y = new ArrayList<>();
            for (int n : ns.keySet()) {
                x.add((double) n);
                y.add(Math.max(1, ref[1] * Math.pow(n / n0, ref[0]) * Math.pow(n0, ref[0])));
            }
            String name = ref[0] == 1 ? "O(n)" : ref[0] == 0.5 ? "O(√n)" : "O(∛n)";
            XYSeries s = c.addSeries(name, x, y);
            s.setMarker(SeriesMarkers.NONE);
            s.setLineStyle(SeriesLines.DASH_DASH);
        }
        return c;
    }

    /** The keys–multiplications Pareto front of each algorithm at the largest n (first layout). */
    private static XYChart paretoFront(List<Tradeoffs.Point> pts) {
        Tradeoffs.Point p0 = pts.get(0);
        int maxN = pts.stream()
                .filter(p -> p.logN() == p0.logN() && p.levels() == p0.levels() && p.alpha() == p0.alpha())
                .mapToInt(Tradeoffs.Point::n)
                .max()
                .orElseThrow();
        List<Tradeoffs.Point> at = pts.stream()
                .filter(p ->
                        p.n() == maxN && p.logN() == p0.logN() && p.levels() == p0.levels() && p.alpha() == p0.alpha())
                .toList();
        XYChart c = Plots.lines(
                "Keys–multiplications Pareto front at n = " + maxN,
                "rotation keys",
                "modular multiplications (§6.2)",
                true,
                false);
        c.getStyler().setYAxisDecimalPattern("0.00E0");
        Map<String, List<Tradeoffs.Point>> by = new TreeMap<>();
        for (Tradeoffs.Point p : Tradeoffs.paretoFront(at))
            by.computeIfAbsent(p.algorithm(), k -> new ArrayList<>()).add(p);
        for (var e : by.entrySet()) {
            c.addSeries(
                    e.getKey(),
                    e.getValue().stream().map(p -> (double) p.rotationKeys()).toList(),
                    e.getValue().stream().map(Tradeoffs.Point::modMuls).toList());
        }
        return c;
    }

    /** Key bytes of the fewest-keys plan of each algorithm against dnum = β, at the first layout's ring and L and its largest n (α varies). */
    private static XYChart keyBytesAgainstDnum(List<Tradeoffs.Point> pts) {
        XYChart c = Plots.lines(
                "Key bytes against dnum (fewest-keys split, largest n)",
                "dnum = β",
                "GiB of rotation keys",
                false,
                true);
        Map<String, TreeMap<Integer, Double>> by = new TreeMap<>();
        Tradeoffs.Point p0 = pts.get(0);
        int maxN = pts.stream()
                .filter(p -> p.logN() == p0.logN() && p.levels() == p0.levels())
                .mapToInt(Tradeoffs.Point::n)
                .max()
                .orElseThrow();
        for (Tradeoffs.Point p : pts) {
            if (p.n() != maxN || p.logN() != p0.logN() || p.levels() != p0.levels()) continue;
            by.computeIfAbsent(p.algorithm(), k -> new TreeMap<>())
                    .merge(p.beta(), p.keyBytes() / (double) (1L << 30), Math::min);
        }
        for (var e : by.entrySet())
            c.addSeries(
                    e.getKey(),
                    e.getValue().keySet().stream().map(Integer::doubleValue).toList(),
                    new ArrayList<>(e.getValue().values()));
        return c;
    }

    /** Off-chip traffic of the fewest-keys TH-BSGS and DH-BSGS splits at the largest n against the working-set budget (4 MB … 4 GB). */
    private static XYChart trafficAgainstBudget(List<Tradeoffs.Point> pts, LimbLayout lay, Storage storage) {
        XYChart c = Plots.lines(
                "Off-chip traffic against working-set budget",
                "working-set budget (MB)",
                "off-chip traffic (GB)",
                true,
                false);
        c.getStyler().setYAxisDecimalPattern("0");
        int maxN = pts.stream()
                .filter(p -> p.logN() == lay.logN())
                .mapToInt(Tradeoffs.Point::n)
                .max()
                .orElseThrow();
        for (Algorithm a : new Algorithm[] {Algorithm.TH_BSGS, Algorithm.DH_BSGS}) {
            Tradeoffs.Point best = pts.stream()
                    .filter(p -> p.n() == maxN
                            && p.algorithm().equals(a.cliName())
                            && p.logN() == lay.logN()
                            && p.levels() == lay.level()
                            && p.alpha() == lay.alpha())
                    .min(Comparator.comparingInt(Tradeoffs.Point::rotationKeys)
                            .thenComparingDouble(Tradeoffs.Point::modMuls))
                    .orElse(null);
            if (best == null) continue;
            Plan plan = Plan.dense(
                    maxN, a, best.split().stream().mapToInt(Integer::intValue).toArray());
            LtProgram prog = LtProgram.compile(plan, lay);
            long min = ScheduleCompiler.minimalBudget(prog, storage);
            List<Double> x = new ArrayList<>(), y = new ArrayList<>();
            for (double mb = 4; mb <= 4096; mb *= Math.sqrt(2)) {
                long b = (long) (mb * 1e6);
                if (b < min) continue;
                var res = ScheduleCompiler.evaluate(
                        prog,
                        storage,
                        ScheduleCompiler.bestGrouping(prog, storage, b),
                        LatencyModel.U280.withOnChip(b));
                x.add(mb);
                y.add(res.offchipBytes() / 1e9);
            }
            if (!x.isEmpty())
                c.addSeries(
                        a.cliName() + " "
                                + plan.describe().substring(a.cliName().length() + 1),
                        x,
                        y);
        }
        return c;
    }
}
