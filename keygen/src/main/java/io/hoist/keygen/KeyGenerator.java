package io.hoist.keygen;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.KeySwitcher;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.Progress;
import io.hoist.ckks.PublicKey;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.RelinearizationKey;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.Sampler;
import io.hoist.ckks.SecretDistribution;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.SwitchingKey;
import io.hoist.ckks.WrongOperandException;
import io.hoist.math.ModArith;
import io.hoist.random.Prng;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.LimbPool;
import io.hoist.ring.Parallel;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Generates secret, public, relinearization and Galois keys. Switching keys follow the
 * "switch first, then permute" convention (spec §2.4) and may be generated at any level ℓ ≤ L
 * (fewer Q limbs, less memory). Uniform parts come from a fresh 256-bit seed per key (AES-CTR), so
 * every key can be stored as seed + b parts. Randomness: SecureRandom-seeded AES-CTR only.
 * Thread-safe.
 */
public final class KeyGenerator {
    private final CkksContext ctx;
    private final CkksParameters params;
    private final KeySwitcher ks;
    /**
     * Each key's temporaries (φ(s) or s², one or two scratch limbs), borrowed and returned zeroed: fresh ones
     * per key were 15 MB at boot16 that the young collections, which promote the keys, promoted with them as
     * garbage. The pool keeps them while the generator lives: ℓ + 1 + α + 2 limbs per thread that made keys.
     */
    private final LimbPool limbs;

    public KeyGenerator(CkksContext ctx) {
        Objects.requireNonNull(ctx, "ctx is null");
        this.ctx = ctx;
        this.params = ctx.params();
        this.ks = new KeySwitcher(ctx);
        this.limbs = new LimbPool(ctx.n());
    }

    public SecretKey genSecretKey() {
        return genSecretKey(params.secret());
    }

    /**
     * A secret of another distribution under the same parameters: the ephemeral sparse secret of
     * bootstrapping's encapsulation (its key is only ever used at the bottom of the chain).
     */
    public SecretKey genSecretKey(SecretDistribution distribution) {
        Objects.requireNonNull(distribution, "distribution is null");
        long[] coeffs = Sampler.ternary(Prng.fresh(), ctx.n(), distribution);
        PolyQP s = PolyQP.of(
                Sampler.fromSigned(ctx.ringQ(), params.maxLevel(), coeffs),
                Sampler.fromSigned(ctx.ringP(), params.alpha() - 1, coeffs));
        ctx.ringQ().ntt(s.q());
        ctx.ringP().ntt(s.p());
        return new SecretKey(params, s, InsecureSecretKeyAccess.get());
    }

    /** (b, a) = (−a·s + e, a) over Q at the top level. */
    public PublicKey genPublicKey(SecretKey sk) {
        Objects.requireNonNull(sk, "sk is null");
        check(sk);
        Ring rq = ctx.ringQ();
        int level = params.maxLevel();
        RnsPoly a = Sampler.uniformNtt(Prng.of(Prng.newSeed(), 0), rq, level);
        RnsPoly e = Sampler.fromSigned(rq, level, Sampler.gaussian(Prng.fresh(), ctx.n(), params.sigma()));
        rq.ntt(e);
        RnsPoly b = rq.newPoly(level, Domain.NTT);
        rq.mulCoeffs(a, sk.material(InsecureSecretKeyAccess.get()).q(), b);
        rq.neg(b, b);
        rq.add(b, e, b);
        return new PublicKey(params, b, a);
    }

    public RelinearizationKey genRelinearizationKey(SecretKey sk) {
        Objects.requireNonNull(sk, "sk is null");
        return genRelinearizationKey(sk, params.maxLevel());
    }

    /** The switching key s² → s at {@code level}. */
    public RelinearizationKey genRelinearizationKey(SecretKey sk, int level) {
        Objects.requireNonNull(sk, "sk is null");
        check(sk);
        PolyQP s = sk.material(InsecureSecretKeyAccess.get());
        PolyQP s2 = PolyQP.borrow(ctx, limbs, params.maxLevel(), Domain.NTT);
        try {
            ctx.ringQ().mulCoeffs(s.q(), s.q(), s2.q());
            ctx.ringP().mulCoeffs(s.p(), s.p(), s2.p());
            return new RelinearizationKey(genSwitchingKey(s2, s, level));
        } finally {
            giveBack(s2);
        }
    }

