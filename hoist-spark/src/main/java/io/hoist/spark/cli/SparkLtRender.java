package io.hoist.spark.cli;

import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.report.Json;
import io.hoist.cli.run.LtRun;
import io.hoist.spark.SparkBlockProduct;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders a {@link SparkLtRun}: one JSON object, or a short table. */
final class SparkLtRender {
    private SparkLtRender() {}

    private static double localTotal(SparkLtRun r) {
        return r.localEncodeMillis + r.localEvaluateMillis;
    }

    static Json.Obj json(SparkLtRun r) {
        SparkBlockProduct.Stats s = r.spark.stats();
        var m = r.matrix();
        Map<String, Object> blocks = new LinkedHashMap<>();
        blocks.put("rows", m.blockRows());
        blocks.put("cols", m.blockCols());
        blocks.put("dimension", m.blockDimension());
        blocks.put("inputCiphertexts", m.blockCols());
        blocks.put("outputCiphertexts", m.blockRows());
        Map<String, Object> millis = new LinkedHashMap<>();
        millis.put("keygen", r.keygenMillis);
        millis.put("sparkStart", r.sparkStartMillis);
        millis.put("broadcast", s.broadcastMillis());
        millis.put("encode", s.encodeTaskMillis());
        millis.put("evaluate", s.evaluateTaskMillis());
        millis.put("finish", s.finishTaskMillis());
        millis.put("map", s.mapMillis());
        millis.put("reduce", s.reduceMillis());
        millis.put("total", s.totalMillis());
        if (!r.skipLocal)
            millis.put(
                    "local",
                    Map.of("encode", r.localEncodeMillis, "evaluate", r.localEvaluateMillis, "total", localTotal(r)));
        Map<String, Object> bytes = new LinkedHashMap<>();
        bytes.put("inputs", s.inputBytes());
        bytes.put("partials", s.partialBytes());
        bytes.put("outputs", s.outputBytes());
        bytes.put("keyStore", r.keyStoreBytes);
        Json.Obj o = Json.obj()
                .put("master", r.masterUsed)
                .put("sparkVersion", r.sparkVersion)
                .put("defaultParallelism", r.defaultParallelism)
                .put("java", Runtime.version().toString())
                .put("algo", r.plan.algorithm().cliName())
                .put("preset", r.params.name())
                .put("logN", r.params.logN())
                .put("rows", r.rows)
                .put("cols", r.cols)
                .put("blocks", blocks)
                .put("split", r.plan.split())
                .put("storage", "compact")
                .put("backend", r.backend)
                .put("threads", r.threads)
                .put("rowGroups", r.usedRowGroups)
                .put("mapTasks", s.mapTasks())
                .put("partials", s.partials())
                .put("secure", r.params.secure())
                .put("rotationKeys", r.rotationKeys)
                .put("keyBytes", r.keyBytes)
                .put(
                        "keyStore",
                        Json.obj()
                                .put("shipped", r.keysShipped)
                                .put("keysLoadedPerWorker", s.keysLoadedPerWorker())
                                .asMap())
                .put("counts", LtRun.countsJson(r.spark.counts()))
                .put("expected", r.expected == null ? null : LtRun.expectedJson(r.expected))
                .put("countsMatch", r.expected == null ? null : r.countsMatch())
                .put("precision", LtRun.precisionJson(r.precision))
                .put("millis", millis)
                .put("ratioToLocal", r.skipLocal ? null : s.totalMillis() / localTotal(r))
                .put(
                        "rounds",
                        Json.obj()
                                .put("order", r.skipLocal ? "spark" : r.localFirst ? "local, spark" : "spark, local")
                                .put("spark", r.sparkMillisPerRound)
                                .put("local", r.localMillisPerRound)
                                .asMap())
                .put("bytes", bytes)
                .put("bitIdenticalToLocal", r.bitIdenticalToLocal);
        return o;
    }

    static void print(SparkLtRun r) {
        SparkBlockProduct.Stats s = r.spark.stats();
        var m = r.matrix();
        System.out.println("spark-lt: " + ParamsOptions.describe(r.params));
        System.out.printf(
                Locale.ROOT,
                "  Spark %s on %s (parallelism %d), Java %s%n",
                r.sparkVersion,
                r.masterUsed,
                r.defaultParallelism,
                Runtime.version());
        System.out.printf(
                Locale.ROOT,
                "  %s on a %d×%d matrix: %d×%d blocks of %d; %d map tasks (%d row group(s) per block column), %d partials reduced into %d rows%n",
                r.plan.describe(),
                r.rows,
                r.cols,
                m.blockRows(),
                m.blockCols(),
                m.blockDimension(),
                s.mapTasks(),
                r.usedRowGroups,
                s.partials(),
                m.blockRows());
        System.out.printf(
                Locale.ROOT,
                "  precision: %.2f bits worst slot, %.2f bits average (L2 error against M·x)%n",
                r.precision.minBits(),
                r.precision.avgBits());
        System.out.printf(
                Locale.ROOT,
                "  rotation keys: %d, %.1f MB; key store %.1f MB %s; each worker loaded %d keys%n",
                r.rotationKeys,
                r.keyBytes / 1e6,
                r.keyStoreBytes / 1e6,
                r.keysShipped ? "shipped with the job" : "read from a shared path",
                s.keysLoadedPerWorker());
        System.out.printf(
                Locale.ROOT,
                "  time: keygen %.0f ms, Spark start %.0f ms; broadcast %.0f ms, map stage %.0f ms (tasks: encode %.0f ms, evaluate %.0f ms), reduce %.0f ms; total %.0f ms%n",
                r.keygenMillis,
                r.sparkStartMillis,
                s.broadcastMillis(),
                s.mapMillis(),
                s.encodeTaskMillis(),
                s.evaluateTaskMillis(),
                s.reduceMillis(),
                s.totalMillis());
        System.out.printf(
                Locale.ROOT,
                "  bytes: inputs %.1f MB, partials %.1f MB, outputs %.1f MB%n",
                s.inputBytes() / 1e6,
                s.partialBytes() / 1e6,
                s.outputBytes() / 1e6);
        if (!r.skipLocal) {
            System.out.printf(
                    Locale.ROOT,
                    "  one process, %d thread(s): encode %.0f ms, evaluate %.0f ms, total %.0f ms (Spark/local %.2f)%n",
                    r.threads,
                    r.localEncodeMillis,
                    r.localEvaluateMillis,
                    localTotal(r),
                    s.totalMillis() / localTotal(r));
            if (r.rounds > 1)
                System.out.printf(
                        Locale.ROOT,
                        "  totals per round (%s first), ms: Spark %s, one process %s%n",
                        r.localFirst ? "one process" : "Spark",
                        rounded(r.sparkMillisPerRound),
                        rounded(r.localMillisPerRound));
            System.out.println(
                    r.countsMatch()
                            ? "  counts summed over the tasks match the closed forms"
                            : "  COUNTS DIFFER FROM THE CLOSED FORMS (a bug)");
            System.out.println(
                    r.bitIdenticalToLocal
                            ? "  bit-identical to the one-process block evaluator"
                            : "  DIFFERS FROM THE ONE-PROCESS BLOCK EVALUATOR (a bug)");
        }
    }

    private static List<Long> rounded(List<Double> ms) {
        return ms.stream().map(Math::round).toList();
    }
}
