package io.hoist.ckks;

import io.hoist.random.Prng;
import io.hoist.ring.Automorphism;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.LimbPool;
import io.hoist.ring.NttPermutation;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.util.Objects;

/** The key inner product of hybrid key switching (spec §2.4) with the automorphism folded into its output, and the plain key switch built on it. Reached through {@link KeySwitcher}. */
final class KeyInnerProduct {
    private final KeySwitcher ks;
    private final CkksContext ctx;
    private final Ring rq;
    private final OpCounters counters;
    private final LimbKernels kernels;
    private final int n;

    KeyInnerProduct(KeySwitcher ks, CkksContext ctx) {
        this.ks = ks;
        this.ctx = ctx;
        this.rq = ctx.ringQ();
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
        int level = digits[0].level();
        checkKey(key, level);
        int beta = digits.length;
        NttPermutation idx =
                g == 1 ? null : Automorphism.nttPermutation(ctx.params().logN(), g);
        if (idx != null && (t0 == null || t1 == null))
            throw new IllegalArgumentException("a permuted key inner product needs two scratch limbs");
        long[][] x = new long[beta][], y = new long[beta][], z = new long[beta][];
        boolean seeded = key.storage() == KeyStorage.SEEDED;
        Expander ex = seeded ? Expander.of(beta, n) : null;
        int lq = level + 1;
        for (int j = from; j < to; j++) {
            int kj = j < lq ? j : key.level() + 1 + (j - lq); // the key may sit at a higher level
            for (int t = 0; t < beta; t++) {
                x[t] = digits[t].limb(j);
                y[t] = key.b(t, RawAccess.get()).limb(kj);
                if (seeded) {
                    key.uniformLimb(t, kj, ex.limbs[t], ex.prng); // regenerated, not streamed from memory
                    z[t] = ex.limbs[t];
                } else {
                    z[t] = key.a(t, RawAccess.get()).limb(kj);
                }
            }
            long q = ctx.primeQP(level, j);
            long[] add = addend == null || (j >= lq && addend.isQOnly()) ? null : addend.limb(j);
            if (idx == null) { // straight into the outputs, no scratch limb copied out
                kernels.dot2Montgomery(x, y, z, beta, outA.limb(j), outB.limb(j), q, accumulate);
                if (add != null) LimbKernels.addMod(outA.limb(j), add, outA.limb(j), q);
            } else {
                kernels.dot2Montgomery(x, y, z, beta, t0, t1, q, false);
                kernels.automorphismNttFromScratch(t0, add, outA.limb(j), idx, q, accumulate);
                kernels.automorphismNtt(t1, null, outB.limb(j), idx, q, accumulate);
            }
        }
        c.add(Op.MOD_MULS, 2L * beta * (to - from) * n);
        c.add(Op.AUTOMORPHISM_LIMBS, idx == null ? 0 : 2L * (to - from));
        if (seeded) c.add(Op.KEY_LIMBS_EXPANDED, (long) beta * (to - from));
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
        int level = digits[0].level();
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
        int level = digits[0].level();
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
        int level = digits[0].level(), limbs = level + 1 + ctx.alpha();
        PolyQP t0 = PolyQP.borrow(ctx, pool, level, Domain.NTT), t1 = PolyQP.borrow(ctx, pool, level, Domain.NTT);
        try {
            switchAndPermute(digits, key, 1, null, t0, t1, false, 0, limbs, null, null, cnt);
            countInnerProduct(cnt, digits.length, limbs, key.storage());
            NttPermutation idx =
                    g == 1 ? null : Automorphism.nttPermutation(ctx.params().logN(), g);
            ks.modDownFinish(t0, idx, add0, out0, pool, cnt);
            ks.modDownFinish(t1, idx, add1, out1, pool, cnt);
            if (idx != null) cnt.add(Op.AUTOMORPHISM_LIMBS, 2L * (level + 1));
        } finally {
            t0.release(pool);
            t1.release(pool);
        }
    }
}
