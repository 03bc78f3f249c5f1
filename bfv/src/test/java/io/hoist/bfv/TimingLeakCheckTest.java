package io.hoist.bfv;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ring.ConstantTimeNtt;
import org.junit.jupiter.api.Test;

/**
 * The timing check is shown to work: a decryption with a secret-dependent branch (it skips the
 * products where the key's NTT residue is zero, the kind of shortcut a fast path adds) is found
 * leaking; the real decryption's figure is only reported here (the verdict on 10^6 samples per class
 * lives in the benchmark and the closing note, not in a timed unit test).
 */
class TimingLeakCheckTest {
    /** The leaky twin, test sources only. */
    static final class LeakyDecryptor {
        private final BfvContext ctx;
        private final BfvSecretKey sk;
        private final long[][] x;

        LeakyDecryptor(BfvContext ctx, BfvSecretKey sk) {
            this.ctx = ctx;
            this.sk = sk;
            this.x = new long[ctx.dataLevelSize()][ctx.n()];
        }

        BfvPlaintext decrypt(BfvCiphertext ct) {
            int n = ctx.n();
            for (int j = 0; j < ctx.dataLevelSize(); j++) {
                ConstantTimeNtt ntt = ctx.ntt(j);
                long[] a = x[j], s = sk.ntt(j), c0 = ct.c0(j);
                System.arraycopy(ct.c1(j), 0, a, 0, n);
                ntt.forward(a);
                for (int i = 0; i < n; i++) {
                    if (s[i] == 0) a[i] = 0; // the leak: work skipped on a secret value
                    else a[i] = ctx.mul(j, a[i], s[i]);
                }
                ntt.inverse(a);
                for (int i = 0; i < n; i++) a[i] = Ct.add(a[i], c0[i], ctx.prime(j));
            }
            return BfvDecryptor.scaleAndRound(ctx, x);
        }
    }

    /** Samples per class: {@code -Dhoist.ct.samples} (10^4 in CI), and the set: {@code -Dhoist.ct.preset} (a toy N = 1024 set in CI). */
    private static final long SAMPLES = Long.getLong("hoist.ct.samples", 10_000);

    @Test
    void aSecretDependentBranchIsDetected() {
        String preset = System.getProperty("hoist.ct.preset");
        BfvContext ctx = BfvContext.of(
                preset != null
                        ? BfvParameters.preset(preset)
                        : BfvParameters.insecure(1024, 40961, 1099510054913L, 1099507695617L));
        BatchEncoder enc = new BatchEncoder(ctx);
        TimingLeakCheck.Result leaky = DecryptionTimingCheck.run(
                ctx,
                SAMPLES,
                1,
                sk -> {
                    LeakyDecryptor d = new LeakyDecryptor(ctx, sk);
                    return ct -> enc.decode(d.decrypt(ct));
                },
                null);
        assertTrue(leaky.leak(), "the leaky decryption: " + leaky);
        TimingLeakCheck.Result real = DecryptionTimingCheck.run(ctx, SAMPLES, 1, InsecureSecretKeyAccess.get(), null);
        System.out.println("timing check on N = " + ctx.n() + ", " + SAMPLES + " samples per class: leaky " + leaky
                + "; real " + real);
        assertTrue(real.samplesPerClass() == SAMPLES && real.crops() > 1);
    }
}
