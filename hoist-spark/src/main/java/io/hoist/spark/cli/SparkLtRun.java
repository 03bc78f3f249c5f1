package io.hoist.spark.cli;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.io.CiphertextSerialization;
import io.hoist.ckks.io.KeyStore;
import io.hoist.cli.run.Bars;
import io.hoist.cli.run.BlockRun;
import io.hoist.cli.run.LtRun;
import io.hoist.cli.run.MemoryCheck;
import io.hoist.lt.BlockEvaluation;
import io.hoist.lt.BlockLinearTransform;
import io.hoist.lt.EncodedBlockTransform;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.spark.BlockJob;
import io.hoist.spark.KeySource;
import io.hoist.spark.MatrixSource;
import io.hoist.spark.SparkBlockProduct;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * One {@code hoist spark-lt} run: keys made and the vector encrypted on the driver (the secret key
 * stays here), the product on Spark, the same product by the one-process block evaluator on the same
 * ciphertexts, and the decrypted result against M·x computed from the entries.
 */
final class SparkLtRun {
    final CkksParameters params;
    final Plan plan;
    final int rows, cols, blockDim;
    final long seed;
    final String master;
    Integer rowGroups;
    Path keyStore;
    boolean localFirst, skipLocal, quiet;
    int rounds = 1;
    String backendName;

    // results
    String backend, sparkVersion, masterUsed;
    int threads, defaultParallelism, rotationKeys, usedRowGroups;
    long keyBytes, keyStoreBytes;
    boolean keysShipped;
    double keygenMillis, sparkStartMillis, localEncodeMillis = Double.NaN, localEvaluateMillis = Double.NaN;
    SparkBlockProduct.Result spark;
    Cost expected;
    Boolean bitIdenticalToLocal;
    final List<Double> sparkMillisPerRound = new ArrayList<>(), localMillisPerRound = new ArrayList<>();
    PrecisionStats precision;

    SparkLtRun(CkksParameters params, Plan plan, int rows, int cols, int blockDim, long seed, String master) {
        this.params = params;
        this.plan = plan;
        this.rows = rows;
        this.cols = cols;
        this.blockDim = blockDim;
        this.seed = seed;
        this.master = master;
    }

    private static final Pattern MASTER = Pattern.compile(
            "local|local\\[(\\*|[1-9][0-9]{0,4})(\\s*,\\s*[1-9][0-9]{0,4})?]|local-cluster\\[\\s*[1-9][0-9]{0,4}\\s*,\\s*[1-9][0-9]{0,4}\\s*,\\s*[1-9][0-9]{0,7}\\s*]"
                    + "|spark://(?:\\[[0-9a-fA-F:.]+]|[^\\s/:,\\[\\]]+):[0-9]{1,5}(,(?:\\[[0-9a-fA-F:.]+]|[^\\s/:,\\[\\]]+):[0-9]{1,5})*|yarn|k8s://\\S+");

    /** Refuses a master URL Spark would reject, before Spark is started (its refusal comes as an ERROR line and a trace). */
    static void checkMaster(String master) {
        if (master != null && !MASTER.matcher(master).matches()) {
            throw new IllegalArgumentException(
                    "--master must be local, local[N], local[*], local[N,F] (N, F ≥ 1), spark://HOST:PORT, yarn or k8s://…, got '"
                            + master + "'");
        }
    }

    /** The Spark configuration of a run: spark-submit's settings, the given master, else local[*]. */
    SparkConf conf() {
        SparkConf conf = new SparkConf()
                .setIfMissing("spark.master", "local[*]")
                .setAppName("hoist spark-lt")
                .setIfMissing("spark.ui.enabled", "false")
                .set("spark.ui.showConsoleProgress", "false");
        if (master != null) conf.setMaster(master); // else spark-submit's --master (a system property) or local[*]
        return conf;
    }

    /** Heap Spark keeps for itself in every executor (its reserved memory). */
    static final long SPARK_RESERVED_BYTES = 300L << 20;

