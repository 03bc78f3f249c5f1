package io.hoist.ckks;

import io.hoist.math.ModArith;
import io.hoist.ring.BConv;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.LimbPool;
import io.hoist.ring.NttTables;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Parallel;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;

/**
 * Hybrid key switching as explicit, separately counted steps (spec lt-algorithms §2.4–2.5):
 * Decompose (ModUp of every digit into QP), the key inner product (⟨D, SWK⟩ over QP with lazy
 * reduction), ModDown (QP → Q, one polynomial) and ModDown merged with rescale (drop {q_ℓ} ∪ P).
 *
 * <p>Two layers. The <b>kernels</b> take the limb range to produce, write into buffers the caller
 * owns, borrow temporaries from a {@link LimbPool} and count into the {@link OpCounters} they are
 * given (an evaluation's own): {@link #decomposePrepare}/{@link #decomposeLimbs},
 * {@link #switchAndPermute(PolyQP[], SwitchingKey, long, PolyQP, PolyQP, PolyQP, boolean, int, int, long[], long[], OpCounters)},
 * {@link #modDownPrepare}/{@link #modDownLimbs}, {@link #modDownRescale(PolyQP, RnsPoly, LimbPool, OpCounters)}.
 * The <b>whole-polynomial methods</b> ({@link #decompose(RnsPoly)}, {@link #innerProduct},
 * {@link #modDown(PolyQP)}, …) are thin wrappers over the kernels that allocate their results and
 * count into the engine's counters; they also count the step itself (DECOMPOSE, MOD_DOWN, KS-IP).
 *
 * <p>The steps live one concept per file — {@code Decompose}, {@code KeyInnerProduct} and
 * {@code ModDown} (package-private) — and this class is their facade, with the rescale and the
 * small QP helpers.
 *
 * <p>Every conversion is the exact, centred BConv (see {@link BConv}): ModDown and ModDown+rescale
 * round instead of flooring, so key switching adds no bias to the slots. Stateless apart from the
 * shared context: safe to use from several threads.
 */
public final class KeySwitcher {
    private final CkksContext ctx;
    private final Ring rq;
    private final Ring rp;
    private final OpCounters counters;
    private final LimbKernels kernels;
    private final int n;
    private final Decompose decompose;
    private final KeyInnerProduct keyInnerProduct;
    private final ModDown modDown;

    public KeySwitcher(CkksContext ctx) {
        this.ctx = ctx;
        this.rq = ctx.ringQ();
        this.rp = ctx.ringP();
        this.counters = ctx.counters();
        this.kernels = ctx.engine().kernels();
        this.n = ctx.n();
        this.decompose = new Decompose(ctx);
        this.modDown = new ModDown(ctx);
        this.keyInnerProduct = new KeyInnerProduct(ctx, modDown);
    }

    public CkksContext context() {
        return ctx;
    }

    /**
     * The first half of a basis conversion of one polynomial: the prepared source limbs y_i and the
     * centring estimate u. Kept while the target limbs are produced range by range.
     */
    public static final class Prepared {
        final BConv conv;
        final long[][] y;
        final long[] u;
        final int digit;

        Prepared(BConv conv, long[][] y, long[] u, int digit) {
            this.conv = conv;
            this.y = y;
            this.u = u;
            this.digit = digit;
        }

        /** Limbs held (source limbs and the centring row). */
        public int limbs() {
            return y.length + 1;
        }

        public void release(LimbPool pool) {
            pool.put(y);
            pool.put(u);
        }
    }

    // ---- Decompose (in Decompose.java)

    /**
     * Prologue of Decompose: for every digit t of {@code coeff} (c ∈ R_{Q_ℓ}, coefficient domain)
     * the prepared conversion of its α_t limbs. Borrowed from {@code pool}; release each when done.
     */
    public Prepared[] decomposePrepare(RnsPoly coeff, LimbPool pool, OpCounters c) {
        return decompose.decomposePrepare(coeff, pool, c);
    }

    /**
     * QP limbs [from, to) of every digit: digit t's own limbs are copied from {@code ntt} (the input
     * in the NTT domain) or, if it is null, from {@code coeff} and transformed; the others are
     * converted from the prepared digit and transformed, in one backend call for all digits (which
     * must be distinct). Spread over the engine's threads; from a worker, on it alone.
     */
    public void decomposeLimbs(
            Prepared[] prep, RnsPoly coeff, RnsPoly ntt, PolyQP[] out, int from, int to, OpCounters c) {
        decompose.decomposeLimbs(prep, coeff, ntt, out, from, to, c);
    }

