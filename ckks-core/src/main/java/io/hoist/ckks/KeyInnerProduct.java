package io.hoist.ckks;

import io.hoist.ckks.KeySwitcher.Prepared;
import io.hoist.random.Prng;
import io.hoist.ring.Automorphism;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.LimbPool;
import io.hoist.ring.NttPermutation;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Parallel;
import io.hoist.ring.RingMismatchException;
import io.hoist.ring.RnsPoly;
import java.util.Arrays;
import java.util.Objects;

/** The key inner product of hybrid key switching (spec §2.4) with the automorphism folded into its output, and the plain key switch built on it. Reached through {@link KeySwitcher}. */
final class KeyInnerProduct {
    private final CkksContext ctx;
    private final ModDown modDown;
    private final OpCounters counters;
    private final LimbKernels kernels;
    private final int n;

    KeyInnerProduct(CkksContext ctx, ModDown modDown) {
        this.ctx = ctx;
        this.modDown = modDown;
        this.counters = ctx.counters();
        this.kernels = ctx.engine().kernels();
        this.n = ctx.n();
    }

    /**
     * The key-switching kernel of Algorithms 1–2, QP limbs [from, to):
     * outA = [outA +] φ_g(addend + Σ_t D_t ⊙ SWK[t].b), outB = [outB +] φ_g(Σ_t D_t ⊙ SWK[t].a),
     * with g = 1 meaning no permutation. {@code addend} may be null, or have no P part (a P·c_0
     * whose P limbs are zero). {@code t0}, {@code t1} are two caller-owned scratch limbs for a
     * permutation (null without one: the sums then go straight into the outputs). Counts
     * the multiplications, not the KS-IP itself (the caller knows when the step is complete).
     */
    public void switchAndPermute(
            PolyQP[] digits,
            SwitchingKey key,
            long g,
            PolyQP addend,
            PolyQP outA,
            PolyQP outB,
            boolean accumulate,
            int from,
            int to,
            long[] t0,
            long[] t1,
            OpCounters c) {
        int level = checkSwitch(digits, key, addend, outA, outB, from, to);
        int beta = digits.length;
        NttPermutation idx =
                g == 1 ? null : Automorphism.nttPermutation(ctx.params().logN(), g);
        if (idx != null && (t0 == null || t1 == null))
            throw new IllegalArgumentException("a permuted key inner product needs two scratch limbs");
        Terms h = Terms.of(key, beta, n);
        int lq = level + 1;
        for (int j = from; j < to; j++) {
            long q = ctx.primeQP(level, j);
            long[] add = addend == null || (j >= lq && addend.isQOnly()) ? null : addend.limb(j);
            if (idx == null) { // straight into the outputs, no scratch limb copied out
                dotLimb(digits, key, j, lq, h, outA.limb(j), outB.limb(j), q, accumulate);
                if (add != null) LimbKernels.addMod(outA.limb(j), add, outA.limb(j), q);
            } else {
                dotLimb(digits, key, j, lq, h, t0, t1, q, false);
                kernels.automorphismNttFromScratch(t0, add, outA.limb(j), idx, q, accumulate);
                kernels.automorphismNtt(t1, null, outB.limb(j), idx, q, accumulate);
            }
        }
        countDots(c, beta, to - from, h.ex != null);
        h.clear();
        c.add(Op.AUTOMORPHISM_LIMBS, idx == null ? 0 : 2L * (to - from));
    }

    /**
     * QP limb j (of ℓ + 1 = {@code lq} Q limbs and α P limbs) of ⟨D, K.b⟩ into {@code a} and of ⟨D, K.a⟩
     * into {@code b} ([+=] with {@code accumulate}); the key may sit at a higher level than the digits.
     */
    private void dotLimb(
            PolyQP[] digits, SwitchingKey key, int j, int lq, Terms h, long[] a, long[] b, long q, boolean accumulate) {
        int kj = j < lq ? j : key.level() + 1 + (j - lq);
        for (int t = 0; t < h.x.length; t++) {
            h.x[t] = digits[t].limb(j);
            h.y[t] = key.b(t, RawAccess.get()).limb(kj);
            if (h.ex != null) {
                key.uniformLimb(t, kj, h.ex.limbs[t], h.ex.prng); // regenerated, not streamed from memory
                h.z[t] = h.ex.limbs[t];
            } else {
                h.z[t] = key.a(t, RawAccess.get()).limb(kj);
            }
        }
        kernels.dot2Montgomery(h.x, h.y, h.z, h.x.length, a, b, q, accumulate);
    }

