package io.hoist.bfv;

import io.hoist.SecretKeyAccess;
import io.hoist.random.Prng;
import io.hoist.ring.ConstantTimeNtt;
import java.util.Arrays;

/**
 * Encrypts BFV plaintexts as SEAL does, with the secret key (symmetric; seeded on request, so only c0
 * and a 64-byte seed travel) or with the public key (an encryption of zero at the key level, divided
 * and rounded by the special prime). c0 gets round(Q·m/t) = ⌊Q/t⌋·m + ⌊((Q mod t)·m + ⌊(t+1)/2⌋)/t⌋,
 * not ⌊Q/t⌋·m. The message, the secret and the noise are handled in constant time (docs/bfv.md).
 * Randomness: AES-CTR streams seeded from SecureRandom; the public seed's expansion is SEAL's
 * SHAKE256 or BLAKE2Xb. Not thread-safe (one scratch limb per encryptor).
 */
public final class BfvEncryptor {
    private final BfvContext ctx;
    private final BfvSecretKey sk;
    private final BfvPublicKey pk;
    private final long[] scratch;

    private BfvEncryptor(BfvContext ctx, BfvSecretKey sk, BfvPublicKey pk) {
        this.ctx = ctx;
        this.sk = sk;
        this.pk = pk;
        this.scratch = new long[ctx.n()];
    }

    public static BfvEncryptor symmetric(BfvContext ctx, BfvSecretKey sk, SecretKeyAccess access) {
        if (access == null) throw new BfvOperandException("a SecretKeyAccess token is required");
        ctx.checkSame(sk.context(), "the secret key");
        return new BfvEncryptor(ctx, sk, null);
    }

    public static BfvEncryptor withPublicKey(BfvContext ctx, BfvPublicKey pk) {
        ctx.checkSame(pk.context(), "the public key");
        return new BfvEncryptor(ctx, null, pk);
    }

    /** A full ciphertext (c0, c1). */
    public BfvCiphertext encrypt(BfvPlaintext m) {
        check(m);
        return sk != null ? symmetric(m, false, PrngType.SHAKE256) : asymmetric(m);
    }

    /** A seeded ciphertext whose c1 expands from SHAKE256 (SEAL reads it whatever its own default). */
    public BfvCiphertext encryptSeeded(BfvPlaintext m) {
        return encryptSeeded(m, PrngType.SHAKE256);
    }

    /** A seeded ciphertext whose c1 expands from {@code type}. */
    public BfvCiphertext encryptSeeded(BfvPlaintext m, PrngType type) {
        if (type == null) throw new BfvOperandException("name the PRNG of the seed (SHAKE256 or BLAKE2XB)");
        check(m);
        if (sk == null) throw new BfvOperandException("seeded encryption needs the secret key (symmetric encryptor)");
        return symmetric(m, true, type);
    }

    private void check(BfvPlaintext m) {
        if (!m.params().equals(ctx.params()))
            throw new BfvOperandException("the plaintext belongs to " + m.params() + ", not to " + ctx.params());
    }

    private BfvCiphertext symmetric(BfvPlaintext m, boolean seeded, PrngType type) {
        int n = ctx.n(), k = ctx.dataLevelSize();
        byte[] seed = new byte[SeedStream.SEED_BYTES];
        System.arraycopy(Prng.newSeed(), 0, seed, 0, 32);
        System.arraycopy(Prng.newSeed(), 0, seed, 32, 32);
        UniformSampler a = new UniformSampler(ctx, k, type, seed);
        byte[] e = Sampling.cbd(Prng.fresh(), n);
        long[][] c0 = new long[k][n];
        long[][] c1 = seeded ? null : new long[k][];
        long[] mc = m.raw(), as = scratch;
        for (int j = 0; j < k; j++) {
            long q = ctx.prime(j);
            ConstantTimeNtt ntt = ctx.ntt(j);
            long[] aj = seeded ? c0[j] : (c1[j] = new long[n]);
            a.next(aj);
            System.arraycopy(aj, 0, as, 0, n);
            ntt.forward(as);
            long[] s = sk.ntt(j);
            for (int i = 0; i < n; i++) as[i] = ctx.mul(j, as[i], s[i]);
            ntt.inverse(as);
            long[] out = c0[j];
            for (int i = 0; i < n; i++) {
                long neg = Ct.sub(0, Ct.add(as[i], Sampling.lift(e[i], q), q), q);
                out[i] = Ct.add(neg, scaled(j, mc[i]), q);
            }
        }
        Arrays.fill(e, (byte) 0);
        Arrays.fill(as, 0);
        return seeded ? BfvCiphertext.wrapSeeded(ctx, c0, type, seed) : BfvCiphertext.wrap(ctx, c0, c1);
    }