    /** The Galois key for g at {@code level}: switches s → φ_{g^-1}(s), applied before φ_g. */
    public GaloisKey genGaloisKey(SecretKey sk, long galoisElement, int level) {
        Objects.requireNonNull(sk, "sk is null");
        check(sk);
        int logN = params.logN();
        long twoN = 2L << logN;
        long g = Math.floorMod(galoisElement, twoN);
        if ((g & 1) == 0) throw new WrongOperandException("Galois element must be odd: " + galoisElement);
        if (g == 1)
            throw new WrongOperandException("Galois element " + galoisElement + " is the identity: it needs no key");
        return galoisKey(sk.material(InsecureSecretKeyAccess.get()), g, level, KeyStorage.FULL, Draws.next());
    }

    /** The Galois key for the reduced odd element g ≠ 1 from the secret's residues {@code s}, from {@code draws}. */
    private GaloisKey galoisKey(PolyQP s, long g, int level, KeyStorage storage, Draws draws) {
        long gInv = inverseMod2N(g, 2L << params.logN());
        PolyQP sOut = PolyQP.borrow(ctx, limbs, params.maxLevel(), Domain.NTT);
        try {
            ctx.ringQ().automorphism(s.q(), gInv, sOut.q());
            ctx.ringP().automorphism(s.p(), gInv, sOut.p());
            return new GaloisKey(g, genSwitchingKey(s, sOut, level, storage, draws));
        } finally {
            giveBack(sOut);
        }
    }

    /** The pool of the generator's temporaries (for the tests: every limb back, and zeroed). */
    LimbPool temporaries() {
        return limbs;
    }

    /** A secret temporary (s², φ(s)) zeroed, and its limbs back in the pool. */
    private void giveBack(PolyQP secret) {
        wipe(secret.q().limbs());
        wipe(secret.p().limbs());
        secret.release(limbs);
    }

    /** Secret residues zeroed before their limbs go back to the pool. */
    private static void wipe(long[]... secret) {
        for (long[] limb : secret) Arrays.fill(limb, 0L);
    }

    /** Galois keys for the given elements (duplicates collapsed), at {@code level}. */
    public RotationKeySet genRotationKeys(SecretKey sk, int level, Collection<Long> galoisElements) {
        Objects.requireNonNull(sk, "sk is null");
        Objects.requireNonNull(galoisElements, "galoisElements is null");
        return genRotationKeys(sk, level, galoisElements, Progress.NONE);
    }

    /** {@link #genRotationKeys(SecretKey, int, Collection)}, reporting each key made to {@code progress}. */
    public RotationKeySet genRotationKeys(SecretKey sk, int level, Collection<Long> galoisElements, Progress progress) {
        return genRotationKeys(sk, level, galoisElements, progress, KeyStorage.FULL);
    }

    /**
     * {@link #genRotationKeys(SecretKey, int, Collection, Progress)} with the keys held as {@code storage}:
     * SEEDED drops each key's a parts as soon as its b parts are made, so the full set never exists.
     */
    public RotationKeySet genRotationKeys(
            SecretKey sk, int level, Collection<Long> galoisElements, Progress progress, KeyStorage storage) {
        Objects.requireNonNull(galoisElements, "galoisElements is null");
        Map<Long, Integer> levels = new LinkedHashMap<>();
        for (Long g : galoisElements) levels.put(Objects.requireNonNull(g, "a Galois element is null"), level);
        return genRotationKeys(sk, levels, progress, storage);
    }

