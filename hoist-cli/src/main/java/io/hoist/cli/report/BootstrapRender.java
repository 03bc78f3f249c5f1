package io.hoist.cli.report;

import io.hoist.cli.run.BootstrapRun;
import io.hoist.cli.run.BootstrapSweep;
import io.hoist.ring.NttEngine;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;

/** Human output of {@code hoist bootstrap}: one run, or the sweep's table and plot. */
public final class BootstrapRender {
    private BootstrapRender() {}

    public static void print(BootstrapRun.Report r) {
        System.out.printf(Locale.ROOT, "Bootstrapping, %s%n", r.params());
        System.out.printf(
                Locale.ROOT,
                "  2^%d slots (%s packing), %s, CtS %s, StC %s%s, diagonals %s; kernels: %s, %d thread(s)%n",
                r.logSlots(),
                r.sparse() ? "sparse" : "dense",
                r.encapsulation() ? "sparse-secret encapsulation" : "no encapsulation",
                r.ctosAlgo(),
                r.stocAlgo(),
                r.joint() ? " (joint key set)" : "",
                r.storage(),
                NttEngine.summarize(r.kernels()),
                r.threads());
        var l = r.levels();
        System.out.printf(
                Locale.ROOT,
                "  levels: input %d → ModRaise to %d, CtS %d→%d, EvalMod %d→%d, StC %d→%d (output level %d)%n",
                l.input(),
                l.ctos(),
                l.ctos(),
                l.evalMod(),
                l.evalMod(),
                l.stoc(),
                l.stoc(),
                l.output(),
                l.output());
        var e = r.evalMod();
        System.out.printf(
                Locale.ROOT,
                "  EvalMod: K %d, degree %d, %d double angle(s), arcsine %d, message ratio 2^%.0f, scale 2^%d (approximation %.1f bits)%n",
                e.K(),
                e.degree(),
                e.doubleAngle(),
                e.arcsineDegree(),
                Math.log(e.messageRatio()) / Math.log(2),
                e.logScale(),
                e.approximationBits());
        System.out.printf(
                Locale.ROOT, "  %-14s %5s %6s %-10s %-14s %5s%n", "matrix", "level", "diags", "algo", "split", "keys");
        for (var m : r.matrices())
            System.out.printf(
                    Locale.ROOT,
                    "  %-14s %5d %6d %-10s %-14s %5d%n",
                    m.kind(),
                    m.level(),
                    m.diagonals(),
                    m.algo(),
                    String.join(
                            "·",
                            Arrays.stream(m.split()).mapToObj(Integer::toString).toList()),
                    m.rotationKeys());
        var k = r.keys();
        System.out.printf(
                Locale.ROOT,
                "  keys: %d rotation + %d conjugation + %d relinearization + %d encapsulation, %.2f GB (seeded %.2f GB)%n",
                k.rotation(),
                k.conjugation(),
                k.relinearization(),
                k.encapsulation(),
                k.bytes() / 1e9,
                k.seededBytes() / 1e9);
        System.out.printf(
                Locale.ROOT,
                "  precision: worst slot %.1f bits, mean %.1f bits, RMS %.1f bits (%s)%n",
                r.precision().minBits(),
                r.precision().avgBits(),
                r.precision().l2Bits(),
                r.input());
        var t = r.millis();
        System.out.printf(
                Locale.ROOT,
                "  time: keygen %.1f s, encode %.1f s; bootstrap %.2f s = ModRaise %.2f + CtS %.2f + EvalMod %.2f + StC %.2f"
                        + " (median of %d%s)%n",
                t.keygen() / 1e3,
                t.encode() / 1e3,
                t.total() / 1e3,
                t.modRaise() / 1e3,
                t.ctos() / 1e3,
                t.evalMod() / 1e3,
                t.stoc() / 1e3,
                r.runs(),
                r.runs() > 1 ? String.format(Locale.ROOT, "; the first %.2f s", t.first() / 1e3) : "");
        LtReport.printWaits(t.warmupWait(), t.firstWait(), "bootstrap");
        System.out.printf(
                Locale.ROOT,
                "  memory: keys %.2f GB held %s, diagonals %.2f GB, pooled %.2f GB, peak RSS %.2f GB%s%n",
                r.memoryBytes().keysInMemory() / 1e9,
                r.keys().storage(),
                r.memoryBytes().diagonals() / 1e9,
                r.memoryBytes().pooled() / 1e9,
                r.memoryBytes().peakRss() / 1e9,
                r.memoryBytes().allocatedWarm() >= 0
                        ? String.format(
                                Locale.ROOT,
                                "; a warm bootstrap allocates %.1f MB",
                                r.memoryBytes().allocatedWarm() / 1e6)
                        : "");
        System.out.println("  counts: " + r.counts());
    }

