package io.hoist.spark.cli;

import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.io.FileChecks;
import io.hoist.ckks.io.FileRefusedException;
import io.hoist.ckks.io.Formats;
import io.hoist.ckks.io.Header;
import io.hoist.ckks.io.ObjectKind;
import io.hoist.cli.options.BlockOptions;
import io.hoist.cli.options.EngineOptions;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.options.Parsers;
import io.hoist.cli.options.PlanOptions;
import io.hoist.cli.run.LtSizes;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code hoist spark-lt}: a block matrix–vector product on Apache Spark, checked bit for bit against the one-process evaluator. */
@Command(
        name = "spark-lt",
        mixinStandardHelpOptions = true,
        description =
                "Evaluate a random R×C block matrix on an encrypted vector on Apache Spark (one task per block column, partial sums reduced per block row); "
                        + "report precision, keys, counts, per-stage times and bitIdenticalToLocal against the one-process block evaluator.")
public final class SparkLtCommand implements Callable<Integer> {
    @Option(
            names = "--master",
            description =
                    "Spark master: local[N], local[N,maxFailures], spark://host:7077, yarn, k8s://… (default: spark-submit's --master, else local[*])")
    String master;

    @Mixin
    BlockOptions blockOptions;

    @Mixin
    ParamsOptions paramsOptions;

    @Mixin
    PlanOptions planOptions;

    @Option(
            names = "--objective",
            defaultValue = "fewest-keys",
            description = "split chosen automatically: fewest-keys or fewest-mults (default ${DEFAULT-VALUE})")
    String objective;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the random matrix and vector (test data only)")
    long seed;

    @Option(
            names = "--row-groups",
            description =
                    "map tasks per block column, each over a share of the block rows (default: 1, or enough to give every core a task when there are fewer block columns than cores)")
    Integer rowGroups;

    @Option(
            names = "--key-store",
            description =
                    "write the rotation keys here, a path every executor can read (default: a temporary file shipped with the job)")
    Path keyStore;

    @Option(
            names = "--replace-key-store",
            description =
                    "with --key-store: replace an existing store at that path (otherwise an existing file is refused)")
    boolean replaceKeyStore;

    @Option(
            names = "--local-first",
            description = "run the one-process reference before the Spark job (default: after)")
    boolean localFirst;

    @Option(
            names = "--rounds",
            defaultValue = "1",
            description =
                    "Spark job and reference this many times, alternating; the report gives the last round and every round's totals (default ${DEFAULT-VALUE})")
    int rounds;

    @Option(
            names = "--skip-local",
            description = "do not run the one-process reference (no bitIdenticalToLocal, no closed-form check)")
    boolean skipLocal;

    @Mixin
    EngineOptions engine;

    /** Whether {@code path} starts like a Hoist key store (so that --replace-key-store never replaces a secret key or a stranger's file). */
    private static boolean isKeyStore(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            byte[] head = in.readNBytes(Header.SIZE);
            return Formats.header(head).kind() == ObjectKind.KEY_STORE;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public Integer call() throws Exception {
        SparkLtRun.checkMaster(master);
        CkksParameters params = paramsOptions.build("n13");
        Algorithm a = Algorithm.parse(planOptions.algo());
        int m = blockOptions.rows(), n = blockOptions.cols();
        if (planOptions.n() != null)
            throw new IllegalArgumentException("spark-lt takes --rows/--cols (and --block), not --n");
        if (localFirst && skipLocal)
            throw new IllegalArgumentException("--local-first and --skip-local exclude each other");
        if (replaceKeyStore && keyStore == null)
            throw new IllegalArgumentException("--replace-key-store goes with --key-store");
        if (keyStore != null) {
            FileChecks.requireWritableTarget(keyStore, "the key store");
            if (Files.exists(keyStore) && !replaceKeyStore) {
                throw new FileRefusedException("--key-store " + keyStore
                        + " exists; pass --replace-key-store to replace it (make sure it is not a secret-key file)");
            }
            if (Files.exists(keyStore) && !isKeyStore(keyStore)) {
                throw new FileRefusedException(
                        "--key-store " + keyStore + " exists and is not a Hoist key store; it is not replaced");
            }
        }
        int b = blockOptions.blockDimension(params);
        blockOptions.blockCount(b);
        Plan plan = LtSizes.blockPlan(params, b, a, planOptions.split(), Parsers.objective(objective));
        int blockRows = blockOptions.blockRows(b);
        if (rowGroups != null && (rowGroups < 1 || rowGroups > blockRows))
            throw new IllegalArgumentException(
                    "--row-groups must be in [1, " + blockRows + "] (the block rows), got " + rowGroups);

        SparkLtRun run = new SparkLtRun(params, plan, m, n, b, seed, master);
        run.rowGroups = rowGroups;
        run.keyStore = keyStore;
        run.localFirst = localFirst;
        run.skipLocal = skipLocal;
        if (rounds < 1 || rounds > 10) throw new IllegalArgumentException("--rounds must be in [1, 10], got " + rounds);
        run.rounds = rounds;
        run.quiet = engine.json();
        run.backendName = engine.backend();
        run.checkMemory(engine.threads()); // before any key is made or job submitted
        run.run(engine.threads());
        if (engine.json()) System.out.println(SparkLtRender.json(run));
        else SparkLtRender.print(run);
        return run.status();
    }
}
