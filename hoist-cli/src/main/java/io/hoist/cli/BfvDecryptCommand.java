package io.hoist.cli;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.bfv.BatchEncoder;
import io.hoist.bfv.BfvCiphertext;
import io.hoist.bfv.BfvContext;
import io.hoist.bfv.BfvDecryptor;
import io.hoist.bfv.seal.SealFormat;
import io.hoist.cli.report.Json;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hoist bfv decrypt}: decrypts a SEAL ciphertext file (full or seeded) and prints its slots. */
@Command(
        name = "decrypt",
        mixinStandardHelpOptions = true,
        description = "Decrypt a SEAL Ciphertext file and print its slot values, one per line.")
public final class BfvDecryptCommand implements Callable<Integer> {
    @Option(names = "--params", required = true, description = "SEAL EncryptionParameters file")
    Path params;

    @Option(names = "--secret-key", required = true, description = "SEAL SecretKey file")
    Path secretKey;

    @Option(names = "--in", required = true, description = "SEAL Ciphertext file")
    Path in;

    @Option(names = "--count", description = "print the first K values (default: all N)")
    Integer count;

    @Option(names = "--json", description = "one JSON object: the first K values and the noise budget left")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        BfvCommand.refuseOwnOptionsBefore(spec);
        BfvContext ctx = BfvFiles.context(params);
        var access = InsecureSecretKeyAccess.get();
        var sk = BfvFiles.parse(
                "--secret-key", secretKey, BfvFiles.maxKeyBytes(ctx), b -> SealFormat.readSecretKey(ctx, b, access));
        BfvCiphertext ct =
                BfvFiles.parse("--in", in, BfvFiles.maxCiphertextBytes(ctx), b -> SealFormat.readCiphertext(ctx, b));
        BfvDecryptor dec = new BfvDecryptor(ctx, sk, access);
        long[] v = new BatchEncoder(ctx).decode(dec.decrypt(ct));
        int k = count == null ? v.length : count;
        if (k < 0 || k > v.length)
            throw new IllegalArgumentException("--count must be in [0, " + v.length + "], got " + k);
        long[] first = Arrays.copyOf(v, k);
        if (json) {
            System.out.println(Json.obj()
                    .put("values", first)
                    .put("count", k)
                    .put("slots", v.length)
                    .put("noiseBudget", dec.invariantNoiseBudget(ct))
                    .put("seeded", ct.isSeeded()));
        } else {
            StringBuilder sb = new StringBuilder();
            for (long x : first) sb.append(x).append('\n');
            System.out.print(sb);
        }
        return 0;
    }
}