    public static void print(BootstrapSweep.Report r) {
        System.out.printf(Locale.ROOT, "Bootstrapping sweep, %s, StC depth %d%n", r.params(), r.stocDepth());
        System.out.printf(
                Locale.ROOT,
                "  %5s %-9s %5s %8s %8s %6s %6s %8s %8s %9s%n",
                "CtS d",
                "algo",
                "keys",
                "key GB",
                "log QP",
                "secure",
                "out L",
                "min bits",
                "avg bits",
                "total s");
        for (var p : r.points()) {
            System.out.printf(
                    Locale.ROOT,
                    "  %5d %-9s %5s %8s %8s %6s %6s %8s %8s %9s%s%n",
                    p.ctosDepth(),
                    p.algo(),
                    p.galoisKeys() == null ? "—" : p.galoisKeys().toString(),
                    fmt(p.keyGB(), "%.2f"),
                    fmt(p.logQP(), "%.1f"),
                    p.secure() == null ? "—" : p.secure() ? "yes" : "no",
                    p.outputLevel() == null ? "—" : p.outputLevel().toString(),
                    fmt(p.minBits(), "%.1f"),
                    fmt(p.avgBits(), "%.1f"),
                    fmt(p.totalMs() == null ? null : p.totalMs() / 1e3, "%.2f"),
                    p.error() == null ? "" : "  (" + p.error() + ")");
        }
    }

    private static String fmt(Double v, String f) {
        return v == null ? "—" : String.format(Locale.ROOT, f, v);
    }

    /** Galois keys against CtS depth per algorithm to FILE, and precision to FILE-precision. */
    public static void plot(BootstrapSweep.Report r, Path file) {
        XYChart keys = Plots.lines(
                "Bootstrapping: Galois keys (" + r.params() + ")", "CtS depth", "Galois keys", false, false);
        XYChart bits = Plots.lines("Bootstrapping: worst-slot precision", "CtS depth", "bits", false, false);
        for (String a :
                r.points().stream().map(BootstrapSweep.Point::algo).distinct().toList()) {
            List<BootstrapSweep.Point> ps = r.points().stream()
                    .filter(p -> p.algo().equals(a) && p.error() == null)
                    .toList();
            if (ps.isEmpty()) continue;
            keys.addSeries(
                    a,
                    ps.stream().mapToDouble(BootstrapSweep.Point::ctosDepth).toArray(),
                    ps.stream().mapToDouble(BootstrapSweep.Point::galoisKeys).toArray());
            List<BootstrapSweep.Point> run =
                    ps.stream().filter(p -> p.minBits() != null).toList();
            if (!run.isEmpty())
                bits.addSeries(
                        a,
                        run.stream()
                                .mapToDouble(BootstrapSweep.Point::ctosDepth)
                                .toArray(),
                        run.stream().mapToDouble(BootstrapSweep.Point::minBits).toArray());
        }
        Plots.save(keys, file);
        if (!bits.getSeriesMap().isEmpty()) Plots.save(bits, Plots.sibling(file, "-precision"));
    }
}