    public void release(Prepared[] prep, LimbPool pool) {
        decompose.release(prep, pool);
    }

    /**
     * Decompose(c) into caller-owned digits (β QP polynomials at c's level, NTT domain): the INTT
     * copy and the prepared digits are borrowed from {@code pool} and returned. Counts one DECOMPOSE.
     */
    public void decompose(RnsPoly c, PolyQP[] out, LimbPool pool, OpCounters cnt) {
        decompose.decompose(c, out, pool, cnt);
    }

    /** Decompose(c) of an NTT-domain polynomial into new digits, counted in the engine's counters. */
    public PolyQP[] decompose(RnsPoly c) {
        return decompose.decompose(c);
    }

    // ---- KeyInnerProduct (in KeyInnerProduct.java)

    /**
     * The key-switching kernel of Algorithms 1–2, QP limbs [from, to):
     * outA = [outA +] φ_g(addend + Σ_t D_t ⊙ SWK[t].b), outB = [outB +] φ_g(Σ_t D_t ⊙ SWK[t].a),
     * with g = 1 meaning no permutation. {@code addend} may be null, or have no P part (a P·c_0
     * whose P limbs are zero). {@code t0}, {@code t1} are two caller-owned scratch limbs for g ≠ 1 (may be null for g = 1). Counts
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
        keyInnerProduct.switchAndPermute(digits, key, g, addend, outA, outB, accumulate, from, to, t0, t1, c);
    }

    /**
     * (T0, T1) = (Σ_t D_t ⊙ SWK[t].b, Σ_t D_t ⊙ SWK[t].a) over Q_ℓ·P, NTT; the key may sit at a higher
     * level than the digits (its first ℓ+1 Q limbs are used).
     */
    /** The level of Decompose's digits after {@link KeyInnerProduct#checkDigits}'s checks. */
    int checkDigits(PolyQP[] digits) {
        return keyInnerProduct.checkDigits(digits);
    }

    public PolyQP[] innerProduct(PolyQP[] digits, SwitchingKey key) {
        return keyInnerProduct.innerProduct(digits, key);
    }

    /** Counts one completed key inner product over {@code limbs} limbs with β = {@code beta}. */
    public static void countInnerProduct(OpCounters c, int beta, int limbs) {
        countInnerProduct(c, beta, limbs, KeyStorage.FULL);
    }

    /** {@link #countInnerProduct(OpCounters, int, int)} with a key of {@code storage} (a seeded key's a limbs are made, not read). */
    public static void countInnerProduct(OpCounters c, int beta, int limbs, KeyStorage storage) {
        KeyInnerProduct.countInnerProduct(c, beta, limbs, storage);
    }

    /**
     * Lazy key switch then permutation (spec §2.4): (φ_g(a + ⟨D, SWK.b⟩), φ_g(⟨D, SWK.a⟩)) over QP —
     * a hoisted rotation without ModDown when a = P·c_0, and the middle/outer steps of
     * Algorithms 1–2 otherwise. Allocates its result; counts one KS-IP.
     */
    public PolyQP[] switchAndPermute(PolyQP[] digits, PolyQP a, GaloisKey key) {
        return keyInnerProduct.switchAndPermute(digits, a, key);
    }

    /**
     * A whole key switch over Q at the digits' level: out_i = φ_g(ModDown(⟨digits, key_i⟩) + add_i)
     * (g = 1: no permutation; add_i may be null). Relinearization, rotation and conjugation are this
     * with their own key, g and addends; temporaries are borrowed from {@code pool}. Counts one KS-IP,
     * two ModDowns and, for g ≠ 1, the automorphism's limbs. With g = 1 an output may be its addend
     * (added in place, limb by limb); a permutation cannot run in place.
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
        keyInnerProduct.keySwitch(digits, key, g, add0, add1, out0, out1, pool, cnt);
    }

    // ---- ModDown (in ModDown.java)

    /**
     * Prologue of ModDown: the P limbs of x (transformed to the coefficient form in borrowed
     * buffers if x is in the NTT domain) prepared for the centred conversion P → Q_ℓ.
     */
    public Prepared modDownPrepare(PolyQP x, LimbPool pool, OpCounters c) {
        return modDown.modDownPrepare(x, pool, c);
    }