    private BfvCiphertext asymmetric(BfvPlaintext m) {
        int n = ctx.n(), k = ctx.dataLevelSize();
        Prng noise = Prng.fresh();
        byte[] u = Sampling.ternary(noise, n), e0 = Sampling.cbd(noise, n), e1 = Sampling.cbd(noise, n);
        long[] ut = scratch;
        // the special prime first, so each data prime is divided and rounded as soon as it is made
        long[][] last = {new long[n], new long[n]};
        zeroAtPrime(k, u, e0, e1, ut, last[0], last[1]);
        long qLast = ctx.prime(k);
        for (int i = 0; i < n; i++) {
            last[0][i] = Ct.add(last[0][i], ctx.lastHalf, qLast);
            last[1][i] = Ct.add(last[1][i], ctx.lastHalf, qLast);
        }
        long[][] c0 = new long[k][n], c1 = new long[k][n];
        long[] mc = m.raw();
        for (int j = 0; j < k; j++) {
            long q = ctx.prime(j);
            zeroAtPrime(j, u, e0, e1, ut, c0[j], c1[j]);
            long one = ctx.oneShoupQ[j], half = ctx.lastHalfModQ[j];
            long inv = ctx.lastInvModQ[j], invS = ctx.lastInvModQShoup[j];
            for (int p = 0; p < 2; p++) {
                long[] c = p == 0 ? c0[j] : c1[j], l = last[p];
                for (int i = 0; i < n; i++) {
                    long r = Ct.sub(Ct.mulShoup(l[i], 1, one, q), half, q);
                    c[i] = Ct.mulShoup(Ct.sub(c[i], r, q), inv, invS, q);
                }
            }
            long[] out = c0[j];
            for (int i = 0; i < n; i++) out[i] = Ct.add(out[i], scaled(j, mc[i]), q);
        }
        Arrays.fill(u, (byte) 0);
        Arrays.fill(e0, (byte) 0);
        Arrays.fill(e1, (byte) 0);
        Arrays.fill(ut, 0);
        Arrays.fill(last[0], 0);
        Arrays.fill(last[1], 0);
        return BfvCiphertext.wrap(ctx, c0, c1);
    }

    /** (p0·u + e0, p1·u + e1) modulo key-level prime j, coefficient form. */
    private void zeroAtPrime(int j, byte[] u, byte[] e0, byte[] e1, long[] ut, long[] d0, long[] d1) {
        long q = ctx.prime(j);
        ConstantTimeNtt ntt = ctx.ntt(j);
        Sampling.lift(u, q, ut);
        ntt.forward(ut);
        long[] p0 = pk.p(0, j), p1 = pk.p(1, j);
        int n = ctx.n();
        for (int i = 0; i < n; i++) {
            d0[i] = ctx.mul(j, p0[i], ut[i]);
            d1[i] = ctx.mul(j, p1[i], ut[i]);
        }
        ntt.inverse(d0);
        ntt.inverse(d1);
        for (int i = 0; i < n; i++) {
            d0[i] = Ct.add(d0[i], Sampling.lift(e0[i], q), q);
            d1[i] = Ct.add(d1[i], Sampling.lift(e1[i], q), q);
        }
    }

    /** round(Q·m/t) mod q_j for a coefficient m in [0, t), constant time (Shoup quotient and masks). */
    private long scaled(int j, long m) {
        long t = ctx.t();
        long quot = Math.unsignedMultiplyHigh(m, ctx.qModTShoup);
        long rem = m * ctx.qModT - quot * t; // in [0, 2t)
        long ge = Ct.geMask(rem, t);
        quot -= ge;
        rem -= t & ge;
        long carry = quot + (Ct.geMask(rem + ctx.halfTUp, t) & 1);
        long q = ctx.prime(j);
        return Ct.add(Ct.mulShoup(m, ctx.deltaModQ[j], ctx.deltaModQShoup[j], q), carry, q);
    }
}
