package io.hoist.cli.run;

import io.hoist.bootstrap.BootstrapParameters;
import io.hoist.bootstrap.BootstrapPlan;
import io.hoist.ckks.KeyStorage;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/** CtS depths × the four algorithms: keys and key bytes for every point, time and precision for the points run. */
public final class BootstrapSweep {
    private BootstrapSweep() {}

    /** A point; the plan's figures are null where planning failed ({@code error} says why), not made-up zeros. */
    public record Point(
            int ctosDepth,
            String algo,
            Integer galoisKeys,
            Double keyGB,
            Double logQP,
            Boolean secure,
            Integer outputLevel,
            Double minBits,
            Double avgBits,
            Double totalMs,
            Double ctosMs,
            String error) {}

    public record Report(String params, int stocDepth, List<Point> points) {}

    public static Report run(
            BootstrapParameters bp,
            int lo,
            int hi,
            BiFunction<BootstrapParameters, Algorithm, BootstrapPlan> planner,
            String backend,
            int threads,
            Storage storage,
            long seed,
            boolean execute,
            boolean quiet) {
        List<Point> points = new ArrayList<>();
        for (int d = lo; d <= hi; d++) {
            for (Algorithm a : Algorithm.values()) {
                BootstrapParameters p;
                BootstrapPlan plan;
                try {
                    p = bp.withDepths(d, bp.stcDepth(), true);
                    plan = planner.apply(p, a);
                } catch (RuntimeException e) {
                    points.add(new Point(
                            d, a.cliName(), null, null, null, null, null, null, null, null, null, message(e)));
                    continue;
                }
                int keys = plan.galoisElements().size();
                double gb = plan.keySizes().fullBytes() / 1e9;
                Double min = null, avg = null, total = null, cts = null;
                String err = null;
                if (execute) {
                    try {
                        BootstrapRun.Report r =
                                BootstrapRun.run(p, plan, backend, threads, storage, KeyStorage.FULL, 1, seed, quiet);
                        min = r.precision().minBits();
                        avg = r.precision().avgBits();
                        total = r.millis().total();
                        cts = r.millis().ctos();
                    } catch (RuntimeException e) {
                        err = message(e);
                    }
                }
                points.add(new Point(
                        d,
                        a.cliName(),
                        keys,
                        gb,
                        p.ckks().logQP(),
                        p.ckks().secure(),
                        plan.outputLevel(),
                        min,
                        avg,
                        total,
                        cts,
                        err));
            }
        }
        return new Report(bp.name(), bp.stcDepth(), points);
    }

    private static String message(RuntimeException e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
}
