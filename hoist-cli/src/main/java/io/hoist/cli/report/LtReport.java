package io.hoist.cli.report;

import io.hoist.ckks.PrecisionStats;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.run.LtRun;
import io.hoist.cli.run.RunMillis;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.Schedule;
import io.hoist.lt.schedule.TrafficLedger;
import io.hoist.ring.NttEngine;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The report of an lt run: its JSON object and its human-readable form (also the demo's). */
public final class LtReport {
    private LtReport() {}

    /** The precision line of every lt report: worst slot and average, bits of the L2 error against M·x. */
    public static void printPrecision(PrecisionStats p) {
        System.out.printf(
                Locale.ROOT,
                "  precision: %.2f bits worst slot, %.2f bits average (L2 error against M·x)%n",
                p.minBits(),
                p.avgBits());
    }

    public static Json.Obj toJson(LtRun run, LinearTransform t) {
        Map<String, Object> precision = LtRun.precisionJson(run.precision);
        Map<String, Object> millis = run.millis.json();
        if (run.directMillisAll != null) {
            millis.put("directEvaluate", run.directMillis);
            millis.put("directEvaluateRuns", run.directMillisAll);
        }
        Map<String, Object> memory = new LinkedHashMap<>();
        memory.put("keys", run.keyBytes);
        memory.put("keysSeeded", run.seededKeyBytes);
        memory.put("keysInMemory", run.keyMemoryBytes);
        memory.put("diagonals", run.diagonalBytes);
        memory.put("pooled", run.pooledBytes);
        memory.put("peakWorkingSet", run.measuredTraffic == null ? null : run.measuredTraffic.peakResidentBytes());
        memory.put("allocatedPerEvaluate", run.allocatedWarm);
        memory.put("allocatedFirstEvaluate", run.allocatedFirst);
        Json.Obj o = Json.obj()
                .put("algo", run.plan.algorithm().cliName())
                .put("preset", run.params.name())
                .put("logN", run.params.logN())
                .put("n", t.dimension())
                .put("diagonals", t.diagonalCount())
                .put("split", run.plan.split())
                .put("storage", run.storage.name().toLowerCase(Locale.ROOT))
                .put("keyStorage", run.keyStorage.name().toLowerCase(Locale.ROOT))
                .put("backend", run.backend)
                .put("kernels", run.kernels)
                .put("threads", run.threads)
                .put("secure", run.params.secure())
                .put("rotationKeys", run.rotationKeys)
                .put("keyBytes", run.keyBytes)
                .put("counts", run.measuredJson())
                .put("expected", LtRun.expectedJson(run.expected))
                .put("countsMatch", run.countsMatch())
                .put("modMulsModel", run.expected.modMuls())
                .put("precision", precision)
                .put("millis", millis)
                .put("memoryBytes", memory)
                .put("schedule", run.schedule instanceof Schedule.Phased ? "phased" : "direct");
        if (t.originalDimension() != t.dimension())
            o.put("paddedFrom", t.originalDimension()); // --n 100 runs a 128×128 matrix: say so
        putPhased(o, run.schedule, run.grouping, run.measuredTraffic, run.expectedTraffic, run.bitIdenticalToDirect);
        if (run.keysLoaded >= 0)
            o.put("keyStore", Json.obj().put("keysInStore", run.keysInStore).put("keysLoaded", run.keysLoaded));
        return o;
    }

    /** The phased schedule's part of a JSON report (budget, grouping, traffic measured and expected), and the comparison with direct. */
    public static void putPhased(
            Json.Obj o,
            Schedule schedule,
            Grouping g,
            TrafficLedger measured,
            TrafficLedger expected,
            Boolean bitIdenticalToDirect) {
        if (schedule instanceof Schedule.Phased ph) {
            o.put("onchipBudgetBytes", ph.budgetBytes());
            o.put("grouping", g == null ? null : g.asMap());
            Map<String, Object> traffic = new LinkedHashMap<>();
            traffic.put("measured", LtRun.trafficJson(measured));
            traffic.put("expected", LtRun.trafficJson(expected));
            traffic.put("match", measured.equals(expected));
            o.put("traffic", traffic);
        }
        if (bitIdenticalToDirect != null) o.put("bitIdenticalToDirect", bitIdenticalToDirect);
    }

    /** The phased schedule's part of a table report; {@code note} follows the working set (e.g. "(one block's)"). */
    public static void printPhased(
            Grouping g,
            TrafficLedger measured,
            boolean matches,
            String note,
            Boolean bitIdenticalToDirect,
            double phasedMillis,
            double directMillis) {
        if (measured != null) {
            System.out.printf(
                    Locale.ROOT,
                    "  phased schedule, grouping %s: working set %.1f MB%s, off-chip %s%n",
                    g,
                    measured.peakResidentBytes() / 1e6,
                    note,
                    Units.gib(measured.offchipBytes()));
            for (TrafficLedger.PhaseTraffic p : measured.phases()) {
                System.out.printf(
                        Locale.ROOT,
                        "    phase %d (%s): read %s, written %s, %d iterations, working set %.1f MB%n",
                        p.phase(),
                        p.lines(),
                        Units.gib(p.read()),
                        Units.gib(p.write()),
                        p.iterations(),
                        p.peakResidentBytes() / 1e6);
            }
            System.out.println(
                    matches
                            ? "  measured traffic equals the expected ledger (closed forms; a walk without data for sparse plans or blocks)"
                            : "  TRAFFIC DIFFERS FROM THE EXPECTED LEDGER (a bug)");
        }
        if (bitIdenticalToDirect != null) {
            System.out.println(
                    bitIdenticalToDirect
                            ? "  bit-identical to the direct executor"
                            : "  DIFFERS FROM THE DIRECT EXECUTOR (a bug)");
            System.out.printf(
                    Locale.ROOT,
                    "  side by side (alternating, medians): phased %.0f ms, direct %.0f ms%n",
                    phasedMillis,
                    directMillis);
        }
    }

    /** The time lines of the lt and block reports: the times, then the waits for the kernel warm-up if any. */
    public static void printTime(RunMillis m) {
        System.out.printf(
                Locale.ROOT,
                "  time: keygen %.0f ms, encode %.0f ms, evaluate %.0f ms (first evaluation, with JIT warm-up: %.0f ms)%n",
                m.keygen,
                m.encode,
                m.evaluate,
                m.firstEvaluate);
        printWaits(m.keygenWait, m.evaluateWait, "evaluation");
    }

    /**
     * The lines for keygen's and the first {@code what}'s wait for the kernel warm-up (begun beside the test data or
     * the plans), each only when it waited.
     */
    public static void printWaits(double keygenWait, double firstWait, String what) {
        for (String line : RunMillis.waitLines(keygenWait, firstWait, what)) System.out.println(line);
    }

    public static void print(LtRun run, LinearTransform t) {
        System.out.println("lt: " + ParamsOptions.describe(run.params));
        System.out.printf(
                Locale.ROOT,
                "  %s on a %d×%d matrix%s (%d nonzero diagonals), %s diagonals, backend %s, %d thread(s)%n",
                run.plan.describe(),
                t.dimension(),
                t.dimension(),
                t.originalDimension() != t.dimension()
                        ? " (padded from " + t.originalDimension() + "×" + t.originalDimension() + ")"
                        : "",
                t.diagonalCount(),
                run.storage.name().toLowerCase(Locale.ROOT),
                run.backend,
                run.threads);
        System.out.println("  kernels: " + NttEngine.summarize(run.kernels));
        printPrecision(run.precision);
        System.out.printf(
                Locale.ROOT,
                "  rotation keys: %d, %.1f MB (%.1f MB stored as seeds + b parts); held %s: %.1f MB in memory%n",
                run.rotationKeys,
                run.keyBytes / 1e6,
                run.seededKeyBytes / 1e6,
                run.keyStorage.name().toLowerCase(Locale.ROOT),
                run.keyMemoryBytes / 1e6);
        System.out.printf(Locale.ROOT, "  diagonals in memory: %.1f MB%n", run.diagonalBytes / 1e6);
        System.out.println("  counts         measured   closed form");
        var m = run.measuredJson();
        var e = LtRun.expectedJson(run.expected);
        for (String k : m.keySet())
            System.out.printf(Locale.ROOT, "    %-22s %8d   %8d%n", k, (Long) m.get(k), (Long) e.get(k));
        System.out.printf(Locale.ROOT, "  modular multiplications (§6.2 model): %.4e%n", run.expected.modMuls());
        printTime(run.millis);
        System.out.println(
                run.countsMatch()
                        ? "  counts match the closed forms"
                        : "  COUNTS DIFFER FROM THE CLOSED FORMS (a bug)");
        if (run.precision.minBits() < LtRun.PRECISION_FLOOR_BITS) {
            System.out.printf(
                    Locale.ROOT,
                    "  PRECISION BELOW THE SANITY FLOOR (%.1f bits < %.0f): the result is noise; check the scale%n",
                    run.precision.minBits(),
                    LtRun.PRECISION_FLOOR_BITS);
        }
        if (run.allocatedWarm >= 0) {
            System.out.printf(
                    Locale.ROOT,
                    "  memory: %.1f MB allocated by the first evaluation, %.2f MB by the leanest of %d timed"
                            + " (until the JIT has compiled the kernels it allocates: raise --warmup); pool holds %.1f MB%n",
                    run.allocatedFirst / 1e6,
                    run.allocatedWarm / 1e6,
                    run.runs,
                    run.pooledBytes / 1e6);
        }
        printPhased(
                run.grouping,
                run.measuredTraffic,
                run.trafficMatches(),
                "",
                run.bitIdenticalToDirect,
                run.millis.evaluate,
                run.directMillis);
    }
}
