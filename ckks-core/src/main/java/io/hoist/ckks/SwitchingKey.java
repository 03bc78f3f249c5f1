package io.hoist.ckks;

import io.hoist.random.Prng;
import java.util.Objects;

/**
 * A hybrid key-switching key from s_in to s_out at level ℓ: for each digit t &lt; β,
 * (b_t, a_t) = (−a_t·s_out + e_t + P·s_in·𝟙_t, a_t) over Q_ℓ·P, NTT domain (spec §2.4), where 𝟙_t is
 * 1 modulo the primes of digit t and 0 modulo every other prime. The a_t are expanded from
 * {@link #seed()} with AES-CTR, so the key can be stored as seed + b parts. Both parts are held in
 * Montgomery form (x·2^64 mod q), so the inner product multiplies and reduces once with no
 * extra per-key tables.
 */
public final class SwitchingKey {
    private final CkksParameters params;
    private final PolyQP[] b;
    private final PolyQP[] a;
    private final byte[] seed;

    public SwitchingKey(CkksParameters params, PolyQP[] b, PolyQP[] a, byte[] seed) {
        if (b.length != a.length || b.length == 0)
            throw new WrongOperandException("a switching key needs β ≥ 1 matching (b, a) pairs");
        int level = b[0].level();
        for (int t = 0; t < b.length; t++) {
            if (b[t].level() != level || a[t].level() != level)
                throw new LevelMismatchException("switching-key digits at different levels");
        }
        if (b.length != params.beta(level)) {
            throw new WrongOperandException(
                    "a key at level " + level + " needs β = " + params.beta(level) + " digits, got " + b.length);
        }
        this.params = params;
        this.b = b.clone();
        this.a = a.clone();
        this.seed = seed == null ? null : seed.clone();
    }

    public CkksParameters params() {
        return params;
    }

    public int level() {
        return b[0].level();
    }

    public int beta() {
        return b.length;
    }

    /** A copy of digit t's b part. */
    public PolyQP b(int t) {
        return b(t, RawAccess.get()).copy();
    }

    /** A copy of digit t's a part. */
    public PolyQP a(int t) {
        return a(t, RawAccess.get()).copy();
    }

    /** Digit t's b part itself, shared: read it, never write it. */
    public PolyQP b(int t, RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        return b[digit(t)];
    }

    /** Digit t's a part itself, shared: read it, never write it. */
    public PolyQP a(int t, RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        return a[digit(t)];
    }

    private int digit(int t) {
        if (t < 0 || t >= b.length) throw new WrongOperandException("a key of β = " + b.length + " has no digit " + t);
        return t;
    }

    public byte[] seed() {
        return seed == null ? null : seed.clone();
    }

    /**
     * The uniform parts a_t of a key at {@code level} expanded from its seed (AES-CTR, nonce t), in
     * Montgomery form: what key generation draws, and what a seeded key's reader rebuilds.
     */
    public static PolyQP[] uniformParts(CkksContext ctx, byte[] seed, int level) {
        int beta = ctx.params().beta(level);
        PolyQP[] a = new PolyQP[beta];
        KeySwitcher ks = new KeySwitcher(ctx);
        for (int t = 0; t < beta; t++) {
            Prng ap = Prng.of(seed, t);
            a[t] = PolyQP.of(
                    Sampler.uniformNtt(ap, ctx.ringQ(), level), Sampler.uniformNtt(ap, ctx.ringP(), ctx.alpha() - 1));
            ks.toMontgomery(a[t]);
        }
        return a;
    }

    public KeySizes sizes() {
        return KeySizes.switchingKey(b.length, b[0].limbCount(), params.n());
    }
}