    /** The products of two inner products over {@code limbs} limbs (and, for a seeded key, the a limbs regenerated). */
    private void countDots(OpCounters c, int beta, int limbs, boolean seeded) {
        c.add(Op.MOD_MULS, 2L * beta * limbs * n);
        if (seeded) c.add(Op.KEY_LIMBS_EXPANDED, (long) beta * limbs);
    }

    /**
     * One thread's holders of a limb's β terms (digits, key b and a limbs) and, for a seeded key, its expander;
     * kept per thread, as a hoisted transform runs thousands of key switches (the diagonal method: 4095 at n13).
     */
    private static final class Terms {
        private static final ThreadLocal<Terms> LOCAL = new ThreadLocal<>();
        final long[][] x, y, z;
        Expander ex;

        private Terms(int beta) {
            x = new long[beta][];
            y = new long[beta][];
            z = new long[beta][];
        }

        static Terms of(SwitchingKey key, int beta, int n) {
            Terms h = LOCAL.get();
            if (h == null || h.x.length != beta) {
                h = new Terms(beta);
                LOCAL.set(h);
            }
            h.ex = key.storage() == KeyStorage.SEEDED ? Expander.of(beta, n) : null;
            return h;
        }

        /** Drops the references to the last key's and digits' limbs, so a thread keeps no dropped key alive. */
        void clear() {
            Arrays.fill(x, null);
            Arrays.fill(y, null);
            Arrays.fill(z, null);
            ex = null;
        }
    }

    /** Per thread: the AES-CTR stream and β limbs into which a seeded key's a limbs are regenerated. */
    private static final class Expander {
        private static final ThreadLocal<Expander> LOCAL = new ThreadLocal<>();
        final Prng prng = Prng.of(new byte[Prng.SEED_BYTES], 0);
        final long[][] limbs;

        private Expander(int beta, int n) {
            limbs = new long[beta][n];
        }

        static Expander of(int beta, int n) {
            Expander e = LOCAL.get();
            if (e == null || e.limbs.length < beta || e.limbs[0].length != n) {
                e = new Expander(beta, n);
                LOCAL.set(e);
            }
            return e;
        }
    }

    /**
     * (T0, T1) = (Σ_t D_t ⊙ SWK[t].b, Σ_t D_t ⊙ SWK[t].a) over Q_ℓ·P, NTT; the key may sit at a higher
     * level than the digits (its first ℓ+1 Q limbs are used).
     */
    public PolyQP[] innerProduct(PolyQP[] digits, SwitchingKey key) {
        int level = checkDigits(digits);
        PolyQP t0 = PolyQP.zero(ctx, level, Domain.NTT), t1 = PolyQP.zero(ctx, level, Domain.NTT);
        int limbs = level + 1 + ctx.alpha();
        switchAndPermute(digits, key, 1, null, t0, t1, false, 0, limbs, null, null, counters);
        countInnerProduct(counters, digits.length, limbs, key.storage());
        return new PolyQP[] {t0, t1};
    }

    /** Counts one completed key inner product over {@code limbs} limbs with β = {@code beta} and a key of {@code storage} (a seeded key's a limbs are made, not read). */
    public static void countInnerProduct(OpCounters c, int beta, int limbs, KeyStorage storage) {
        Objects.requireNonNull(storage, "storage is null");
        c.increment(Op.KS_INNER_PRODUCT);
        c.add(Op.LIMBS_READ, (storage == KeyStorage.SEEDED ? 2L : 3L) * beta * limbs);
        c.add(Op.LIMBS_WRITTEN, 2L * limbs);
    }

