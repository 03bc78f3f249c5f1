package io.hoist.cli;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.bfv.BatchEncoder;
import io.hoist.bfv.BfvCiphertext;
import io.hoist.bfv.BfvContext;
import io.hoist.bfv.BfvEncryptor;
import io.hoist.bfv.BfvPlaintext;
import io.hoist.bfv.seal.SealFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hoist bfv encrypt}: batch-encodes integers and encrypts them into a SEAL ciphertext file. */
@Command(
        name = "encrypt",
        mixinStandardHelpOptions = true,
        description = "Encode integers into SEAL's slots and encrypt them into a SEAL Ciphertext file.")
public final class BfvEncryptCommand implements Callable<Integer> {
    @Option(names = "--params", required = true, description = "SEAL EncryptionParameters file")
    Path params;

    static final class Key {
        @Option(names = "--public-key", description = "SEAL PublicKey file")
        Path publicKey;

        @Option(names = "--secret-key", description = "SEAL SecretKey file (symmetric encryption)")
        Path secretKey;
    }

    @ArgGroup(multiplicity = "1")
    Key key;

    static final class Input {
        @Option(names = "--values", description = "decimal integers in [0, t), one per line (at most N)")
        Path values;

        @Option(names = "--random", description = "N random values in [0, t) from this seed")
        Long random;
    }

    @ArgGroup(multiplicity = "1")
    Input input;

    @Option(names = "--seeded", description = "save the seeded form (c0 and a SHAKE256 seed; secret key only)")
    boolean seeded;

    @Option(names = "--out", required = true, description = "the ciphertext file to write")
    Path out;

    static long[] values(Path file, int n, long t) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        List<String> vals =
                lines.stream().map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (vals.size() > n)
            throw new IllegalArgumentException(file + ": " + vals.size() + " values, at most N = " + n);
        long[] v = new long[vals.size()];
        for (int i = 0; i < v.length; i++) {
            try {
                v[i] = Long.parseLong(vals.get(i));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        file + ": value " + (i + 1) + " '" + vals.get(i) + "' is not an integer");
            }
            if (v[i] < 0 || v[i] >= t)
                throw new IllegalArgumentException(
                        file + ": value " + (i + 1) + " = " + v[i] + " is not in [0, " + t + ")");
        }
        return v;
    }

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        BfvCommand.refuseOwnOptionsBefore(spec);
        BfvContext ctx = BfvFiles.context(params);
        long t = ctx.params().t();
        long[] v = input.values != null
                ? values(input.values, ctx.n(), t)
                : new SplittableRandom(input.random).longs(ctx.n(), 0, t).toArray();
        BfvPlaintext m = new BatchEncoder(ctx).encode(v);
        BfvCiphertext ct;
        if (key.secretKey != null) {
            var access = InsecureSecretKeyAccess.get();
            var sk = BfvFiles.parse(
                    "--secret-key",
                    key.secretKey,
                    BfvFiles.maxKeyBytes(ctx),
                    b -> SealFormat.readSecretKey(ctx, b, access));
            BfvEncryptor e = BfvEncryptor.symmetric(ctx, sk, access);
            ct = seeded ? e.encryptSeeded(m) : e.encrypt(m);
        } else {
            if (seeded)
                throw new IllegalArgumentException(
                        "--seeded needs --secret-key (seeds come with symmetric encryption)");
            var pk = BfvFiles.parse(
                    "--public-key", key.publicKey, BfvFiles.maxKeyBytes(ctx), b -> SealFormat.readPublicKey(ctx, b));
            ct = BfvEncryptor.withPublicKey(ctx, pk).encrypt(m);
        }
        byte[] bytes = SealFormat.write(ct);
        BfvFiles.write(out, bytes);
        System.out.println("wrote " + out + ": " + bytes.length + " bytes, " + v.length + " values"
                + (seeded ? " (seeded, SHAKE256)" : ""));
        return 0;
    }
}
