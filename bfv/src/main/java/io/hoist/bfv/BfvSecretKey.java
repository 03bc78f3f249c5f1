package io.hoist.bfv;

import io.hoist.SecretKeyAccess;
import java.util.Arrays;

/**
 * A BFV secret key: the ternary s in NTT form at the key level (special prime included), the layout
 * SEAL saves. Its residues are reached only with a {@link SecretKeyAccess} token; there is no
 * equals or hashCode over them and toString names none.
 */
public final class BfvSecretKey {
    private final BfvContext ctx;
    private final long[][] ntt;
    private volatile boolean destroyed;

    private BfvSecretKey(BfvContext ctx, long[][] ntt) {
        this.ctx = ctx;
        this.ntt = ntt;
    }

    static BfvSecretKey wrap(BfvContext ctx, long[][] ntt) {
        return new BfvSecretKey(ctx, ntt);
    }

    /** From k limbs of N NTT-form residues (copied, checked). */
    public static BfvSecretKey fromNtt(BfvContext ctx, long[][] limbs, SecretKeyAccess access) {
        if (access == null) throw new BfvOperandException("a SecretKeyAccess token is required");
        int k = ctx.keyLevelSize(), n = ctx.n();
        if (limbs.length != k)
            throw new BfvOperandException("a secret key has " + k + " limbs (the key level), got " + limbs.length);
        long[][] c = new long[k][];
        for (int j = 0; j < k; j++) {
            if (limbs[j].length != n)
                throw new BfvOperandException(
                        "secret-key limb " + j + " has " + limbs[j].length + " residues, N = " + n);
            long q = ctx.prime(j);
            long bad = 0;
            for (long x : limbs[j]) bad |= (x >> 63) | ~((x - q) >> 63); // x < 0 or x ≥ q, without a branch per value
            if (bad != 0)
                throw new BfvOperandException("secret-key limb " + j + " has a residue outside [0, q_" + j + ")");
            c[j] = limbs[j].clone();
        }
        return new BfvSecretKey(ctx, c);
    }

    /** A copy of limb j (NTT form). */
    public long[] nttLimb(int j, SecretKeyAccess access) {
        if (access == null) throw new BfvOperandException("a SecretKeyAccess token is required");
        if (j < 0 || j >= ntt.length)
            throw new BfvOperandException("limb " + j + " does not exist: the key level has " + ntt.length + " primes");
        return ntt(j).clone();
    }

    public BfvContext context() {
        return ctx;
    }

    long[] ntt(int j) {
        if (destroyed) throw new BfvOperandException("the secret key was destroyed");
        return ntt[j];
    }

    /**
     * Overwrites the residues with zeros; every later use, by any encryptor or decryptor made from
     * this key, throws (a zero key would otherwise encrypt in the clear).
     */
    public void destroy() {
        destroyed = true;
        for (long[] l : ntt) Arrays.fill(l, 0);
    }

    public boolean isDestroyed() {
        return destroyed;
    }

    @Override
    public String toString() {
        return "BfvSecretKey(N=" + ctx.n() + ", primes=" + ntt.length + ")";
    }
}