    /**
     * Q limbs [from, to) of ModDown(x) = (x_Q − [x]_P)·P^-1 with [x]_P centred, in x's domain
     * (converted limbs are transformed when x is in the NTT domain). {@code out} may be x's Q part.
     */
    public void modDownLimbs(PolyQP x, Prepared prep, RnsPoly out, int from, int to, LimbPool pool, OpCounters c) {
        modDown.modDownLimbs(x, prep, out, from, to, pool, c);
    }

    /** ModDown of x into {@code out} (Q at x's level, x's domain); counts one MOD_DOWN. */
    public void modDown(PolyQP x, RnsPoly out, LimbPool pool, OpCounters c) {
        modDown.modDown(x, out, pool, c);
    }

    /** Counts one completed ModDown. */
    public static void countModDown(OpCounters c, int limbsIn, int limbsOut) {
        ModDown.countModDown(c, limbsIn, limbsOut);
    }

    /** ModDown: x ∈ R_{Q_ℓ·P} (NTT) → round(x/P) ∈ R_{Q_ℓ} (NTT), a new polynomial. */
    public RnsPoly modDown(PolyQP x) {
        return modDown.modDown(x);
    }

    /**
     * ModDown merged with rescale (spec §2.5): x ∈ R_{Q_ℓ·P} (NTT) → round(x/(q_ℓ·P)) ∈ R_{Q_{ℓ−1}}
     * (NTT) into {@code out}: one centred BConv and D limb transforms instead of D + (ℓ+1).
     * Counts one MOD_DOWN.
     */
    public void modDownRescale(PolyQP x, RnsPoly out, LimbPool pool, OpCounters c) {
        modDown.modDownRescale(x, out, pool, c);
    }

    /** Prologue of ModDown+rescale: the dropped limbs (q_ℓ and P) in the coefficient form, prepared for the centred conversion. */
    public Prepared modDownRescalePrepare(PolyQP x, LimbPool pool, OpCounters c) {
        return modDown.modDownRescalePrepare(x, pool, c);
    }

    /** Q limbs [from, to) ⊆ [0, ℓ) of ModDown+rescale from the prologue (NTT domain). */
    public void modDownRescaleLimbs(
            PolyQP x, Prepared prep, RnsPoly out, int from, int to, LimbPool pool, OpCounters c) {
        modDown.modDownRescaleLimbs(x, prep, out, from, to, pool, c);
    }

    public RnsPoly modDownRescale(PolyQP x) {
        return modDown.modDownRescale(x);
    }

    // ================================================================== rescale and helpers

    /** Rescale of one Q polynomial (NTT): divide by q_ℓ with rounding, drop the last limb. */
    public RnsPoly rescale(RnsPoly x) {
        return rescale(x, counters);
    }

    /** {@link #rescale(RnsPoly)} counted in {@code c}. */
    public RnsPoly rescale(RnsPoly x, OpCounters c) {
        if (x.level() == 0) throw new LevelMismatchException("cannot rescale a level-0 ciphertext");
        RnsPoly out = rq.newPoly(x.level() - 1, Domain.NTT);
        rescale(x, out, new LimbPool(n), c);
        return out;
    }

    /**
     * Rescale of one Q polynomial (NTT) into {@code out} (level ℓ−1; may be x itself viewed at ℓ−1):
     * out_j = (x_j − NTT([x_ℓ] mod q_j))·q_ℓ^-1, limb by limb, so the converted limb is lifted,
     * transformed and consumed while it is in cache. Spread over the engine's threads.
     */
    public void rescale(RnsPoly x, RnsPoly out, LimbPool pool, OpCounters c) {
        rescale(new RnsPoly[] {x}, new RnsPoly[] {out}, pool, c);
    }