    /**
     * The up-front memory check, before keygen and before the job is submitted: per executor, the
     * keys once plus, for each task running at the same time, its blocks' compact diagonals and
     * the program's buffers for each block row it sends a partial of; in local mode the executor is
     * this JVM, which also holds the keys, the inputs and (unless --skip-local) the one-process
     * reference's diagonals.
     */
    void checkMemory(int threads) {
        SparkConf conf = conf();
        String m = conf.get("spark.master");
        int level = params.maxLevel();
        long keys = plan.cost(params, level, Storage.COMPACT).keyBytes();
        long blockRows = (rows - 1) / blockDim + 1, blockCols = (cols - 1) / blockDim + 1;
        int groups = rowGroups != null ? rowGroups : 1;
        long rowsPerTask = Math.ceilDiv(blockRows, groups);
        long perBlock = MemoryCheck.mul(plan.indices().size(), 8L, params.n()); // compact: one word per coefficient
        long buffers = LtRun.memoryEstimate(params, plan, Storage.COMPACT) - keys - perBlock;
        long perTask = MemoryCheck.add(
                MemoryCheck.mul(rowsPerTask, perBlock), MemoryCheck.mul(rowsPerTask, Math.max(0, buffers)));
        long tiles = MemoryCheck.mul(blockCols, groups);
        checkMaster(m); // spark-submit's master too: local[0] would size no task at all
        Matcher cluster = Pattern.compile("local-cluster\\[\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,\\s*(\\d+)\\s*]")
                .matcher(m);
        boolean local = !cluster.matches() && m.startsWith("local");
        int slots;
        long executorHeap;
        if (cluster.matches()) { // N executor JVMs of C cores and M MB each
            slots = Integer.parseInt(cluster.group(2));
            executorHeap = Long.parseLong(cluster.group(3)) << 20;
        } else if (local) {
            Matcher lm = Pattern.compile("local(?:\\[(\\*|\\d+)(?:\\s*,\\s*\\d+)?])?")
                    .matcher(m);
            slots = !lm.matches() || lm.group(1) == null
                    ? 1
                    : lm.group(1).equals("*")
                            ? Runtime.getRuntime().availableProcessors()
                            : Integer.parseInt(lm.group(1));
            executorHeap = MemoryCheck.heap();
        } else {
            int cores = conf.getInt("spark.executor.cores", 1), taskCpus = conf.getInt("spark.task.cpus", 1);
            slots = Math.max(1, cores / Math.max(1, taskCpus));
            executorHeap = conf.getSizeAsBytes("spark.executor.memory", "1g");
        }
        long concurrent = Math.min(slots, tiles);
        long executor = MemoryCheck.add(keys, MemoryCheck.mul(concurrent, perTask));
        long ciphertexts = MemoryCheck.mul(blockRows + blockCols, 2L * (level + 1), 8L, params.n());
        if (local) {
            long driver = MemoryCheck.add(
                    skipLocal ? 0 : keys,
                    keys /* the store is written from the driver's copy */,
                    ciphertexts,
                    skipLocal ? 0 : MemoryCheck.mul(blockRows, blockCols, perBlock));
            MemoryCheck.require(
                    String.format(
                            Locale.ROOT,
                            "spark-lt on %s (the driver and its in-process executor: keys, %d concurrent tasks of %d block rows each, the inputs%s)",
                            m,
                            concurrent,
                            rowsPerTask,
                            skipLocal ? "" : " and the one-process reference"),
                    MemoryCheck.add(executor, driver),
                    executorHeap,
                    skipLocal ? "use more --row-groups" : "use --skip-local or more --row-groups");
        } else {
            MemoryCheck.require(
                    String.format(
                            Locale.ROOT,
                            "each executor (keys and %d concurrent tasks of %d block rows each)",
                            concurrent,
                            rowsPerTask),
                    executor,
                    Math.max(0, executorHeap - SPARK_RESERVED_BYTES),
                    "raise spark.executor.memory or use more --row-groups");
        }
    }

    BlockLinearTransform matrix() {
        return BlockLinearTransform.random(rows, cols, blockDim, seed);
    }

