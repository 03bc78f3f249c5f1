package io.hoist.bfv;

/** A BFV public key (p0, p1) = (−(a·s + e), a), NTT form at the key level, as SEAL saves it. Immutable. */
public final class BfvPublicKey {
    private final BfvContext ctx;
    private final long[][] p0, p1;

    private BfvPublicKey(BfvContext ctx, long[][] p0, long[][] p1) {
        this.ctx = ctx;
        this.p0 = p0;
        this.p1 = p1;
    }

    static BfvPublicKey wrap(BfvContext ctx, long[][] p0, long[][] p1) {
        return new BfvPublicKey(ctx, p0, p1);
    }

    /** From two polynomials of k limbs in NTT form (copied, checked). */
    public static BfvPublicKey fromNtt(BfvContext ctx, long[][] p0, long[][] p1) {
        return new BfvPublicKey(ctx, checked(ctx, p0, "p0"), checked(ctx, p1, "p1"));
    }

    private static long[][] checked(BfvContext ctx, long[][] l, String what) {
        int k = ctx.keyLevelSize(), n = ctx.n();
        if (l.length != k) throw new BfvOperandException(what + " has " + l.length + " limbs; the key level has " + k);
        long[][] c = new long[k][];
        for (int j = 0; j < k; j++) {
            if (l[j].length != n)
                throw new BfvOperandException(what + " limb " + j + " has " + l[j].length + " residues, N = " + n);
            for (long x : l[j])
                if (x < 0 || x >= ctx.prime(j))
                    throw new BfvOperandException(
                            what + " limb " + j + " has the residue " + x + " outside [0, q_" + j + ")");
            c[j] = l[j].clone();
        }
        return c;
    }

    public BfvContext context() {
        return ctx;
    }

    /** A copy of limb j of polynomial p (0 or 1). */
    public long[] limb(int p, int j) {
        if (p != 0 && p != 1) throw new BfvOperandException("a public key has polynomials 0 and 1, not " + p);
        if (j < 0 || j >= p0.length)
            throw new BfvOperandException("limb " + j + " does not exist: the key level has " + p0.length + " primes");
        return (p == 0 ? p0 : p1)[j].clone();
    }

    long[] p(int p, int j) {
        return (p == 0 ? p0 : p1)[j];
    }

    @Override
    public String toString() {
        return "BfvPublicKey(N=" + ctx.n() + ", primes=" + p0.length + ")";
    }
}
