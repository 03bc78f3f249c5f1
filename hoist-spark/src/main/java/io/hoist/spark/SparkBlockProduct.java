package io.hoist.spark;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.Iterators;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.ScaleMismatchException;
import io.hoist.ckks.WrongOperandException;
import io.hoist.ckks.io.CiphertextSerialization;
import io.hoist.lt.BlockLinearTransform;
import io.hoist.lt.BlockPartialEvaluation;
import io.hoist.lt.BlockRowPartial;
import io.hoist.lt.EncodedBlockTransform;
import io.hoist.lt.Evaluation;
import io.hoist.lt.io.TransformSerialization;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.Domain;
import io.hoist.ring.Op;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * A block matrix–vector product on Spark, bit-identical to
 * {@link io.hoist.lt.LinearTransformEvaluator#evaluate(List, EncodedBlockTransform)} on one machine.
 *
 * <p>Map stage, one task per block column and row group: the task encodes its blocks' diagonals
 * where it runs (compact storage), decomposes and rotates its input ciphertext once, and sends one
 * {@link BlockRowPartial} per block row (the diagonal sums before the outer layer and ModDown).
 * Reduce stage, one group per block row: the partials are summed (exact, so their order does not
 * matter) and the row is finished (outer layer, one ModDown with rescale). Inputs go out in a
 * broadcast, keys through a {@link KeySource}; everything that travels is in the Hoist binary
 * format, and no secret key is involved anywhere: this class never sees one.
 */
public final class SparkBlockProduct {
    private SparkBlockProduct() {}

    /** The output ciphertexts (one per block row), the counts of every task summed, and where the time and bytes went. */
    public record Result(List<Ciphertext> outputs, Map<Op, Long> counts, Stats stats) {
        public Result {
            outputs = ImmutableList.copyOf(outputs);
            counts = ImmutableMap.copyOf(counts);
        }
    }

    /**
     * Wall times of the stages on the driver (broadcast: serializing and broadcasting the inputs;
     * map: encoding and evaluating every block; reduce: shuffle, sums and finishing; total), task
     * times summed over tasks (encode, evaluate, finish), and bytes: inputs broadcast, partials
     * shuffled, outputs collected.
     */
    public record Stats(
            int mapTasks,
            int partials,
            int keysLoadedPerWorker,
            long inputBytes,
            long partialBytes,
            long outputBytes,
            double broadcastMillis,
            double mapMillis,
            double reduceMillis,
            double totalMillis,
            double encodeTaskMillis,
            double evaluateTaskMillis,
            double finishTaskMillis) {}

    /** Runs {@code job} on {@code inputs} (one ciphertext per block column, at the job's level, one scale). */
    public static Result run(JavaSparkContext sc, CkksContext ctx, BlockJob job, List<Ciphertext> inputs) {
        CkksParameters params = ctx.params();
        // refused here, as the local evaluator refuses them, not after a job's worth of tasks
        if (!params.equals(job.params()))
            throw new ParameterMismatchException("the context's parameters are not the job's");
        if (inputs.size() != job.blockCols())
            throw new IllegalArgumentException(
                    inputs.size() + " input ciphertexts for " + job.blockCols() + " block columns");
        for (int i = 0; i < inputs.size(); i++) {
            if (!inputs.get(i).params().equals(params))
                throw new ParameterMismatchException("input " + i + " was made under other parameters than the job's");
            if (inputs.get(i).degree() != 1)
                throw new WrongOperandException(
                        "input " + i + " has degree " + inputs.get(i).degree() + "; relinearize it");
            if (inputs.get(i).level() != job.level())
                throw new LevelMismatchException("job at level " + job.level() + ", input " + i + " at level "
                        + inputs.get(i).level());
            if (inputs.get(i).scale() != inputs.get(0).scale())
                throw new ScaleMismatchException("input " + i + " has scale "
                        + inputs.get(i).scale() + ", input 0 " + inputs.get(0).scale());
        }
        long start = System.nanoTime();
        List<byte[]> wire = new ArrayList<>();
        long inputBytes = 0;
        for (Ciphertext c : inputs) {
            byte[] b = CiphertextSerialization.write(c);
            inputBytes += b.length;
            wire.add(b);
        }
        Broadcast<List<byte[]>> in = sc.broadcast(wire);
        long broadcastEnd = System.nanoTime();

        int tiles = job.blockCols() * job.rowGroups();
        JavaPairRDD<Integer, Messages.Partial> mapped = sc.parallelize(
                        IntStream.range(0, tiles).boxed().toList(), tiles)
                .flatMapToPair(t -> mapTile(job, in, t))
                .persist(StorageLevel.MEMORY_AND_DISK());
        try {
            List<Messages.Partial> taskStats =
                    mapped.filter(p -> p._1() < 0).values().collect();
            long mapEnd = System.nanoTime();
            // what the map stage produced, per block row: each reduce task checks that its sum covers exactly these
            // columns
            Map<Integer, TreeSet<Integer>> expected = new TreeMap<>();
            for (Messages.Partial s : taskStats) {
                s.columnsByRow().forEach((row, cols) -> {
                    for (int c : cols) {
                        if (!expected.computeIfAbsent(row, r -> new TreeSet<>()).add(c)) {
                            throw new IllegalStateException(
                                    "block (" + row + ", " + c + ") was evaluated by two map tasks");
                        }
                    }
                });
            }
            int groups = Math.max(1, Math.min(job.blockRows(), sc.defaultParallelism()));
            List<Messages.Row> rows = mapped.filter(p -> p._1() >= 0)
                    .groupByKey(groups)
                    .map(g -> finishRow(job, g._1(), g._2(), expected.get(g._1())))
                    .collect();
            long end = System.nanoTime();

            Map<Op, Long> counts = new EnumMap<>(Op.class);
            double encode = 0, evaluate = 0, finish = 0;
            int keysLoaded = 0;
            for (Messages.Partial s : taskStats) {
                s.counts().forEach((op, v) -> counts.merge(op, v, Long::sum));
                encode += s.encodeNanos() / 1e6;
                evaluate += s.evaluateNanos() / 1e6;
                keysLoaded = Math.max(keysLoaded, s.keysLoaded());
            }
            Ciphertext[] out = new Ciphertext[job.blockRows()];
            long partialBytes = 0, outputBytes = 0;
            int partials = 0;
            for (Messages.Row r : rows) {
                r.counts().forEach((op, v) -> counts.merge(op, v, Long::sum));
                finish += (r.sumNanos() + r.finishNanos()) / 1e6;
                partialBytes += r.partialBytes();
                partials += r.partials();
                outputBytes += r.ciphertext().length;
                if (out[r.blockRow()] != null)
                    throw new IllegalStateException("block row " + r.blockRow() + " finished twice");
                expected.remove(r.blockRow());
                out[r.blockRow()] = CiphertextSerialization.readCiphertext(r.ciphertext(), ctx);
            }
            if (!expected.isEmpty())
                throw new IllegalStateException("block rows " + expected.keySet() + " had partials but no output");
            double scale = inputs.get(0).scale()
                    * params.q(job.level())
                    / params.q(job.level()); // Δ_pt = q_ℓ, as the local product
            for (int br = 0; br < out.length; br++) {
                if (out[br] == null) { // no block in this row: M·x is exactly 0 there
                    out[br] = Ciphertext.wrap(
                            RawAccess.get(),
                            params,
                            scale,
                            ctx.ringQ().newPoly(job.level() - 1, Domain.NTT),
                            ctx.ringQ().newPoly(job.level() - 1, Domain.NTT));
                }
            }
            Stats stats = new Stats(
                    tiles,
                    partials,
                    keysLoaded,
                    inputBytes,
                    partialBytes,
                    outputBytes,
                    (broadcastEnd - start) / 1e6,
                    (mapEnd - broadcastEnd) / 1e6,
                    (end - mapEnd) / 1e6,
                    (end - start) / 1e6,
                    encode,
                    evaluate,
                    finish);
            return new Result(ImmutableList.copyOf(out), ImmutableMap.copyOf(counts), stats);
        } finally {
            mapped.unpersist(false);
            in.destroy();
            Worker.forget(job.id()); // this JVM's keys (all of them in local mode); an executor's go with its next job
        }
    }

    /** Map task {@code tile}: the blocks of one block column in one row group, as partials per block row, then one statistics record. */
    private static Iterator<Tuple2<Integer, Messages.Partial>> mapTile(
            BlockJob job, Broadcast<List<byte[]>> inputs, int tile) {
        Worker w = Worker.of(job, taskThreads());
        int col = tile / job.rowGroups(), group = tile % job.rowGroups();
        BlockLinearTransform mine = w.matrix.restrictedTo(br -> job.rowGroupOf(br) == group, bc -> bc == col);
        long t0 = System.nanoTime();
        EncodedBlockTransform ebt = w.evaluator.encode(mine, w.plan, job.level(), Storage.COMPACT, Progress.NONE);
        long t1 = System.nanoTime();
        Ciphertext ct = CiphertextSerialization.readCiphertext(inputs.value().get(col), w.ctx);
        BlockPartialEvaluation pe = w.evaluator.evaluatePartial(new TreeMap<>(Map.of(col, ct)), ebt);
        long t2 = System.nanoTime();
        List<Tuple2<Integer, Messages.Partial>> out = new ArrayList<>();
        HashMap<Integer, int[]> columns = new HashMap<>();
        for (BlockRowPartial p : pe.partials()) {
            out.add(new Tuple2<>(
                    p.blockRow(), new Messages.Partial(TransformSerialization.write(p), null, 0, 0, 0, null)));
            columns.put(
                    p.blockRow(),
                    p.columns().stream().mapToInt(Integer::intValue).toArray());
        }
        out.add(new Tuple2<>(
                -1,
                new Messages.Partial(null, Messages.enumMap(pe.counts()), t1 - t0, t2 - t1, w.keys.size(), columns)));
        return out.iterator();
    }

    /**
     * Reduce task: block row {@code row}'s partials, parsed one at a time into one accumulator,
     * checked to cover exactly the columns the map stage reported, and finished.
     */
    private static Messages.Row finishRow(
            BlockJob job, int row, Iterable<Messages.Partial> parts, Set<Integer> columns) {
        Worker w = Worker.of(job, taskThreads());
        long[] bytes = new long[1];
        int[] count = new int[1];
        Iterable<BlockRowPartial> parsed = () -> Iterators.transform(parts.iterator(), p -> {
            bytes[0] += p.bytes().length;
            count[0]++;
            return TransformSerialization.readBlockRowPartial(p.bytes(), w.ctx);
        });
        long t0 = System.nanoTime();
        BlockRowPartial sum = BlockRowPartial.sum(parsed, w.ctx);
        if (!sum.columns().equals(columns)) {
            throw new IllegalStateException(
                    "block row " + row + " summed columns " + sum.columns() + ", the map stage produced " + columns);
        }
        long t1 = System.nanoTime();
        Evaluation e = w.evaluator.finishBlockRow(sum);
        long t2 = System.nanoTime();
        return new Messages.Row(
                row,
                CiphertextSerialization.write(e.result()),
                Messages.enumMap(e.counts()),
                t1 - t0,
                t2 - t1,
                bytes[0],
                count[0]);
    }

    /** The cores Spark gave this task ({@code spark.task.cpus}): the engine's threads. */
    private static int taskThreads() {
        TaskContext tc = TaskContext.get();
        return tc == null ? 1 : Math.max(1, tc.cpus());
    }
}
