package io.hoist.bfv;

import io.hoist.SecretKeyAccess;
import io.hoist.random.Prng;
import io.hoist.ring.ConstantTimeNtt;
import java.util.Arrays;

/** Makes BFV keys as SEAL does: a uniform ternary secret, and a public key (−(a·s + e), a) in NTT form at the key level. */
public final class BfvKeyGenerator {
    private final BfvContext ctx;

    public BfvKeyGenerator(BfvContext ctx) {
        this.ctx = ctx;
    }

    public BfvSecretKey secretKey() {
        int n = ctx.n(), k = ctx.keyLevelSize();
        byte[] s = Sampling.ternary(Prng.fresh(), n);
        long[][] limbs = new long[k][n];
        for (int j = 0; j < k; j++) {
            Sampling.lift(s, ctx.prime(j), limbs[j]);
            ctx.ntt(j).forward(limbs[j]);
        }
        Arrays.fill(s, (byte) 0);
        return BfvSecretKey.wrap(ctx, limbs);
    }

    public BfvPublicKey publicKey(BfvSecretKey sk, SecretKeyAccess access) {
        if (access == null) throw new BfvOperandException("a SecretKeyAccess token is required");
        ctx.checkSame(sk.context(), "the secret key");
        int n = ctx.n(), k = ctx.keyLevelSize();
        Prng uniform = Prng.fresh(), noise = Prng.fresh();
        byte[] e = Sampling.cbd(noise, n);
        long[][] p0 = new long[k][n], p1 = new long[k][n];
        for (int j = 0; j < k; j++) {
            long q = ctx.prime(j);
            ConstantTimeNtt ntt = ctx.ntt(j);
            long[] a = p1[j], out = p0[j], s = sk.ntt(j);
            for (int i = 0; i < n; i++) a[i] = uniform.uniform(q); // uniform in either domain
            Sampling.lift(e, q, out);
            ntt.forward(out);
            for (int i = 0; i < n; i++) {
                long as = ctx.mul(j, a[i], s[i]);
                out[i] = Ct.sub(0, Ct.add(as, out[i], q), q);
            }
        }
        Arrays.fill(e, (byte) 0);
        return BfvPublicKey.wrap(ctx, p0, p1);
    }
}