    /**
     * The digits' level, after checking that they are Decompose's digits at one level under this context: β(ℓ) of
     * them, each with its P limbs, of this ring's degree and in the NTT domain. Fewer digits would give a wrong
     * product, not an error.
     */
    int checkDigits(PolyQP[] digits) {
        Objects.requireNonNull(digits, "digits is null");
        if (digits.length == 0) throw new WrongOperandException("no digits: pass Decompose's output");
        for (int t = 0; t < digits.length; t++)
            if (digits[t] == null) throw new WrongOperandException("digit " + t + " is null");
        int level = ctx.params().checkLevel(digits[0].level());
        int beta = ctx.params().beta(level);
        if (digits.length != beta)
            throw new WrongOperandException(
                    "Decompose at level " + level + " gives " + beta + " digits, got " + digits.length);
        for (int t = 0; t < digits.length; t++) {
            PolyQP d = digits[t];
            if (d.level() != level)
                throw new LevelMismatchException("digit " + t + " is at level " + d.level() + ", digit 0 at " + level);
            if (d.isQOnly()) throw new WrongOperandException("digit " + t + " has no P limbs");
            if (d.domain() != Domain.NTT) throw new WrongOperandException("digit " + t + " is not in the NTT domain");
            if (!d.q().ring().sameAs(ctx.ringQ()) || !d.p().ring().sameAs(ctx.ringP()))
                throw new RingMismatchException("digit " + t + " belongs to another ring than this context's");
        }
        return level;
    }

    /** The range kernel's operands, checked in one call; returns the digits' level. */
    private int checkSwitch(
            PolyQP[] digits, SwitchingKey key, PolyQP addend, PolyQP outA, PolyQP outB, int from, int to) {
        int level = checkDigits(digits);
        checkKey(key, level);
        int limbs = level + 1 + ctx.alpha();
        if (from < 0 || to > limbs || from > to)
            throw new IllegalArgumentException("limb range [" + from + ", " + to + ") outside [0, " + limbs + ")");
        checkOutput(outA, level, to, "outA");
        checkOutput(outB, level, to, "outB");
        if (addend != null && addend.level() != level)
            throw new LevelMismatchException(
                    "the addend is at level " + addend.level() + ", the digits at level " + level);
        return level;
    }

    private static void checkOutput(PolyQP out, int level, int to, String name) {
        if (out == null) throw new NullPointerException(name + " is null"); // the message only when thrown
        if (out.level() != level)
            throw new LevelMismatchException(name + " is at level " + out.level() + ", the digits at level " + level);
        if (to > level + 1 && out.isQOnly()) throw new WrongOperandException(name + " has no P limbs");
    }

    void checkKey(SwitchingKey key, int level) {
        if (!key.params().equals(ctx.params()))
            throw new ParameterMismatchException("switching key made under other parameters");
        if (key.level() < level) {
            throw new LevelMismatchException("switching key generated at level " + key.level()
                    + " cannot switch a ciphertext at level " + level);
        }
    }

    /**
     * Lazy key switch then permutation (spec §2.4): (φ_g(a + ⟨D, SWK.b⟩), φ_g(⟨D, SWK.a⟩)) over QP —
     * a hoisted rotation without ModDown when a = P·c_0, and the middle/outer steps of
     * Algorithms 1–2 otherwise. Allocates its result; counts one KS-IP.
     */
    public PolyQP[] switchAndPermute(PolyQP[] digits, PolyQP a, GaloisKey key) {
        int level = checkDigits(digits);
        PolyQP oa = PolyQP.zero(ctx, level, Domain.NTT), ob = PolyQP.zero(ctx, level, Domain.NTT);
        int limbs = level + 1 + ctx.alpha();
        switchAndPermute(
                digits, key.key(), key.galoisElement(), a, oa, ob, false, 0, limbs, new long[n], new long[n], counters);
        countInnerProduct(counters, digits.length, limbs, key.key().storage());
        return new PolyQP[] {oa, ob};
    }

