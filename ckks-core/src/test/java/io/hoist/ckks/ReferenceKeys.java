package io.hoist.ckks;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ring.Domain;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A slow, obvious key generator for ckks-core's own tests, so that the scheme's tests (key
 * switching, rotations, relinearization) run in the scheme's module: {@code keygen} depends on
 * ckks-core, so ckks-core's tests cannot use it. Every residue is computed with {@link BigInteger}
 * from the definitions — b_t = −a_t·s_out + e_t + P·𝟙_t·s_in over Q_ℓ·P (𝟙_t is 1 on the primes of
 * digit t and 0 on the others; P ≡ 0 mod p), both parts then in Montgomery form — with a_t uniform
 * and e_t in [−2, 2] from a seeded {@link SplittableRandom} (e_t one integer polynomial reduced mod
 * every prime of QP: independent noise per limb would lift to a huge error). Not secure: a test oracle.
 */
final class ReferenceKeys {
    private final CkksContext ctx;
    private final CkksParameters params;
    private final SplittableRandom r;
    private final PolyQP s;
    final SecretKey sk;

    ReferenceKeys(CkksContext ctx, long seed) {
        this.ctx = ctx;
        this.params = ctx.params();
        this.r = new SplittableRandom(seed);
        long[] c = new long[ctx.n()];
        for (int k = 0; k < c.length; k++) c[k] = r.nextInt(3) - 1; // uniform ternary
        s = ntt(PolyQP.of(
                Sampler.fromSigned(ctx.ringQ(), params.maxLevel(), c),
                Sampler.fromSigned(ctx.ringP(), params.alpha() - 1, c)));
        sk = new SecretKey(params, s, InsecureSecretKeyAccess.get());
    }

    /** (b, a) = (−a·s + e, a) over Q at the top level. */
    PublicKey publicKey() {
        Ring rq = ctx.ringQ();
        int level = params.maxLevel();
        RnsPoly a = uniform(rq, level), e = small(rq, level), b = rq.newPoly(level, Domain.NTT);
        for (int j = 0; j <= level; j++) {
            BigInteger q = BigInteger.valueOf(rq.prime(j));
            for (int k = 0; k < ctx.n(); k++) {
                BigInteger as = big(a.limb(j)[k]).multiply(big(s.q().limb(j)[k]));
                b.limb(j)[k] = big(e.limb(j)[k]).subtract(as).mod(q).longValueExact();
            }
        }
        return new PublicKey(params, b, a);
    }

    /** The switching key s² → s. */
    RelinearizationKey relinearizationKey() {
        PolyQP s2 = PolyQP.zero(ctx, params.maxLevel(), Domain.NTT);
        ctx.ringQ().mulCoeffs(s.q(), s.q(), s2.q());
        ctx.ringP().mulCoeffs(s.p(), s.p(), s2.p());
        return new RelinearizationKey(switchingKey(s2, s, params.maxLevel()));
    }

    /** Galois keys for left rotations by {@code steps} (and conjugation), switching s → φ_{g^-1}(s). */
    RotationKeySet rotationKeys(int[] steps, boolean conjugation) {
        List<Long> gs = new ArrayList<>();
        for (int k : steps) if (Math.floorMod(k, params.slots()) != 0) gs.add(params.galoisElementForRotation(k));
        if (conjugation) gs.add(params.galoisElementForConjugation());
        List<GaloisKey> keys = new ArrayList<>();
        long twoN = 2L * ctx.n();
        for (long g : gs.stream().distinct().toList()) {
            long gInv =
                    BigInteger.valueOf(g).modInverse(BigInteger.valueOf(twoN)).longValueExact();
            PolyQP out = PolyQP.zero(ctx, params.maxLevel(), Domain.NTT);
            ctx.ringQ().automorphism(s.q(), gInv, out.q());
            ctx.ringP().automorphism(s.p(), gInv, out.p());
            keys.add(new GaloisKey(g, switchingKey(s, out, params.maxLevel())));
        }
        return new RotationKeySet(params, keys);
    }

    private SwitchingKey switchingKey(PolyQP in, PolyQP out, int level) {
        int beta = params.beta(level), lq = level + 1, alpha = params.alpha();
        BigInteger p = BigInteger.ONE;
        for (int i = 0; i < alpha; i++) p = p.multiply(BigInteger.valueOf(params.p(i)));
        PolyQP[] b = new PolyQP[beta], a = new PolyQP[beta];
        for (int t = 0; t < beta; t++) {
            PolyQP at = PolyQP.of(uniform(ctx.ringQ(), level), uniform(ctx.ringP(), alpha - 1));
            PolyQP et = smallQP(level); // one integer polynomial, reduced mod every prime of QP
            PolyQP bt = PolyQP.zero(ctx, level, Domain.NTT);
            for (int j = 0; j < lq + alpha; j++) {
                BigInteger q = BigInteger.valueOf(ctx.primeQP(level, j));
                boolean digit = j < lq && j / alpha == t;
                BigInteger pIn = digit ? p.mod(q) : BigInteger.ZERO;
                long[] av = at.limb(j), ev = et.limb(j), ov = out.limb(j < lq ? j : j + (params.maxLevel() - level));
                long[] iv = in.limb(j < lq ? j : j + (params.maxLevel() - level)), bv = bt.limb(j);
                for (int k = 0; k < ctx.n(); k++) {
                    BigInteger x = big(ev[k]).subtract(big(av[k]).multiply(big(ov[k])));
                    if (digit) x = x.add(pIn.multiply(big(iv[k])));
                    bv[k] = montgomery(x.mod(q), q);
                    av[k] = montgomery(big(av[k]), q);
                }
            }
            b[t] = bt;
            a[t] = at;
        }
        return new SwitchingKey(params, b, a, null);
    }

    private static long montgomery(BigInteger x, BigInteger q) {
        return x.shiftLeft(64).mod(q).longValueExact();
    }

    private static BigInteger big(long x) {
        return BigInteger.valueOf(x);
    }

    private RnsPoly uniform(Ring ring, int level) {
        RnsPoly p = ring.newPoly(level, Domain.NTT);
        for (int j = 0; j <= level; j++) for (int k = 0; k < ctx.n(); k++) p.limb(j)[k] = r.nextLong(ring.prime(j));
        return p;
    }

    /** Noise in [−2, 2] over Q, transformed. */
    private RnsPoly small(Ring ring, int level) {
        RnsPoly p = Sampler.fromSigned(ring, level, noise());
        ring.ntt(p);
        return p;
    }

    /** One noise polynomial in [−2, 2] over Q_ℓ·P (the same integers mod every prime), transformed. */
    private PolyQP smallQP(int level) {
        long[] c = noise();
        return ntt(PolyQP.of(
                Sampler.fromSigned(ctx.ringQ(), level, c), Sampler.fromSigned(ctx.ringP(), params.alpha() - 1, c)));
    }

    private long[] noise() {
        long[] c = new long[ctx.n()];
        for (int k = 0; k < c.length; k++) c[k] = r.nextInt(5) - 2;
        return c;
    }

    private PolyQP ntt(PolyQP x) {
        ctx.ringQ().ntt(x.q());
        ctx.ringP().ntt(x.p());
        return x;
    }
}
