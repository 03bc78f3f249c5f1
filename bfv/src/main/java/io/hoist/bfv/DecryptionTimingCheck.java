package io.hoist.bfv;

import io.hoist.SecretKeyAccess;
import io.hoist.random.Prng;
import java.util.function.Function;

/**
 * The timing test of the decryption path (decrypt, then decode): class 0 decrypts with secret keys
 * whose coefficients are all zero, class 1 with random ternary keys (16 of each), on the same
 * random public ciphertexts. A decryption whose work or memory access depends on the key (a skipped
 * product, an early exit, a secret-indexed load) separates the classes.
 */
public final class DecryptionTimingCheck {
    private DecryptionTimingCheck() {}

    static volatile long blackhole;

    /** A decryptor under test: built from a key, then called on ciphertexts. */
    public interface Decrypt {
        long[] apply(BfvCiphertext ct);
    }

    /** The check on our own {@link BfvDecryptor} and {@link BatchEncoder}. */
    public static TimingLeakCheck.Result run(
            BfvContext ctx,
            long samplesPerClass,
            long seed,
            SecretKeyAccess access,
            TimingLeakCheck.Progress progress) {
        BatchEncoder enc = new BatchEncoder(ctx);
        return run(
                ctx,
                samplesPerClass,
                seed,
                sk -> {
                    BfvDecryptor d = new BfvDecryptor(ctx, sk, access);
                    return ct -> enc.decode(d.decrypt(ct));
                },
                progress);
    }

    /** The check on any decryption built from a key by {@code make}. */
    public static TimingLeakCheck.Result run(
            BfvContext ctx,
            long samplesPerClass,
            long seed,
            Function<BfvSecretKey, Decrypt> make,
            TimingLeakCheck.Progress progress) {
        int n = ctx.n(), k = ctx.dataLevelSize();
        int pool = 16;
        // as many objects in each class, so both touch the same amount of memory
        Decrypt[] random = new Decrypt[pool], zero = new Decrypt[pool];
        BfvKeyGenerator kg = new BfvKeyGenerator(ctx);
        for (int i = 0; i < pool; i++) {
            random[i] = make.apply(kg.secretKey());
            zero[i] = make.apply(BfvSecretKey.wrap(ctx, new long[ctx.keyLevelSize()][n]));
        }
        BfvCiphertext[] cts = new BfvCiphertext[pool];
        Prng prng = Prng.fresh();
        for (int i = 0; i < pool; i++) {
            long[][] c0 = new long[k][n], c1 = new long[k][n];
            for (int j = 0; j < k; j++)
                for (int x = 0; x < n; x++) {
                    c0[j][x] = prng.uniform(ctx.prime(j));
                    c1[j][x] = prng.uniform(ctx.prime(j));
                }
            cts[i] = BfvCiphertext.wrap(ctx, c0, c1);
        }
        long[] sink = {0};
        TimingLeakCheck.Operation op = (cls, idx) -> {
            long[] out = (cls == 0 ? zero : random)[idx % pool].apply(cts[(idx >>> 4) % pool]);
            sink[0] += out.length == 0 ? 0 : out[idx % out.length];
        };
        TimingLeakCheck.Result r =
                TimingLeakCheck.run(op, samplesPerClass, (int) Math.min(20_000, samplesPerClass), seed, progress);
        blackhole = sink[0]; // keeps the results live
        return r;
    }
}
