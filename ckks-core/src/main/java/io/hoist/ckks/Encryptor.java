package io.hoist.ckks;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.random.Prng;
import io.hoist.ring.Domain;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.util.Objects;

/**
 * Encrypts plaintexts with a public key, or with the secret key as seeded symmetric ciphertexts whose
 * uniform part is a 256-bit seed (half the upload). All randomness is AES-CTR seeded from
 * SecureRandom. Thread-safe: every call draws its own fresh stream.
 */
public final class Encryptor {
    private final CkksContext ctx;
    private final PublicKey pk;
    /** The secret's residues in secret-key mode (this encryptor's own copy), else null. */
    private final PolyQP sk;

    private Encryptor(CkksContext ctx, PublicKey pk, SecretKey sk) {
        this.ctx = ctx;
        this.pk = pk;
        this.sk = sk == null ? null : sk.material(InsecureSecretKeyAccess.get());
    }

    public static Encryptor withPublicKey(CkksContext ctx, PublicKey pk) {
        Objects.requireNonNull(ctx, "ctx is null");
        Objects.requireNonNull(pk, "pk is null");
        if (!pk.params().equals(ctx.params()))
            throw new ParameterMismatchException("public key made under other parameters");
        return new Encryptor(ctx, pk, null);
    }

    public static Encryptor withSecretKey(CkksContext ctx, SecretKey sk) {
        Objects.requireNonNull(ctx, "ctx is null");
        Objects.requireNonNull(sk, "sk is null");
        if (!sk.params().equals(ctx.params()))
            throw new ParameterMismatchException("secret key made under other parameters");
        return new Encryptor(ctx, null, sk);
    }

    public Ciphertext encrypt(Plaintext pt) {
        Objects.requireNonNull(pt, "pt is null");
        checkPlaintext(pt);
        if (pk == null) return expand(encryptSeeded(pt));
        Ring rq = ctx.ringQ();
        int level = pt.level();
        Prng prng = Prng.fresh();
        RnsPoly u = Sampler.fromSigned(rq, level, Sampler.ternary(prng, ctx.n(), SecretDistribution.uniformTernary()));
        RnsPoly e0 = Sampler.fromSigned(
                rq, level, Sampler.gaussian(prng, ctx.n(), ctx.params().sigma()));
        RnsPoly e1 = Sampler.fromSigned(
                rq, level, Sampler.gaussian(prng, ctx.n(), ctx.params().sigma()));
        rq.ntt(u);
        rq.ntt(e0);
        rq.ntt(e1);
        RnsPoly c0 = rq.newPoly(level, Domain.NTT), c1 = rq.newPoly(level, Domain.NTT);
        rq.mulCoeffs(pk.b(RawAccess.get()).atLevel(level), u, c0);
        rq.add(c0, e0, c0);
        rq.add(c0, pt.poly(RawAccess.get()), c0);
        rq.mulCoeffs(pk.a(RawAccess.get()).atLevel(level), u, c1);
        rq.add(c1, e1, c1);
        return Ciphertext.wrap(RawAccess.get(), ctx.params(), pt.scale(), c0, c1);
    }

    /** Symmetric encryption with c_1 = a expanded from a fresh seed: (−a·s + e + m, seed). */
    public SeededCiphertext encryptSeeded(Plaintext pt) {
        Objects.requireNonNull(pt, "pt is null");
        if (sk == null)
            throw new WrongOperandException("seeded encryption needs the secret key (Encryptor.withSecretKey)");
        checkPlaintext(pt);
        Ring rq = ctx.ringQ();
        int level = pt.level();
        byte[] seed = Prng.newSeed();
        RnsPoly a = Sampler.uniformNtt(Prng.of(seed, 0), rq, level);
        RnsPoly e = Sampler.fromSigned(
                rq, level, Sampler.gaussian(Prng.fresh(), ctx.n(), ctx.params().sigma()));
        rq.ntt(e);
        RnsPoly c0 = rq.newPoly(level, Domain.NTT);
        rq.mulCoeffs(a, sk.q().atLevel(level), c0);
        rq.neg(c0, c0);
        rq.add(c0, e, c0);
        rq.add(c0, pt.poly(RawAccess.get()), c0);
        return SeededCiphertext.wrap(RawAccess.get(), ctx.params(), c0, seed, pt.scale());
    }

    /** Rebuilds the full ciphertext of a seeded one (server side; needs no key). */
    public Ciphertext expand(SeededCiphertext sc) {
        Objects.requireNonNull(sc, "sc is null");
        if (!sc.params().equals(ctx.params()))
            throw new ParameterMismatchException("seeded ciphertext made under other parameters");
        RnsPoly a = Sampler.uniformNtt(Prng.of(sc.seed(), 0), ctx.ringQ(), sc.level());
        return Ciphertext.wrap(RawAccess.get(), ctx.params(), sc.scale(), sc.c0(), a);
    }

    private void checkPlaintext(Plaintext pt) {
        if (!pt.params().equals(ctx.params()))
            throw new ParameterMismatchException("plaintext encoded under other parameters");
    }
}
