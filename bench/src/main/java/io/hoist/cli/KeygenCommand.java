package io.hoist.cli;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.io.KeySerialization;
import io.hoist.ckks.io.KeyStore;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.Algorithm;
import io.hoist.lt.Objective;
import io.hoist.lt.Plan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code hoist keygen}: a secret key and exactly the rotation keys a plan needs, written as a key
 * store (full or seeded) and a separate secret-key file.
 */
@Command(name = "keygen", mixinStandardHelpOptions = true,
        description = "Generate a secret key and exactly the rotation keys of a plan; write them as a key store (--out) and a secret-key file (--secret-out).")
public final class KeygenCommand implements Callable<Integer> {
    @Mixin
    ParamsOptions paramsOptions;

    @Option(names = "--algo", defaultValue = "th-bsgs", description = "diagonal, bsgs, dh-bsgs or th-bsgs (default ${DEFAULT-VALUE})")
    String algo;

    @Option(names = "--n", description = "matrix dimension (default: the slot count)")
    Integer n;

    @Option(names = "--split", split = ",", description = "split factors (default: the fewest-keys split)")
    int[] split;

    @Option(names = "--seeded", description = "store the keys' uniform parts as seeds (about half the bytes)")
    boolean seeded;

    @Option(names = "--out", required = true, description = "the key store to write")
    Path out;

    @Option(names = "--secret-out", required = true, description = "the secret-key file to write (keep it private)")
    Path secretOut;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    /** What the command produced. */
    record Report(String preset, int logN, int n, String algo, int[] split, int rotationKeys, boolean seeded, String keyStore, long keyStoreBytes,
                  String secretKey, long secretKeyBytes, double keygenMillis, double writeMillis) {}

    @Override
    public Integer call() {
        CkksParameters params = paramsOptions.build("n13");
        Algorithm a = Algorithm.parse(algo);
        int dim = n != null ? n : params.slots();
        LtCommand.checkDimension(dim, params);
        Plan plan = split != null ? Plan.dense(dim, a, split) : Plan.autoForIndices(dim, LtCommand.allIndices(dim), params, params.maxLevel(), a, Objective.FEWEST_KEYS, Integer.MAX_VALUE);
        CkksContext ctx = CkksContext.create(params);
        long t0 = System.nanoTime();
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        RotationKeySet keys;
        try (Bars bar = Bars.of("keygen", json)) {
            keys = kg.genRotationKeys(sk, params.maxLevel(), plan.rotationKeys(params), bar);
        }
        double keygen = (System.nanoTime() - t0) / 1e6;
        t0 = System.nanoTime();
        KeyStore.write(out, keys, seeded);
        writeAtomically(secretOut, KeySerialization.writeSecretKey(sk));
        double write = (System.nanoTime() - t0) / 1e6;
        Report r;
        try {
            r = new Report(params.name(), params.logN(), dim, a.cliName(), plan.split(), keys.size(), seeded, out.toAbsolutePath().toString(), Files.size(out),
                    secretOut.toAbsolutePath().toString(), Files.size(secretOut), keygen, write);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (json) {
            System.out.println(Json.write(r));
        } else {
            System.out.printf(Locale.ROOT, "keygen: %s %s, %d rotation keys (%s) in %.0f ms%n", a.cliName(), java.util.Arrays.toString(plan.split()),
                    keys.size(), seeded ? "seeded" : "full", keygen);
            System.out.printf(Locale.ROOT, "  key store %s: %.1f MB; secret key %s: %.1f MB (keep it private); written in %.0f ms%n",
                    r.keyStore(), r.keyStoreBytes() / 1e6, r.secretKey(), r.secretKeyBytes() / 1e6, write);
        }
        return 0;
    }

    /** Writes {@code data} to a temporary file next to {@code path}, then renames it into place. */
    static void writeAtomically(Path path, byte[] data) {
        Path tmp = null;
        try {
            tmp = Files.createTempFile(path.toAbsolutePath().getParent(), path.getFileName().toString(), ".tmp");
            Files.write(tmp, data);
            try {
                Files.move(tmp, path, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
    }
}
