package io.hoist.cli;

import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.KeySizes;
import io.hoist.lt.dft.DftFactorization;
import io.hoist.lt.dft.DftPlanner;
import io.hoist.lt.dft.HomomorphicDft;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import org.knowm.xchart.XYChart;

/**
 * {@code hoist ctos --sweep}: every depth 1 … logSlots × the four algorithms. Keys, key bytes and
 * multiplications come from the plans (index sets only, no matrix is built); points whose levels
 * exist and whose keys and diagonals fit the memory cap are also run for time and precision.
 */
final class CtosSweep {
    private CtosSweep() {}

    record Point(
            int depth,
            String algo,
            int rotationKeys,
            long keyBytes,
            long seededKeyBytes,
            double modMuls,
            long diagonals,
            long estimatedBytes,
            boolean run,
            String notRun,
            Double millis,
            Double minBits,
            Double avgBits) {}

    record Report(
            String params,
            int logSlots,
            String objective,
            boolean joint,
            String storage,
            List<Point> points,
            List<String> plots) {}

    static Report run(CtosCommand.Setup s, long maxBytes, int runFrom, int runTo, boolean quiet) {
        CkksParameters params = s.params();
        List<Point> points = new ArrayList<>();
        Algorithm[] algos = Algorithm.values();
        int total = s.logSlots() * algos.length, done = 0;
        try (Bars bar = Bars.of("sweep", quiet)) {
            for (int d = 1; d <= s.logSlots(); d++) {
                List<DftPlanner.MatrixSpec> specs = specs(s, d);
                for (Algorithm a : algos) {
                    points.add(point(s, d, a, specs, maxBytes, d >= runFrom && d <= runTo, quiet));
                    bar.step(++done, total);
                }
            }
        }
        return new Report(
                ParamsOptions.describe(params),
                s.logSlots(),
                s.objectiveName(),
                s.joint(),
                s.storage().name().toLowerCase(Locale.ROOT),
                points,
                List.of());
    }

    /** The report with the plot files named (as written by {@link #plot}). */
    static Report withPlots(Report r, Path plot) {
        return new Report(r.params(), r.logSlots(), r.objective(), r.joint(), r.storage(), r.points(), plotNames(plot));
    }

    /** The CtS matrices' index sets at depth d; with sparse packing the last matrix acts on 2n slots with the same offsets. */
    private static List<DftPlanner.MatrixSpec> specs(CtosCommand.Setup s, int d) {
        var sets = DftFactorization.indexSets(s.logSlots(), d, HomomorphicDft.Kind.COEFFS_TO_SLOTS);
        boolean sparse = s.logSlots() < s.params().logN() - 1;
        List<DftPlanner.MatrixSpec> out = new ArrayList<>();
        for (int i = 0; i < d; i++) {
            int dim = sparse && i == d - 1 ? 2 << s.logSlots() : 1 << s.logSlots();
            out.add(new DftPlanner.MatrixSpec(dim, sets.get(i), Math.max(1, s.topLevel() - i)));
        }
        return out;
    }

    private static Point point(
            CtosCommand.Setup s,
            int d,
            Algorithm a,
            List<DftPlanner.MatrixSpec> specs,
            long maxBytes,
            boolean runIt,
            boolean quiet) {
        CkksParameters params = s.params();
        boolean lattigo = s.objectiveName().equals("lattigo");
        List<Plan> plans;
        try {
            if (lattigo && a == Algorithm.DH_BSGS) plans = lattigo(specs);
            else if (s.joint())
                plans = DftPlanner.joint(specs, true, params, a, s.objective(), s.keyBudget())
                        .plans();
            else plans = perMatrix(s, a, specs);
        } catch (IllegalArgumentException e) { // e.g. no split within the key budget: this point only
            return new Point(d, a.cliName(), 0, 0, 0, Double.NaN, 0, 0, false, e.getMessage(), null, null, null);
        }
        boolean levelsExist = s.topLevel() - d >= 0;
        TreeSet<Long> keys = new TreeSet<>();
        double mults = 0;
        long diags = 0, diagBytes = 0;
        for (int i = 0; i < d; i++) {
            keys.addAll(plans.get(i).rotationKeys(params));
            int level = specs.get(i).level();
            mults += plans.get(i).cost(params, level, s.storage()).modMuls();
            long words = s.storage() == Storage.COMPACT ? 1 : level + 1 + params.alpha();
            diags += specs.get(i).indices().size();
            diagBytes += specs.get(i).indices().size() * words * params.n() * 8L;
        }
        keys.add(params.galoisElementForConjugation());
        KeySizes one = KeySizes.switchingKey(params.beta(s.topLevel()), s.topLevel() + 1 + params.alpha(), params.n());
        long keyBytes = one.fullBytes() * keys.size();
        long need = keyBytes + diagBytes;
        String why = null;
        if (!levelsExist) why = "needs " + d + " levels, the parameters have " + s.topLevel();
        else if (!runIt) why = "outside --sweep-run-depths";
        else if (need > maxBytes)
            why = String.format(Locale.ROOT, "keys and diagonals need %.1f GB, over --sweep-max-mb", need / 1e9);
        Double ms = null, min = null, avg = null;
        if (why == null) {
            CtosCommand.Setup one1 = new CtosCommand.Setup(
                    params,
                    s.backend(),
                    s.logSlots(),
                    d,
                    s.topLevel(),
                    null,
                    0,
                    a,
                    lattigo && a != Algorithm.DH_BSGS ? "fewest-keys" : s.objectiveName(),
                    s.objective(),
                    s.keyBudget(),
                    s.joint(),
                    s.storage(),
                    s.runs(),
                    s.seed(),
                    null,
                    null,
                    s.threads());
            CtosRun.Report r = CtosRun.run(one1, d, true);
            ms = r.millis().evaluate();
            min = r.precision().minBits();
            avg = r.precision().avgBits();
        }
        // levels below 1 do not exist: multiplications and diagonal bytes of such a depth are not reported
        return new Point(
                d,
                a.cliName(),
                keys.size(),
                keyBytes,
                one.seededBytes() * keys.size(),
                levelsExist ? mults : Double.NaN,
                diags,
                levelsExist ? need : 0,
                why == null,
                why,
                ms,
                min,
                avg);
    }