    /**
     * Galois keys each at its own level ({@code levels}: Galois element → level; elements equal mod 2N collapse to
     * the higher level): a key serves every level at or below its own, and a lower one holds fewer limbs (a
     * bootstrapping's SlotsToCoeffs keys). Held as {@code storage}, made over the context's threads.
     */
    public RotationKeySet genRotationKeys(
            SecretKey sk, Map<Long, Integer> levels, Progress progress, KeyStorage storage) {
        Objects.requireNonNull(storage, "storage is null");
        Objects.requireNonNull(progress, "progress is null");
        Objects.requireNonNull(sk, "sk is null");
        Objects.requireNonNull(levels, "levels is null");
        Map<Long, Integer> at = new LinkedHashMap<>();
        long twoN = 2L << params.logN();
        levels.forEach((g, level) -> {
            Objects.requireNonNull(g, "a Galois element is null");
            Objects.requireNonNull(level, "the level of Galois element " + g + " is null");
            if (level < 0 || level > params.maxLevel())
                throw new LevelMismatchException(
                        "Galois element " + g + " at level " + level + ", outside [0, " + params.maxLevel() + "]");
            at.merge(Math.floorMod(g, twoN), level, Math::max);
        });
        at.remove(1L); // the identity needs no key (as rotation by 0 in genRotationKeysForSteps)
        List<Long> gs = new ArrayList<>(at.keySet());
        for (long g : gs) if ((g & 1) == 0) throw new WrongOperandException("Galois element must be odd: " + g);
        check(sk);
        PolyQP s = sk.material(InsecureSecretKeyAccess.get()); // one copy of the residues for every key
        GaloisKey[] keys = new GaloisKey[gs.size()];
        // each key's seed and noise are drawn here, in order, so a fixed test seed gives the same keys on any thread
        // count; the keys are then independent and made over the context's threads
        Draws[] draws = new Draws[keys.length];
        for (int i = 0; i < draws.length; i++) draws[i] = Draws.next();
        AtomicInteger done = new AtomicInteger();
        Parallel.forEach(ctx.engine().threads(), keys.length, i -> {
            keys[i] = galoisKey(s, gs.get(i), at.get(gs.get(i)), storage, draws[i]);
            synchronized (progress) {
                progress.step(done.incrementAndGet(), keys.length);
            }
        });
        return new RotationKeySet(params, Arrays.asList(keys));
    }

    /** Galois keys for left rotations by {@code steps} (negative steps rotate right), plus conjugation if asked. */
    public RotationKeySet genRotationKeysForSteps(SecretKey sk, int level, int[] steps, boolean conjugation) {
        Objects.requireNonNull(sk, "sk is null");
        Objects.requireNonNull(steps, "steps is null");
        List<Long> gs = new ArrayList<>();
        for (int k : steps) {
            if (Math.floorMod(k, params.slots()) == 0) continue; // rotation by 0 needs no key
            gs.add(params.galoisElementForRotation(k));
        }
        if (conjugation) gs.add(params.galoisElementForConjugation());
        return genRotationKeys(sk, level, gs);
    }

    /** The switching key from {@code from}'s secret to {@code to}'s at {@code level}: a ciphertext under {@code from} switched with it decrypts under {@code to}. */
    public SwitchingKey genSwitchingKey(SecretKey from, SecretKey to, int level) {
        Objects.requireNonNull(from, "from is null");
        Objects.requireNonNull(to, "to is null");
        check(from);
        check(to);
        return genSwitchingKey(
                from.material(InsecureSecretKeyAccess.get()), to.material(InsecureSecretKeyAccess.get()), level);
    }

    /**
     * The switching key s_in → s_out at {@code level}: for each digit t,
     * (−a_t·s_out + e_t + P·s_in·𝟙_t, a_t) over Q_ℓ·P, NTT, a_t expanded from one fresh seed.
     */
    public SwitchingKey genSwitchingKey(PolyQP sIn, PolyQP sOut, int level) {
        Objects.requireNonNull(sIn, "sIn is null");
        Objects.requireNonNull(sOut, "sOut is null");
        for (PolyQP x : new PolyQP[] {sIn, sOut})
            if (!params.isRingQ(x.q().ring()) || !params.isRingP(x.p().ring()))
                throw new ParameterMismatchException("a secret's residues are over another ring than this generator's");
        return genSwitchingKey(sIn, sOut, level, KeyStorage.FULL, Draws.next());
    }

    /** One key's randomness: the seed of its uniform parts, and its noise stream. */
    record Draws(byte[] seed, Prng noise) {
        static Draws next() {
            byte[] seed = Prng.newSeed();
            return new Draws(seed, Prng.fresh());
        }
    }

    /**
     * {@link #genSwitchingKey(PolyQP, PolyQP, int)} held as {@code storage}. SEEDED never makes the a
     * parts: each a limb is expanded into one scratch limb, multiplied into its b limb and dropped
     * (the same residues as the full key's, so the same b parts for the same seeds).
     */
    SwitchingKey genSwitchingKey(PolyQP sIn, PolyQP sOut, int level, KeyStorage storage, Draws draws) {
        Objects.requireNonNull(sIn, "sIn is null");
        Objects.requireNonNull(sOut, "sOut is null");
        if (level < 0 || level > params.maxLevel()) {
            throw new LevelMismatchException("key level " + level + " outside [0, " + params.maxLevel() + "]");
        }
        int beta = params.beta(level);
        byte[] seed = draws.seed();
        Prng noise = draws.noise();
        PolyQP in = sIn.atLevel(level), out = sOut.atLevel(level);
        PolyQP[] b = new PolyQP[beta];
        PolyQP[] a = storage == KeyStorage.FULL ? SwitchingKey.uniformParts(ctx, seed, level) : null; // Montgomery form
        Prng expander = a == null ? Prng.of(seed, 0) : null;
        LimbKernels kernels = ctx.engine().kernels();
        long[] limb = null, scratch = null;
        try {
            scratch = limbs.get();
            if (a == null) limb = limbs.get();
            fillB(b, a, in, out, level, seed, noise, expander, kernels, limb, scratch);
        } finally {
            // every temporary comes back zeroed: scratch held a·s and P·s_in, limb a's (public) residues
            for (long[] t : new long[][] {scratch, limb})
                if (t != null) {
                    wipe(t);
                    limbs.put(t);
                }
        }
        return a != null
                ? SwitchingKey.wrap(RawAccess.get(), params, b, a, seed)
                : SwitchingKey.seeded(RawAccess.get(), params, b, seed);
    }