    void run(int threads) throws Exception {
        CkksContext ctx = CkksContext.create(params, backendName, threads);
        ctx.startKernelWarmup();
        this.backend = ctx.engine().backend().name();
        this.threads = threads;
        int level = params.maxLevel();
        BlockLinearTransform matrix = matrix();

        BlockRun.Keys made = BlockRun.keygen(ctx, plan, level, quiet);
        SecretKey sk = made.secret(); // stays in this process: only the rotation keys go to the store
        RotationKeySet keys = made.rotations();
        keygenMillis = made.millis();
        made = null; // so that --skip-local can let the keys go
        rotationKeys = keys.size();
        keyBytes = keys.sizes().fullBytes();
        Path tmp = null;
        Path store = keyStore;
        if (store == null) {
            tmp = Files.createTempDirectory("hoist-spark-");
            store = tmp.resolve("rotation-keys.hks");
        }
        try {
            KeyStore.write(
                    store, keys,
                    false); // refused before keygen if it exists without --replace-key-store   // evaluation keys only:
            // the secret key never leaves this process
            keyStoreBytes = Files.size(store);
            if (skipLocal) keys = null; // only the reference needs them here; at N = 2^16 they are gigabytes

            Encoder encoder = new Encoder(ctx);
            Encryptor enc = Encryptor.withSecretKey(ctx, sk);
            ComplexVector x = ComplexVector.random(new SplittableRandom(seed + 1), cols);
            List<Ciphertext> in = BlockRun.encryptColumns(params, matrix, x, enc, encoder, level);

            EncodedBlockTransform[] ebt = new EncodedBlockTransform[1];
            long t0 = System.nanoTime();
            SparkConf conf = conf();
            try (JavaSparkContext sc = new JavaSparkContext(conf)) {
                sc.setLogLevel("WARN");
                sparkStartMillis = (System.nanoTime() - t0) / 1e6;
                sparkVersion = sc.version();
                masterUsed = sc.master();
                defaultParallelism = sc.defaultParallelism();
                KeySource ks = keyStore != null ? KeySource.shared(store) : KeySource.ship(sc, store);
                keysShipped = keyStore == null;
                int blockCols = matrix.blockCols();
                usedRowGroups = rowGroups != null
                        ? rowGroups
                        : blockCols >= defaultParallelism
                                ? 1
                                : Math.min(matrix.blockRows(), (defaultParallelism + blockCols - 1) / blockCols);
                // no round timed beside the kernel warm-up begun before keygen (its gates hand the scalar twins out)
                ctx.awaitKernelWarmup();
                for (int round = 0; round < rounds; round++) {
                    // alternating in one process: the one that runs first pays the heap's growth and the JIT
                    // (docs/distributed.md)
                    BlockEvaluation local = localFirst && !skipLocal ? runLocal(ctx, keys, matrix, in, ebt) : null;
                    BlockJob job = BlockJob.of(
                            params,
                            plan,
                            level,
                            MatrixSource.random(rows, cols, blockDim, seed),
                            ks,
                            usedRowGroups,
                            backendName);
                    spark = SparkBlockProduct.run(sc, ctx, job, in);
                    if (!localFirst && !skipLocal) local = runLocal(ctx, keys, matrix, in, ebt);
                    sparkMillisPerRound.add(spark.stats().totalMillis());
                    if (local != null) {
                        localMillisPerRound.add(localEncodeMillis + localEvaluateMillis);
                        expected = ebt[0].cost(job::rowGroupOf); // each row group rotates its columns again
                        boolean same = true;
                        for (int i = 0; i < local.outputs().size(); i++) {
                            same &= Arrays.equals(
                                    CiphertextSerialization.write(
                                            local.outputs().get(i)),
                                    CiphertextSerialization.write(
                                            spark.outputs().get(i)));
                        }
                        bitIdenticalToLocal = (bitIdenticalToLocal == null || bitIdenticalToLocal) && same;
                        ebt[0] = null;
                    }
                }
            }
            Decryptor dec = new Decryptor(ctx, sk);
            List<ComplexVector> parts = new ArrayList<>();
            for (Ciphertext c : spark.outputs()) parts.add(dec.decryptAndDecode(c, encoder));
            precision = PrecisionStats.of(
                    BlockRun.reference(BlockLinearTransform.randomEntries(seed, cols), rows, cols, x, threads),
                    matrix.joinOutput(parts));
        } finally {
            if (tmp != null)
                MoreFiles.deleteRecursively(
                        tmp, RecursiveDeleteOption.ALLOW_INSECURE); // the store and its shipped link
        }
    }

    /** The one-process block evaluator on the same ciphertexts (compact diagonals, like the tasks), timed. */
    private BlockEvaluation runLocal(
            CkksContext ctx,
            RotationKeySet keys,
            BlockLinearTransform matrix,
            List<Ciphertext> in,
            EncodedBlockTransform[] ebt) {
        LinearTransformEvaluator lte = new LinearTransformEvaluator(ctx, keys);
        long t0 = System.nanoTime();
        try (Bars bar = Bars.of("local: encode blocks", quiet)) {
            ebt[0] = lte.encode(matrix, plan, params.maxLevel(), Storage.COMPACT, bar);
        }
        localEncodeMillis = (System.nanoTime() - t0) / 1e6;
        t0 = System.nanoTime();
        BlockEvaluation ev = lte.evaluate(in, ebt[0]);
        localEvaluateMillis = (System.nanoTime() - t0) / 1e6;
        return ev;
    }

    boolean countsMatch() {
        return expected == null || LtRun.countsMatch(spark.counts(), expected);
    }

    int status() {
        if (bitIdenticalToLocal != null && !bitIdenticalToLocal) return 5;
        if (!countsMatch()) return 3;
        return precision.minBits() < LtRun.PRECISION_FLOOR_BITS ? 4 : 0;
    }

    /** An error for the one-line report: a failed Spark job names the task's exception (Hoist's typed errors included). */
    static String describe(Exception ex) {
        String msg = ex.getMessage() == null ? ex.toString() : ex.getMessage();
        if (ex instanceof SparkException) {
            int cut = msg.indexOf("\n");
            String first = cut < 0 ? msg : msg.substring(0, cut);
            return "the Spark job failed: " + first;
        }
        return msg;
    }
}