    /** Lattigo's rule (DH-BSGS, ρ = 1) per matrix, as {@code ctos --objective lattigo} runs it. */
    private static List<Plan> lattigo(List<DftPlanner.MatrixSpec> specs) {
        List<Plan> out = new ArrayList<>();
        for (var m : specs) {
            int n1 = DftPlanner.lattigoN1(m.indices(), m.dimension(), 1);
            out.add(Plan.forIndices(m.dimension(), m.indices(), Algorithm.DH_BSGS, n1, m.dimension() / n1));
        }
        return out;
    }

    private static List<Plan> perMatrix(CtosCommand.Setup s, Algorithm a, List<DftPlanner.MatrixSpec> specs) {
        List<Plan> out = new ArrayList<>();
        var obj = s.objectiveName().equals("lattigo")
                ? Objective.FEWEST_KEYS
                : s.objective(); // other algorithms beside Lattigo's DH rule
        for (var m : specs)
            out.add(Plan.autoForIndices(m.dimension(), m.indices(), s.params(), m.level(), a, obj, s.keyBudget()));
        return out;
    }

    private static List<String> plotNames(Path plot) {
        if (plot == null) return List.of();
        return List.of(
                plot.toAbsolutePath().toString(),
                Plots.sibling(plot, "-time").toAbsolutePath().toString());
    }

    static void plot(Report r, Path file) {
        XYChart keys = Plots.lines(
                "CoeffsToSlots rotation keys against depth (logSlots " + r.logSlots() + ")",
                "depth",
                "rotation keys (union, with conjugation)",
                false,
                true);
        XYChart time = Plots.lines(
                "CoeffsToSlots evaluation time against depth (logSlots " + r.logSlots() + ")",
                "depth",
                "ms",
                false,
                true);
        for (Algorithm a : Algorithm.values()) {
            List<Double> x = new ArrayList<>(), y = new ArrayList<>(), tx = new ArrayList<>(), ty = new ArrayList<>();
            for (Point p : r.points()) {
                if (!p.algo().equals(a.cliName())) continue;
                x.add((double) p.depth());
                y.add((double) p.rotationKeys());
                if (p.millis() != null) {
                    tx.add((double) p.depth());
                    ty.add(p.millis());
                }
            }
            if (!x.isEmpty()) keys.addSeries(a.cliName(), x, y);
            if (!tx.isEmpty()) time.addSeries(a.cliName(), tx, ty);
        }
        Plots.save(keys, file);
        if (!time.getSeriesMap().isEmpty()) Plots.save(time, Plots.sibling(file, "-time"));
    }

    static void print(Report r) {
        System.out.printf(
                Locale.ROOT,
                "CoeffsToSlots sweep, %s%n  logSlots %d, objective %s%s, diagonals %s%n",
                r.params(),
                r.logSlots(),
                r.objective(),
                r.joint() ? " (joint)" : "",
                r.storage());
        System.out.printf(
                Locale.ROOT,
                "  %5s %-9s %5s %9s %12s %7s %10s %8s%n",
                "depth",
                "algo",
                "keys",
                "key GB",
                "modMuls",
                "diags",
                "time ms",
                "bits");
        for (Point p : r.points()) {
            System.out.printf(
                    Locale.ROOT,
                    "  %5d %-9s %5d %9.2f %12s %7d %10s %8s%s%n",
                    p.depth(),
                    p.algo(),
                    p.rotationKeys(),
                    p.keyBytes() / 1e9,
                    Double.isNaN(p.modMuls()) ? "-" : String.format(Locale.ROOT, "%.3e", p.modMuls()),
                    p.diagonals(),
                    p.millis() == null ? "-" : String.format(Locale.ROOT, "%.0f", p.millis()),
                    p.minBits() == null ? "-" : String.format(Locale.ROOT, "%.1f", p.minBits()),
                    p.run() ? "" : "   (" + p.notRun() + ")");
        }
    }
}