    /**
     * A whole key switch over Q at the digits' level: out_i = φ_g(ModDown(⟨digits, key_i⟩) + add_i)
     * (g = 1: no permutation; add_i may be null). Relinearization, rotation and conjugation are this
     * with their own key, g and addends; temporaries are borrowed from {@code pool}. Counts one KS-IP,
     * two ModDowns and, for g ≠ 1, the automorphism's limbs.
     *
     * <p>Fused limb by limb: the inner products' P limbs first (ModDown's prologue needs all of them),
     * then each Q limb of both goes from a scratch limb through ModDown's conversion, transform and tail
     * into the outputs; the inner products are never held whole (2(α + 1) limbs plus four per thread
     * instead of 2(ℓ + 1 + α) + (ℓ + 1) + (α + 1)). Bit-identical to the inner product followed by two
     * ModDowns.
     */
    public void keySwitch(
            PolyQP[] digits,
            SwitchingKey key,
            long g,
            RnsPoly add0,
            RnsPoly add1,
            RnsPoly out0,
            RnsPoly out1,
            LimbPool pool,
            OpCounters cnt) {
        int level = checkDigits(digits), lq = level + 1, alpha = ctx.alpha(), beta = digits.length;
        checkKey(key, level);
        NttPermutation perm =
                g == 1 ? null : Automorphism.nttPermutation(ctx.params().logN(), g);
        ModDown.checkTail(level, add0, out0, perm != null);
        ModDown.checkTail(level, add1, out1, perm != null);
        long[][] p0 = null, p1 = null; // the inner products' P limbs, then the ModDown prologues' own
        Prepared prep0 = null, prep1 = null;
        int threads = ctx.engine().threads();
        try {
            long[][] pa = p0 = pool.get(alpha), pb = p1 = pool.get(alpha);
            Parallel.ranges(threads, alpha, (from, to) -> {
                Terms h = Terms.of(key, beta, n);
                for (int jp = from; jp < to; jp++)
                    dotLimb(digits, key, lq + jp, lq, h, pa[jp], pb[jp], ctx.primeQP(level, lq + jp), false);
                h.clear();
            });
            prep0 = modDown.modDownPrepareInPlace(p0, level, pool, cnt);
            p0 = null;
            prep1 = modDown.modDownPrepareInPlace(p1, level, pool, cnt);
            p1 = null;
            Prepared q0 = prep0, q1 = prep1;
            // chunks taken in turn, not one range per thread: the limbs of primes above 2^50 take the integer
            // forms, up to 1.4× the FMA forms' time, and sit at the top of the chain, so halves were uneven
            Parallel.forEachChunk(threads, lq, (from, to) -> {
                Terms h = Terms.of(key, beta, n);
                long[][] x = null, v = null, at = new long[to][];
                try {
                    x = pool.get(2);
                    v = pool.get(2);
                    for (int j = from; j < to; j++) {
                        dotLimb(digits, key, j, lq, h, x[0], x[1], ctx.primeQP(level, j), false);
                        modDown.modDownLimbPair(
                                q0,
                                q1,
                                j,
                                x,
                                v,
                                at,
                                perm,
                                add0 == null ? null : add0.limb(j),
                                add1 == null ? null : add1.limb(j),
                                out0.limb(j),
                                out1.limb(j),
                                cnt);
                    }
                } finally {
                    h.clear();
                    if (x != null) pool.put(x);
                    if (v != null) pool.put(v);
                }
            });
        } finally {
            if (p0 != null) pool.put(p0);
            if (p1 != null) pool.put(p1);
            if (prep0 != null) prep0.release(pool);
            if (prep1 != null) prep1.release(pool);
        }
        out0.setDomain(Domain.NTT);
        out1.setDomain(Domain.NTT);
        int limbs = lq + alpha;
        countDots(cnt, beta, limbs, key.storage() == KeyStorage.SEEDED);
        countInnerProduct(cnt, beta, limbs, key.storage());
        ModDown.countModDown(cnt, limbs, lq);
        ModDown.countModDown(cnt, limbs, lq);
        if (perm != null) cnt.add(Op.AUTOMORPHISM_LIMBS, 2L * lq);
    }
}