    /**
     * {@link #rescale(RnsPoly, RnsPoly, LimbPool, OpCounters)} of several polynomials at one level (a
     * ciphertext's parts), prime by prime: each prime's twiddles are read once for all of them.
     */
    public void rescale(RnsPoly[] xs, RnsPoly[] outs, LimbPool pool, OpCounters c) {
        int parts = xs.length;
        if (parts == 0) throw new IllegalArgumentException("no polynomials to rescale");
        if (outs.length != parts)
            throw new IllegalArgumentException(parts + " polynomials to rescale and " + outs.length + " outputs");
        int level = xs[0].level();
        for (int p = 0; p < parts; p++) {
            RnsPoly x = xs[p], out = outs[p];
            if (x.level() == 0) throw new LevelMismatchException("cannot rescale a level-0 ciphertext");
            if (x.level() != level)
                throw new LevelMismatchException("the parts to rescale are at levels " + level + " and " + x.level());
            if (x.domain() != Domain.NTT) throw new WrongOperandException("rescale expects an NTT-domain polynomial");
            if (out.limbCount() != level)
                throw new LevelMismatchException("the rescale of a level-" + level + " polynomial has " + level
                        + " limbs, out has " + out.limbCount());
            if (x.n() != n || out.n() != n || pool.n() != n)
                throw new IllegalArgumentException("rescale at N = " + n + " got limbs of " + x.n() + ", " + out.n()
                        + " and a pool of " + pool.n());
        }
        long ql = rq.prime(level);
        long[][] centred = new long[parts][];
        NttTables[] last = new NttTables[parts];
        try {
            for (int p = 0; p < parts; p++) {
                centred[p] = pool.get();
                System.arraycopy(xs[p].limb(level), 0, centred[p], 0, n);
                last[p] = rq.tables(level);
            }
            ctx.engine().inverse(centred, last, parts, c);
            // the centred residue rounds the division instead of flooring it
            for (long[] cp : centred) LimbKernels.centre(cp, ql);
            Parallel.forEachChunk(ctx.engine().threads(), level, (from, to) -> {
                long[][] conv = new long[parts][];
                NttTables[] t = new NttTables[parts];
                try {
                    for (int p = 0; p < parts; p++) conv[p] = pool.get();
                    for (int j = from; j < to; j++) {
                        long q = rq.prime(j);
                        long one = ModArith.shoupQuotient(1, q);
                        for (int p = 0; p < parts; p++) {
                            kernels.liftSigned(centred[p], 1, one, q, conv[p]);
                            t[p] = rq.tables(j);
                        }
                        ctx.engine().forward(conv, t, parts, c);
                        for (int p = 0; p < parts; p++)
                            kernels.subMulShoup(
                                    xs[p].limb(j),
                                    conv[p],
                                    outs[p].limb(j),
                                    ctx.qLastInv[level][j],
                                    ctx.qLastInvShoup[level][j],
                                    q);
                    }
                } finally {
                    for (long[] cv : conv) if (cv != null) pool.put(cv);
                }
            });
        } finally {
            for (long[] cp : centred) if (cp != null) pool.put(cp);
        }
        for (RnsPoly out : outs) out.setDomain(Domain.NTT);
        c.add(Op.MOD_MULS, (long) parts * level * n);
    }

    /** In place: every residue x → x·2^64 mod q (Montgomery form, as switching keys and encoded diagonals are held). */
    public void toMontgomery(PolyQP x) {
        toMontgomery(x.q(), rq);
        toMontgomery(x.p(), rp);
    }

    /** In place: every residue of a polynomial over Q into Montgomery form. */
    public void toMontgomeryQ(RnsPoly p) {
        toMontgomery(p, rq);
    }

    private void toMontgomery(RnsPoly p, Ring ring) {
        for (int i = 0; i < p.limbCount(); i++) {
            NttTables t = ring.tables(i);
            long[] limb = p.limb(i);
            kernels.mulShoup(limb, t.montgomeryR(), t.montgomeryRShoup(), t.q(), limb, 0, limb.length);
        }
    }

    /** out = a + b over QP (out may alias a or b). */
    public void add(PolyQP a, PolyQP b, PolyQP out) {
        rq.add(a.q(), b.q(), out.q());
        rp.add(a.p(), b.p(), out.p());
    }

    /** φ_g over QP into a new polynomial (NTT domain: an index permutation, no arithmetic). */
    public PolyQP automorphism(PolyQP x, long g) {
        PolyQP out = PolyQP.zero(ctx, x.level(), x.q().domain());
        rq.automorphism(x.q(), g, out.q());
        rp.automorphism(x.p(), g, out.p());
        return out;
    }

    /** P·c into {@code out} (Q limbs only, same level and domain as c): c's limbs times [P]_{q_j}. */
    public void timesP(RnsPoly c, RnsPoly out, OpCounters cnt) {
        for (int j = 0; j <= c.level(); j++) {
            long w = ctx.pModQ[j], q = rq.prime(j), ws = ModArith.shoupQuotient(w, q);
            kernels.mulShoup(c.limb(j), w, ws, q, out.limb(j), 0, n);
        }
        out.setDomain(c.domain());
        cnt.add(Op.MOD_MULS, (long) c.limbCount() * n);
    }

    /** P·c over QP: c's limbs times [P]_{q_j}; the P limbs are zero. */
    public PolyQP timesP(RnsPoly c) {
        PolyQP out = PolyQP.zero(ctx, c.level(), c.domain());
        timesP(c, out.q(), counters);
        return out;
    }
}
