package io.hoist.bfv;

/**
 * A fresh-size BFV ciphertext (c0, c1) at the data level, coefficient form, as SEAL keeps BFV
 * ciphertexts. A seeded one holds c0 and the 64-byte seed its c1 expands from (SEAL's
 * {@code encrypt_symmetric} result): half the bytes on the wire; {@link #expand()} makes the full one.
 * Immutable: accessors hand out copies.
 */
public final class BfvCiphertext {
    private final BfvContext ctx;
    private final long[][] c0;
    private final long[][] c1; // null when seeded
    private final PrngType seedType;
    private final byte[] seed;

    private BfvCiphertext(BfvContext ctx, long[][] c0, long[][] c1, PrngType seedType, byte[] seed) {
        this.ctx = ctx;
        this.c0 = c0;
        this.c1 = c1;
        this.seedType = seedType;
        this.seed = seed;
    }

    /** A full ciphertext from k' limbs of N residues each (copied, every residue checked). */
    public static BfvCiphertext of(BfvContext ctx, long[][] c0, long[][] c1) {
        return new BfvCiphertext(ctx, checked(ctx, c0, "c0"), checked(ctx, c1, "c1"), null, null);
    }

    /** A seeded ciphertext: c0 and the seed of c1 (copied, checked). */
    public static BfvCiphertext seeded(BfvContext ctx, long[][] c0, PrngType type, byte[] seed) {
        if (type == null || seed == null)
            throw new BfvOperandException("a seeded ciphertext needs its PRNG type and seed");
        if (seed.length != SeedStream.SEED_BYTES)
            throw new BfvOperandException("a seed is " + SeedStream.SEED_BYTES + " bytes, got " + seed.length);
        return new BfvCiphertext(ctx, checked(ctx, c0, "c0"), null, type, seed.clone());
    }

    static BfvCiphertext wrap(BfvContext ctx, long[][] c0, long[][] c1) {
        return new BfvCiphertext(ctx, c0, c1, null, null);
    }

    static BfvCiphertext wrapSeeded(BfvContext ctx, long[][] c0, PrngType type, byte[] seed) {
        return new BfvCiphertext(ctx, c0, null, type, seed);
    }

    private static long[][] checked(BfvContext ctx, long[][] limbs, String what) {
        int k = ctx.dataLevelSize(), n = ctx.n();
        if (limbs.length != k)
            throw new BfvOperandException(
                    what + " has " + limbs.length + " limbs; the data level has " + k + " primes");
        long[][] out = new long[k][];
        for (int j = 0; j < k; j++) {
            if (limbs[j].length != n)
                throw new BfvOperandException(what + " limb " + j + " has " + limbs[j].length + " residues, N = " + n);
            long q = ctx.prime(j);
            for (int i = 0; i < n; i++)
                if (limbs[j][i] < 0 || limbs[j][i] >= q)
                    throw new BfvOperandException(what + " residue " + i + " of limb " + j + " = " + limbs[j][i]
                            + " is not below q_" + j + " = " + q);
            out[j] = limbs[j].clone();
        }
        return out;
    }

    public BfvContext context() {
        return ctx;
    }

    public boolean isSeeded() {
        return c1 == null;
    }

    /** The PRNG of the seed (seeded ciphertexts only). */
    public PrngType seedType() {
        requireSeeded();
        return seedType;
    }

    /** A copy of the 64-byte seed (seeded ciphertexts only). */
    public byte[] seed() {
        requireSeeded();
        return seed.clone();
    }

    private void requireSeeded() {
        if (c1 == null) return;
        throw new BfvOperandException("a full ciphertext has no seed");
    }

    /** A copy of limb j of polynomial p (0 or 1; c1 of a seeded ciphertext is expanded). */
    public long[] limb(int p, int j) {
        if (j < 0 || j >= c0.length)
            throw new BfvOperandException("limb " + j + " does not exist: the data level has " + c0.length + " primes");
        if (p == 0) return c0[j].clone();
        if (p != 1) throw new BfvOperandException("a fresh ciphertext has polynomials 0 and 1, not " + p);
        if (c1 != null) return c1[j].clone();
        return expand().c1[j];
    }

    /** The full ciphertext (this one if it is full). */
    public BfvCiphertext expand() {
        if (c1 != null) return this;
        int k = ctx.dataLevelSize();
        long[][] e = new long[k][ctx.n()];
        UniformSampler s = sampler();
        for (int j = 0; j < k; j++) s.next(e[j]);
        return new BfvCiphertext(ctx, c0, e, null, null);
    }

    /** Bytes of the residues this object holds. */
    public long residentBytes() {
        return 8L * ctx.n() * ctx.dataLevelSize() * (c1 == null ? 1 : 2) + (seed == null ? 0 : seed.length);
    }

    UniformSampler sampler() {
        return new UniformSampler(ctx, ctx.dataLevelSize(), seedType, seed);
    }

    long[] c0(int j) {
        return c0[j];
    }

    /** Raw c1 limb of a full ciphertext. */
    long[] c1(int j) {
        return c1[j];
    }

    @Override
    public String toString() {
        return "BfvCiphertext(N=" + ctx.n() + ", primes=" + ctx.dataLevelSize()
                + (c1 == null ? ", seeded " + seedType : "") + ")";
    }
}
