package io.hoist.bfv;

import io.hoist.SecretKeyAccess;
import io.hoist.random.Prng;
import java.util.function.Function;

/**
 * The timing test of the decryption path (decrypt, then decode): class 0 decrypts with a secret key
 * whose coefficients are all zero, class 1 with one of 16 random ternary keys, on the same random
 * public ciphertexts; both classes use one key object and one decryptor, the key's values copied in
 * before each timed call. A decryption whose work or memory access depends on the key (a skipped
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
        int n = ctx.n(), k = ctx.dataLevelSize(), kk = ctx.keyLevelSize();
        int pool = 16;
        // one key, one decryptor, the same memory for both classes: only the key's values change, copied in
        // before each timed call (dudect's way), so no cache or page effect can follow the class
        long[][][] keys = new long[pool + 1][][];
        BfvKeyGenerator kg = new BfvKeyGenerator(ctx);
        for (int i = 0; i < pool; i++) {
            BfvSecretKey r = kg.secretKey();
            keys[i] = new long[kk][];
            for (int j = 0; j < kk; j++) keys[i][j] = r.ntt(j).clone();
        }
        keys[pool] = new long[kk][n]; // class 0: all coefficients zero
        BfvSecretKey sk = BfvSecretKey.wrap(ctx, new long[kk][n]);
        Decrypt d = make.apply(sk);
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
        TimingLeakCheck.Operation op = new TimingLeakCheck.Operation() {
            @Override
            public void prepare(int cls, int idx) {
                long[][] src = keys[cls == 0 ? pool : idx % pool];
                for (int j = 0; j < kk; j++) System.arraycopy(src[j], 0, sk.ntt(j), 0, n);
            }

            @Override
            public void run(int cls, int idx) {
                long[] out = d.apply(cts[(idx >>> 4) % pool]);
                sink[0] += out.length == 0 ? 0 : out[idx % out.length];
            }
        };
        TimingLeakCheck.Result r =
                TimingLeakCheck.run(op, samplesPerClass, (int) Math.min(20_000, samplesPerClass), seed, progress);
        blackhole = sink[0]; // keeps the results live
        return r;
    }
}
