package io.hoist.cli.report;

import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.run.BlockRun;
import io.hoist.cli.run.LtRun;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.NttEngine;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Renders a {@link BlockRun}: one JSON object, or a short table. */
public final class BlockRender {
    private BlockRender() {}

    public static Json.Obj json(BlockRun run) {
        Map<String, Object> blocks = new LinkedHashMap<>();
        blocks.put("rows", run.matrix.blockRows());
        blocks.put("cols", run.matrix.blockCols());
        blocks.put("dimension", run.matrix.blockDimension());
        blocks.put("nonzero", run.nonzeroBlocks);
        blocks.put("inputCiphertexts", run.matrix.blockCols());
        blocks.put("outputCiphertexts", run.matrix.blockRows());
        Map<String, Object> precision = LtRun.precisionJson(run.precision);
        Map<String, Object> millis = run.millis.json();
        Map<String, Object> memory = new LinkedHashMap<>();
        memory.put("keys", run.keyBytes);
        memory.put("diagonals", run.diagonalBytes);
        // all threads, where lt's allocatedPerEvaluate counts the calling thread's
        memory.put("allocatedPerEvaluateAllThreads", run.allocatedWarm);
        memory.put("allocatedFirstEvaluateAllThreads", run.allocatedFirst);
        if (run.directMillisAll != null) {
            millis.put("directEvaluate", run.directMillis);
            millis.put("directEvaluateRuns", run.directMillisAll);
        }
        memory.put("peakWorkingSet", run.measuredTraffic == null ? null : run.measuredTraffic.peakResidentBytes());
        Json.Obj o = Json.obj()
                .put("algo", run.plan.algorithm().cliName())
                .put("preset", run.params.name())
                .put("logN", run.params.logN())
                .put("rows", run.matrix.rows())
                .put("cols", run.matrix.cols())
                .put("blocks", blocks)
                .put("split", run.plan.split())
                .put("storage", run.storage.name().toLowerCase(Locale.ROOT))
                .put("backend", run.backend)
                .put("kernels", run.kernels)
                .put("threads", run.threads)
                .put("secure", run.params.secure())
                .put("rotationKeys", run.rotationKeys)
                .put("keyBytes", run.keyBytes)
                .put("counts", counts(run))
                .put("expected", LtRun.expectedJson(run.expected))
                .put("countsMatch", run.countsMatch())
                .put("precision", precision)
                .put("millis", millis)
                .put("memoryBytes", memory)
                .put("schedule", run.schedule instanceof Schedule.Phased ? "phased" : "direct");
        LtReport.putPhased(
                o, run.schedule, run.grouping, run.measuredTraffic, run.expectedTraffic, run.bitIdenticalToDirect);
        return o;
    }

    private static Map<String, Object> counts(BlockRun run) {
        return LtRun.countsJson(run.counts);
    }

    public static void print(BlockRun run) {
        var m = run.matrix;
        System.out.println("lt: " + ParamsOptions.describe(run.params));
        System.out.printf(
                Locale.ROOT,
                "  %s on a %d×%d matrix: %d×%d blocks of %d (%d nonzero), %d input and %d output ciphertexts, %s diagonals, backend %s, %d thread(s)%n",
                run.plan.describe(),
                m.rows(),
                m.cols(),
                m.blockRows(),
                m.blockCols(),
                m.blockDimension(),
                run.nonzeroBlocks,
                m.blockCols(),
                m.blockRows(),
                run.storage.name().toLowerCase(Locale.ROOT),
                run.backend,
                run.threads);
        System.out.println("  kernels: " + NttEngine.summarize(run.kernels));
        LtReport.printPrecision(run.precision);
        System.out.printf(
                Locale.ROOT,
                "  rotation keys: %d, %.1f MB (one key set for every block)%n",
                run.rotationKeys,
                run.keyBytes / 1e6);
        System.out.printf(Locale.ROOT, "  diagonals in memory: %.1f MB%n", run.diagonalBytes / 1e6);
        if (run.allocatedWarm >= 0)
            System.out.printf(
                    Locale.ROOT,
                    "  memory: %.1f MB allocated by the first evaluation, %.1f MB by a warm one (all threads)%n",
                    run.allocatedFirst / 1e6,
                    run.allocatedWarm / 1e6);
        var e = LtRun.expectedJson(run.expected);
        System.out.println("  counts         measured   closed form");
        Map<String, Object> cm = counts(run);
        for (var k : cm.keySet())
            System.out.printf(Locale.ROOT, "    %-22s %8d   %8d%n", k, (Long) cm.get(k), (Long) e.get(k));
        LtReport.printTime(run.millis);
        System.out.println(
                run.countsMatch()
                        ? "  counts match the closed forms (Decompose once per input ciphertext, not per block)"
                        : "  COUNTS DIFFER FROM THE CLOSED FORMS (a bug)");
        LtReport.printPhased(
                run.grouping,
                run.measuredTraffic,
                run.trafficMatches(),
                " (one block's)",
                run.bitIdenticalToDirect,
                run.millis.evaluate,
                run.directMillis);
    }
}
