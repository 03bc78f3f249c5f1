package io.hoist.cli;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.io.KeyFiles;
import io.hoist.ckks.io.KeyPairId;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.options.PlanOptions;
import io.hoist.cli.report.Json;
import io.hoist.cli.run.Bars;
import io.hoist.cli.run.LtSizes;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code hoist keygen}: a secret key and exactly the rotation keys a plan needs, written as a key
 * store (full or seeded) and a separate secret-key file.
 */
@Command(
        name = "keygen",
        mixinStandardHelpOptions = true,
        description =
                "Generate a secret key and exactly the rotation keys of a plan; write them as a key store (--out) and a secret-key file (--secret-out).")
public final class KeygenCommand implements Callable<Integer> {
    @Mixin
    ParamsOptions paramsOptions;

    @Mixin
    PlanOptions planOptions;

    @Option(
            names = "--extra-rotations",
            split = ",",
            description = "more rotation steps to include (a store shared by several plans)")
    int[] extraRotations;

    @Option(names = "--seeded", description = "store the keys' uniform parts as seeds (about half the bytes)")
    boolean seeded;

    @Option(names = "--out", required = true, description = "the key store to write")
    Path out;

    @Option(names = "--secret-out", required = true, description = "the secret-key file to write (keep it private)")
    Path secretOut;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    /** What the command produced. */
    record Report(
            String preset,
            int logN,
            int n,
            String algo,
            int[] split,
            int rotationKeys,
            boolean seeded,
            String keyStore,
            long keyStoreBytes,
            String secretKey,
            long secretKeyBytes,
            double keygenMillis,
            double writeMillis,
            String keyPairId,
            Integer paddedFrom) {}

    @Override
    public Integer call() {
        CkksParameters params = paramsOptions.build("n13");
        Algorithm a = Algorithm.parse(planOptions.algo);
        KeyFiles.checkPairTargets(
                out, secretOut); // before any key is made: nothing is written when a target is refused
        int dim = planOptions.n != null ? planOptions.n : params.slots();
        LtSizes.checkDimension(dim, params);
        int padded = LinearTransform.paddedDimension(dim);
        Plan plan = LtSizes.storePlan(params, dim, a, planOptions.split);
        CkksContext ctx = CkksContext.create(params);
        long t0 = System.nanoTime();
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        RotationKeySet keys;
        try (Bars bar = Bars.of("keygen", json)) {
            Set<Long> gs = new TreeSet<>(plan.rotationKeys(params));
            if (extraRotations != null)
                for (int k : extraRotations)
                    if (Math.floorMod(k, params.slots()) != 0) gs.add(params.galoisElementForRotation(k));
            keys = kg.genRotationKeys(sk, params.maxLevel(), gs, bar);
        }
        double keygen = (System.nanoTime() - t0) / 1e6;
        t0 = System.nanoTime();
        KeyPairId id = KeyFiles.writePair(out, secretOut, keys, sk, seeded, InsecureSecretKeyAccess.get());
        double write = (System.nanoTime() - t0) / 1e6;
        Report r;
        try {
            r = new Report(
                    params.name(),
                    params.logN(),
                    dim,
                    a.cliName(),
                    plan.split(),
                    keys.size(),
                    seeded,
                    out.toAbsolutePath().toString(),
                    Files.size(out),
                    secretOut.toAbsolutePath().toString(),
                    Files.size(secretOut),
                    keygen,
                    write,
                    id.toString(),
                    padded != dim ? dim : null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (json) {
            System.out.println(Json.write(r));
        } else {
            System.out.printf(
                    Locale.ROOT,
                    "keygen: %s %s, %d rotation keys (%s) in %.0f ms%n",
                    a.cliName(),
                    Arrays.toString(plan.split()),
                    keys.size(),
                    seeded ? "seeded" : "full",
                    keygen);
            System.out.printf(
                    Locale.ROOT,
                    "  key store %s: %.1f MB; secret key %s: %.1f MB (keep it private); written in %.0f ms as key pair %s%n",
                    r.keyStore(),
                    r.keyStoreBytes() / 1e6,
                    r.secretKey(),
                    r.secretKeyBytes() / 1e6,
                    write,
                    id);
            if (r.paddedFrom() != null)
                System.out.printf(Locale.ROOT, "  --n %d is padded to %d%n", r.paddedFrom(), padded);
        }
        return 0;
    }
}