    /** b_t = −a_t·s_out + e_t + P·s_in·𝟙_t for every digit t (NTT, Montgomery form), in place in {@code b}. */
    private void fillB(
            PolyQP[] b,
            PolyQP[] a,
            PolyQP in,
            PolyQP out,
            int level,
            byte[] seed,
            Prng noise,
            Prng expander,
            LimbKernels kernels,
            long[] limb,
            long[] scratch) {
        Ring rq = ctx.ringQ(), rp = ctx.ringP();
        for (int t = 0; t < b.length; t++) {
            long[] ec = Sampler.gaussian(noise, ctx.n(), params.sigma());
            PolyQP bt = PolyQP.of(Sampler.fromSigned(rq, level, ec), Sampler.fromSigned(rp, params.alpha() - 1, ec));
            rq.ntt(bt.q());
            rp.ntt(bt.p());
            for (int j = 0; j <= level; j++) // b −= a·s limb by limb: a read, or expanded into one scratch limb
            subtractProduct(
                        kernels,
                        bt.q().limb(j),
                        uniformLimb(a, expander, seed, t, false, j, rq.prime(j), limb),
                        out.q().limb(j),
                        rq.prime(j),
                        scratch);
            for (int i = 0; i < params.alpha(); i++)
                subtractProduct(
                        kernels,
                        bt.p().limb(i),
                        uniformLimb(a, expander, seed, t, true, i, rp.prime(i), limb),
                        out.p().limb(i),
                        rp.prime(i),
                        scratch);
            // + P·s_in on the limbs of digit t (𝟙_t is 1 there, 0 on other Q primes; P ≡ 0 mod p)
            for (int j = ctx.digitStart(t); j < ctx.digitEnd(t, level); j++) {
                long q = rq.prime(j), pq = ctx.pModQ(j);
                long[] dst = bt.q().limb(j);
                kernels.mulShoup(in.q().limb(j), pq, ModArith.shoupQuotient(pq, q), q, scratch, 0, scratch.length);
                LimbKernels.addMod(dst, scratch, dst, q);
            }
            ks.toMontgomery(bt);
            b[t] = bt;
        }
    }

    /** Limb (special, index) of digit t's a part: the stored one, or the seed's expansion into {@code scratch}. */
    private static long[] uniformLimb(
            PolyQP[] a, Prng expander, byte[] seed, int t, boolean special, int index, long prime, long[] scratch) {
        if (a != null) return special ? a[t].p().limb(index) : a[t].q().limb(index);
        SwitchingKey.expandUniformLimb(expander, seed, t, special, index, prime, scratch);
        return scratch;
    }

    /**
     * b −= (a·2^64)·s·2^-64 = a·s on one limb (a in Montgomery form, as the key holds it): the product is
     * one Montgomery term of the engine's dot-product kernel, into {@code scratch}.
     */
    private static void subtractProduct(LimbKernels k, long[] b, long[] aMont, long[] s, long q, long[] scratch) {
        k.dot2Montgomery(new long[][] {aMont}, new long[][] {s}, null, 1, scratch, null, q, false);
        LimbKernels.subMod(b, scratch, b, q);
    }

    private static long inverseMod2N(long g, long twoN) {
        // odd g is a unit mod 2^k: Newton iteration x ← x·(2 − g·x) doubles the correct bits
        long x = g;
        for (int i = 0; i < 6; i++) x *= 2 - g * x;
        return x & (twoN - 1);
    }

    private void check(SecretKey sk) {
        if (!sk.params().equals(params)) throw new ParameterMismatchException("secret key made under other parameters");
    }
}
