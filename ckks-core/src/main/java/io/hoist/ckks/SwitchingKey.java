package io.hoist.ckks;

import io.hoist.random.Prng;
import io.hoist.ring.Domain;
import io.hoist.ring.Ring;
import java.util.Arrays;
import java.util.Objects;

/**
 * A hybrid key-switching key from s_in to s_out at level ℓ: for each digit t &lt; β,
 * (b_t, a_t) = (−a_t·s_out + e_t + P·s_in·𝟙_t, a_t) over Q_ℓ·P, NTT domain (spec §2.4), where 𝟙_t is
 * 1 modulo the primes of digit t and 0 modulo every other prime. Both parts are held in Montgomery
 * form (x·2^64 mod q), so the inner product multiplies and reduces once with no extra per-key tables.
 *
 * <p>Every limb of every a_t is its own AES-CTR stream of {@link #seed()} (nonce: digit, Q or P, prime
 * index), sampled uniformly straight into the NTT domain and taken as the Montgomery form itself; so
 * one limb can be regenerated without the others, and a key with {@link KeyStorage#SEEDED} storage
 * holds only the b parts and the seed, its a limbs made again inside each key inner product.
 */
public final class SwitchingKey {
    private final CkksParameters params;
    private final PolyQP[] b;
    private final PolyQP[] a; // null: seeded storage
    private final byte[] seed;

    /**
     * A key with both parts stored, copied from {@code b} and {@code a}; {@code seed} (may be null) must be the one
     * the a parts were expanded from (checked, by one limb, before the key is held or written seeded).
     */
    public SwitchingKey(CkksParameters params, PolyQP[] b, PolyQP[] a, byte[] seed) {
        this(params, copies(b, "b"), copies(Objects.requireNonNull(a, "a is null"), "a"), seed, true);
    }

    /** {@link #SwitchingKey(CkksParameters, PolyQP[], PolyQP[], byte[])} taking over the parts, not copying them. */
    public static SwitchingKey wrap(RawAccess access, CkksParameters params, PolyQP[] b, PolyQP[] a, byte[] seed) {
        Objects.requireNonNull(access, "access is null");
        return new SwitchingKey(params, b, Objects.requireNonNull(a, "a is null"), seed, true);
    }

    private SwitchingKey(CkksParameters params, PolyQP[] b, PolyQP[] a, byte[] seed, boolean check) {
        Objects.requireNonNull(params, "params is null");
        Objects.requireNonNull(b, "b is null");
        if (b.length == 0 || (a != null && b.length != a.length))
            throw new WrongOperandException("a switching key needs β ≥ 1 matching (b, a) pairs");
        for (int t = 0; t < b.length; t++) {
            checkPart(params, b[t], "b part of digit " + t);
            if (a != null) checkPart(params, a[t], "a part of digit " + t);
        }
        int level = b[0].level();
        for (int t = 0; t < b.length; t++) {
            if (b[t].level() != level || (a != null && a[t].level() != level))
                throw new LevelMismatchException("switching-key digits at different levels");
        }
        if (b.length != params.beta(level)) {
            throw new WrongOperandException(
                    "a key at level " + level + " needs β = " + params.beta(level) + " digits, got " + b.length);
        }
        if (a == null && seed == null) throw new WrongOperandException("a seeded key needs its seed");
        if (seed != null && seed.length != Prng.SEED_BYTES)
            throw new WrongOperandException("a key seed has " + Prng.SEED_BYTES + " bytes, got " + seed.length);
        this.params = params;
        this.b = b.clone();
        this.a = a == null ? null : a.clone();
        this.seed = seed == null ? null : seed.clone();
    }

    /** A key with {@link KeyStorage#SEEDED} storage: its b parts (copied) and the seed its a parts expand from. */
    public static SwitchingKey seeded(CkksParameters params, PolyQP[] b, byte[] seed) {
        Objects.requireNonNull(seed, "seed is null");
        return new SwitchingKey(params, copies(b, "b"), null, seed, true);
    }

