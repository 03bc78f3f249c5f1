package io.hoist.cli.report;

import io.hoist.cli.run.CtosSweep;
import io.hoist.lt.plan.Algorithm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;

/** The sweep's report: its plots of keys and time against depth, and its table. */
public final class CtosSweepRender {
    private CtosSweepRender() {}

    /** The report with the plot files named (as written by {@link #plot}). */
    public static CtosSweep.Report withPlots(CtosSweep.Report r, Path plot) {
        return new CtosSweep.Report(
                r.params(), r.logSlots(), r.objective(), r.joint(), r.storage(), r.points(), plotNames(plot));
    }

    private static List<String> plotNames(Path plot) {
        if (plot == null) return List.of();
        return List.of(
                plot.toAbsolutePath().toString(),
                Plots.sibling(plot, "-time").toAbsolutePath().toString());
    }

    public static void plot(CtosSweep.Report r, Path file) {
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
            for (CtosSweep.Point p : r.points()) {
                if (!p.algo().equals(a.cliName())) continue;
                // a point whose planning failed has no keys to draw (and 0 has no place on the log axis)
                if (p.rotationKeys() > 0) {
                    x.add((double) p.depth());
                    y.add((double) p.rotationKeys());
                }
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

    public static void print(CtosSweep.Report r) {
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
        for (CtosSweep.Point p : r.points()) {
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