    /** {@link #seeded(CkksParameters, PolyQP[], byte[])} taking over the b parts, not copying them. */
    public static SwitchingKey seeded(RawAccess access, CkksParameters params, PolyQP[] b, byte[] seed) {
        Objects.requireNonNull(access, "access is null");
        Objects.requireNonNull(seed, "seed is null");
        return new SwitchingKey(params, b, null, seed, true);
    }

    private static PolyQP[] copies(PolyQP[] parts, String name) {
        Objects.requireNonNull(parts, name + " is null");
        PolyQP[] out = new PolyQP[parts.length];
        for (int t = 0; t < parts.length; t++)
            out[t] = Objects.requireNonNull(parts[t], name + " part of digit " + t + " is null")
                    .copy();
        return out;
    }

    /**
     * A part must be a QP polynomial of the parameters' rings in the NTT domain: the key inner products read its
     * limbs as residues modulo the context's primes, so another ring's would give a wrong product, not an error.
     */
    private static void checkPart(CkksParameters params, PolyQP x, String what) {
        if (x == null) throw new WrongOperandException(what + " is null");
        if (x.isQOnly()) throw new WrongOperandException(what + " has no P limbs");
        if (x.domain() != Domain.NTT) throw new WrongOperandException(what + " is not in the NTT domain");
        if (!params.isRingQ(x.q().ring()) || !params.isRingP(x.p().ring()))
            throw new ParameterMismatchException(what + " belongs to another ring than the key's parameters");
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

    public KeyStorage storage() {
        return a == null ? KeyStorage.SEEDED : KeyStorage.FULL;
    }

    /**
     * This key with {@code storage}: SEEDED drops the a parts (the key must have its seed), FULL
     * expands them again; the same key if it has that storage already.
     *
     * @throws WrongOperandException if SEEDED is asked of a key without a seed (read from a full file)
     */
    public SwitchingKey withStorage(KeyStorage storage) {
        Objects.requireNonNull(storage, "storage is null");
        if (storage == storage()) return this;
        if (storage == KeyStorage.SEEDED) {
            if (seed == null)
                throw new WrongOperandException(
                        "this key has no seed (it was read from a full or an older seeded file): it cannot be held seeded");
            if (!seedMatches())
                throw new WrongOperandException(
                        "this key's a parts are not what its seed expands to: it cannot be held seeded");
            return new SwitchingKey(params, b, null, seed, false);
        }
        PolyQP[] full = new PolyQP[b.length];
        for (int t = 0; t < b.length; t++) full[t] = uniformPart(t);
        return new SwitchingKey(params, b, full, seed, false);
    }

    /** A copy of digit t's b part. */
    public PolyQP b(int t) {
        return b(t, RawAccess.get()).copy();
    }

    /** A copy of digit t's a part (regenerated from the seed under seeded storage). */
    public PolyQP a(int t) {
        return a == null ? uniformPart(digit(t)) : a(t, RawAccess.get()).copy();
    }

    /** Digit t's b part itself, shared: read it, never write it. */
    public PolyQP b(int t, RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        return b[digit(t)];
    }

    /**
     * Digit t's a part itself, shared: read it, never write it.
     *
     * @throws WrongOperandException under seeded storage (no a part is held: use {@link #uniformLimb})
     */
    public PolyQP a(int t, RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        if (a == null) throw new WrongOperandException("a seeded key holds no a parts; regenerate them by uniformLimb");
        return a[digit(t)];
    }

    /**
     * out ← limb {@code limb} (Q limbs 0..ℓ, then the α P limbs) of digit t's a part, in Montgomery
     * form: read from memory, or regenerated with {@code prng} (any instance; it is reset) under seeded
     * storage. Bit-identical either way.
     */
    public void uniformLimb(int t, int limb, long[] out, Prng prng) {
        int lq = level() + 1;
        if (limb < 0 || limb >= lq + params.alpha())
            throw new WrongOperandException("a key at level " + level() + " has no limb " + limb);
        if (out.length != params.n())
            throw new WrongOperandException("a key limb has " + params.n() + " coefficients, the output " + out.length);
        if (a != null) {
            System.arraycopy(a[digit(t)].limb(limb), 0, out, 0, out.length);
            return;
        }
        Objects.requireNonNull(prng, "prng is null");
        boolean special = limb >= lq;
        int index = special ? limb - lq : limb;
        long prime = special ? b[0].p().ring().prime(index) : b[0].q().ring().prime(index);
        expandUniformLimb(prng, seed, digit(t), special, index, prime, out);
    }

    /** Whether the a parts are what the seed expands to, by one limb of digit 0: a key built by hand may pair any a with any seed. */
    private boolean seedMatches() {
        long[] limb = new long[params.n()];
        expandUniformLimb(Prng.of(seed, 0), seed, 0, false, 0, b[0].q().ring().prime(0), limb);
        return Arrays.equals(limb, a[0].limb(0));
    }

    private int digit(int t) {
        if (t < 0 || t >= b.length) throw new WrongOperandException("a key of β = " + b.length + " has no digit " + t);
        return t;
    }

    /** The seed the a parts expand from, or null for a key read from a full file. */
    public byte[] seed() {
        return seed == null ? null : seed.clone();
    }

    /**
     * out ← the limb of a_t modulo {@code prime}: the AES-CTR stream of (seed, nonce(t, special, index)),
     * uniform by rejection, taken as the Montgomery form (a uniform residue times 2^-64 is uniform).
     */
    public static void expandUniformLimb(
            Prng prng, byte[] seed, int t, boolean special, int index, long prime, long[] out) {
        prng.reset(seed, limbNonce(t, special, index));
        prng.fillUniform(prime, out, 0, out.length);
    }

    /** One stream per digit and prime of the QP chain: the key's level does not change a limb. */
    static long limbNonce(int t, boolean special, int index) {
        return ((long) t << 32) | (special ? 1L << 31 : 0) | index;
    }

    /** The uniform parts a_t of a key at {@code level} expanded from its seed, in Montgomery form: what key generation draws. */
    public static PolyQP[] uniformParts(CkksContext ctx, byte[] seed, int level) {
        int beta = ctx.params().beta(level);
        PolyQP[] a = new PolyQP[beta];
        for (int t = 0; t < beta; t++) a[t] = uniformPart(ctx.ringQ(), ctx.ringP(), seed, level, t);
        return a;
    }

    private PolyQP uniformPart(int t) {
        return uniformPart(b[0].q().ring(), b[0].p().ring(), seed, level(), t);
    }

    private static PolyQP uniformPart(Ring rq, Ring rp, byte[] seed, int level, int t) {
        int n = rq.n(), alpha = rp.maxLevel() + 1;
        long[][] q = new long[level + 1][n], p = new long[alpha][n];
        Prng prng = Prng.of(seed, 0);
        for (int j = 0; j <= level; j++) expandUniformLimb(prng, seed, t, false, j, rq.prime(j), q[j]);
        for (int i = 0; i < alpha; i++) expandUniformLimb(prng, seed, t, true, i, rp.prime(i), p[i]);
        return PolyQP.of(rq.wrap(q, Domain.NTT), rp.wrap(p, Domain.NTT));
    }

    /**
     * The uniform parts as seeded files without {@code Header.LIMB_STREAMS} expand them (one AES-CTR
     * stream per digit, nonce t, over all its limbs, then into Montgomery form): read-only, for old files.
     */
    public static PolyQP[] legacyUniformParts(CkksContext ctx, byte[] seed, int level) {
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

    /** Full and seeded sizes of this key, whatever its storage. */
    public KeySizes sizes() {
        return KeySizes.switchingKey(b.length, b[0].limbCount(), params.n());
    }

    /** Bytes this key holds in memory under its storage. */
    public long memoryBytes() {
        KeySizes s = sizes();
        return a == null ? s.seededBytes() : s.fullBytes();
    }
}
