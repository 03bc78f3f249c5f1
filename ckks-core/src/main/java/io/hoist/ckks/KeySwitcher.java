package io.hoist.ckks;

import io.hoist.math.ModArith;
import io.hoist.ring.Automorphism;
import io.hoist.ring.BConv;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.LimbPool;
import io.hoist.ring.NttPermutation;
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

    public KeySwitcher(CkksContext ctx) {
        this.ctx = ctx;
        this.rq = ctx.ringQ();
        this.rp = ctx.ringP();
        this.counters = ctx.counters();
        this.kernels = ctx.engine().kernels();
        this.n = ctx.n();
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

    // ================================================================== Decompose

    /**
     * Prologue of Decompose: for every digit t of {@code coeff} (c ∈ R_{Q_ℓ}, coefficient domain)
     * the prepared conversion of its α_t limbs. Borrowed from {@code pool}; release each when done.
     */
    public Prepared[] decomposePrepare(RnsPoly coeff, LimbPool pool, OpCounters c) {
        if (coeff.domain() != Domain.COEFFICIENT)
            throw new WrongOperandException("decomposePrepare expects the coefficient form");
        int level = coeff.level();
        int beta = ctx.params().beta(level);
        Prepared[] out = new Prepared[beta];
        for (int t = 0; t < beta; t++) {
            int s = ctx.digitStart(t), e = ctx.digitEnd(t, level);
            long[][] in = new long[e - s][];
            for (int j = s; j < e; j++) in[j - s] = coeff.limb(j);
            BConv conv = ctx.decomposeConv(level, t);
            long[][] y = pool.get(e - s);
            long[] u = pool.get();
            conv.prepare(in, y, u, n, c, kernels);
            out[t] = new Prepared(conv, y, u, t);
        }
        return out;
    }

    /**
     * QP limbs [from, to) of every digit: digit t's own limbs are copied from {@code ntt} (the input
     * in the NTT domain) or, if it is null, from {@code coeff} and transformed; the others are
     * converted from the prepared digit and transformed, one backend call per digit.
     */
    public void decomposeLimbs(
            Prepared[] prep, RnsPoly coeff, RnsPoly ntt, PolyQP[] out, int from, int to, OpCounters c) {
        int level = coeff.level();
        int lq = level + 1;
        for (Prepared pr : prep) {
            int t = pr.digit;
            int s = ctx.digitStart(t), e = ctx.digitEnd(t, level), own = e - s;
            PolyQP d = out[t];
            long[][] targets = new long[lq - own + ctx.alpha()][];
            int tFrom = Integer.MAX_VALUE, tTo = Integer.MIN_VALUE;
            long[][] nttLimbs = new long[to - from][];
            NttTables[] nttTables = new NttTables[to - from];
            int nn = 0;
            for (int j = from; j < to; j++) {
                if (j >= s && j < e) {
                    if (ntt != null) {
                        System.arraycopy(ntt.limb(j), 0, d.limb(j), 0, n);
                        continue;
                    }
                    System.arraycopy(coeff.limb(j), 0, d.limb(j), 0, n);
                } else {
                    int ti = j < s ? j : j - own;
                    targets[ti] = d.limb(j);
                    tFrom = Math.min(tFrom, ti);
                    tTo = Math.max(tTo, ti + 1);
                }
                nttLimbs[nn] = d.limb(j);
                nttTables[nn++] = ctx.tablesQP(level, j);
            }
            if (tFrom < tTo) pr.conv.convert(pr.y, pr.u, targets, tFrom, tTo, n, c, kernels);
            ctx.engine().forward(nttLimbs, nttTables, nn, c);
        }
    }

    public void release(Prepared[] prep, LimbPool pool) {
        for (Prepared p : prep) if (p != null) p.release(pool);
    }

    /**
     * Decompose(c) into caller-owned digits (β QP polynomials at c's level, NTT domain): the INTT
     * copy and the prepared digits are borrowed from {@code pool} and returned. Counts one DECOMPOSE.
     */
    public void decompose(RnsPoly c, PolyQP[] out, LimbPool pool, OpCounters cnt) {
        int level = c.level();
        RnsPoly coeff;
        RnsPoly ntt;
        RnsPoly tmp = null;
        if (c.domain() == Domain.NTT) {
            tmp = rq.wrap(pool.get(level + 1), Domain.NTT);
            for (int j = 0; j <= level; j++) System.arraycopy(c.limb(j), 0, tmp.limb(j), 0, n);
            rq.intt(tmp, cnt);
            coeff = tmp;
            ntt = c;
        } else {
            coeff = c;
            ntt = null;
        }
        Prepared[] prep = decomposePrepare(coeff, pool, cnt);
        try {
            RnsPoly cf = coeff, nt = ntt;
            Parallel.ranges(
                    ctx.engine().threads(),
                    level + 1 + ctx.alpha(),
                    (from, to) -> decomposeLimbs(prep, cf, nt, out, from, to, cnt));
        } finally {
            release(prep, pool);
            if (tmp != null) pool.put(tmp.limbs());
        }
        for (PolyQP d : out) d.setDomain(Domain.NTT);
        cnt.increment(Op.DECOMPOSE);
        cnt.add(Op.LIMBS_READ, c.limbCount());
        cnt.add(Op.LIMBS_WRITTEN, (long) out.length * (level + 1 + ctx.alpha()));
    }

    /** Decompose(c) of an NTT-domain polynomial into new digits, counted in the engine's counters. */
    public PolyQP[] decompose(RnsPoly c) {
        if (c.domain() != Domain.NTT) throw new WrongOperandException("Decompose expects an NTT-domain polynomial");
        PolyQP[] digits = new PolyQP[ctx.params().beta(c.level())];
        for (int t = 0; t < digits.length; t++) digits[t] = PolyQP.zero(ctx, c.level(), Domain.NTT);
        decompose(c, digits, new LimbPool(n), counters);
        return digits;
    }

    // ================================================================== key inner product and permutation

    /**
     * The key-switching kernel of Algorithms 1–2, QP limbs [from, to):
     * outA = [outA +] φ_g(addend + Σ_t D_t ⊙ SWK[t].b), outB = [outB +] φ_g(Σ_t D_t ⊙ SWK[t].a),
     * with g = 1 meaning no permutation. {@code addend} may be null, or have no P part (a P·c_0
     * whose P limbs are zero). {@code t0}, {@code t1} are two caller-owned scratch limbs. Counts
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
        long[][] x = new long[beta][], y = new long[beta][], z = new long[beta][];
        int lq = level + 1;
        for (int j = from; j < to; j++) {
            int kj = j < lq ? j : key.level() + 1 + (j - lq); // the key may sit at a higher level
            for (int t = 0; t < beta; t++) {
                x[t] = digits[t].limb(j);
                y[t] = key.b(t).limb(kj);
                z[t] = key.a(t).limb(kj);
            }
            long q = ctx.primeQP(level, j);
            kernels.dot2Montgomery(x, y, z, beta, t0, t1, q, false);
            long[] add = addend == null || (j >= lq && addend.p() == null) ? null : addend.limb(j);
            if (idx == null) {
                addInto(t0, add, outA.limb(j), accumulate, q);
                addInto(t1, null, outB.limb(j), accumulate, q);
            } else {
                Automorphism.applyNttAdd(t0, add, outA.limb(j), idx, q, accumulate);
                Automorphism.applyNttAdd(t1, null, outB.limb(j), idx, q, accumulate);
            }
        }
        c.add(Op.MOD_MULS, 2L * beta * (to - from) * n);
        c.add(Op.AUTOMORPHISM_LIMBS, idx == null ? 0 : 2L * (to - from));
    }

    private static void addInto(long[] x, long[] y, long[] out, boolean accumulate, long q) {
        for (int k = 0; k < out.length; k++) {
            long v = x[k];
            if (y != null) {
                v += y[k];
                if (v >= q) v -= q;
            }
            if (accumulate) {
                v += out[k];
                if (v >= q) v -= q;
            }
            out[k] = v;
        }
    }

    /**
     * (T0, T1) = (Σ_t D_t ⊙ SWK[t].b, Σ_t D_t ⊙ SWK[t].a) over Q_ℓ·P, NTT; the key may sit at a higher
     * level than the digits (its first ℓ+1 Q limbs are used).
     */
    public PolyQP[] innerProduct(PolyQP[] digits, SwitchingKey key) {
        int level = digits[0].level();
        PolyQP t0 = PolyQP.zero(ctx, level, Domain.NTT), t1 = PolyQP.zero(ctx, level, Domain.NTT);
        long[] s0 = new long[n], s1 = new long[n];
        int limbs = level + 1 + ctx.alpha();
        switchAndPermute(digits, key, 1, null, t0, t1, false, 0, limbs, s0, s1, counters);
        countInnerProduct(counters, digits.length, limbs);
        return new PolyQP[] {t0, t1};
    }

    /** Counts one completed key inner product over {@code limbs} limbs with β = {@code beta}. */
    public static void countInnerProduct(OpCounters c, int beta, int limbs) {
        c.increment(Op.KS_INNER_PRODUCT);
        c.add(Op.LIMBS_READ, 3L * beta * limbs);
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
        countInnerProduct(counters, digits.length, limbs);
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
        long[] s0 = pool.get(), s1 = pool.get();
        RnsPoly u0 = null, u1 = null;
        try {
            switchAndPermute(digits, key, 1, null, t0, t1, false, 0, limbs, s0, s1, cnt);
            countInnerProduct(cnt, digits.length, limbs);
            if (g == 1) {
                modDown(t0, out0, pool, cnt);
                modDown(t1, out1, pool, cnt);
                if (add0 != null) rq.add(out0, add0, out0);
                if (add1 != null) rq.add(out1, add1, out1);
                return;
            }
            u0 = rq.wrap(pool.get(level + 1), Domain.NTT);
            u1 = rq.wrap(pool.get(level + 1), Domain.NTT);
            modDown(t0, u0, pool, cnt);
            modDown(t1, u1, pool, cnt);
            NttPermutation idx = Automorphism.nttPermutation(ctx.params().logN(), g);
            for (int j = 0; j <= level; j++) {
                Automorphism.applyNttAdd(
                        u0.limb(j), add0 == null ? null : add0.limb(j), out0.limb(j), idx, rq.prime(j), false);
                Automorphism.applyNttAdd(
                        u1.limb(j), add1 == null ? null : add1.limb(j), out1.limb(j), idx, rq.prime(j), false);
            }
            cnt.add(Op.AUTOMORPHISM_LIMBS, 2L * (level + 1));
        } finally {
            t0.release(pool);
            t1.release(pool);
            pool.put(s0);
            pool.put(s1);
            if (u0 != null) pool.put(u0.limbs());
            if (u1 != null) pool.put(u1.limbs());
        }
    }

    // ================================================================== ModDown

    /**
     * Prologue of ModDown: the P limbs of x (transformed to the coefficient form in borrowed
     * buffers if x is in the NTT domain) prepared for the centred conversion P → Q_ℓ.
     */
    public Prepared modDownPrepare(PolyQP x, LimbPool pool, OpCounters c) {
        int alpha = ctx.alpha();
        long[][] y = pool.get(alpha);
        long[][] in = x.p().limbs(); // the coefficient form is read in place; the NTT form is transformed in y
        if (x.domain() == Domain.NTT) {
            for (int j = 0; j < alpha; j++) System.arraycopy(x.p().limb(j), 0, y[j], 0, n);
            NttTables[] t = new NttTables[alpha];
            for (int j = 0; j < alpha; j++) t[j] = rp.tables(j);
            ctx.engine().inverse(y, t, alpha, c);
            in = y;
        }
        long[] u = pool.get();
        BConv conv = ctx.modDownConv(x.level());
        conv.prepare(in, y, u, n, c, kernels);
        return new Prepared(conv, y, u, -1);
    }

    /**
     * Q limbs [from, to) of ModDown(x) = (x_Q − [x]_P)·P^-1 with [x]_P centred, in x's domain
     * (converted limbs are transformed when x is in the NTT domain). {@code out} may be x's Q part.
     */
    public void modDownLimbs(PolyQP x, Prepared prep, RnsPoly out, int from, int to, LimbPool pool, OpCounters c) {
        dropLimbs(x.q(), x.domain(), prep, out, from, to, ctx.pInvModQ, ctx.pInvModQShoup, pool, c);
    }

    /** ModDown of x into {@code out} (Q at x's level, x's domain); counts one MOD_DOWN. */
    public void modDown(PolyQP x, RnsPoly out, LimbPool pool, OpCounters c) {
        Prepared p = modDownPrepare(x, pool, c);
        try {
            Parallel.ranges(
                    ctx.engine().threads(), x.level() + 1, (from, to) -> modDownLimbs(x, p, out, from, to, pool, c));
        } finally {
            p.release(pool);
        }
        out.setDomain(x.domain());
        countModDown(c, x.limbCount(), x.level() + 1);
    }

    /** Counts one completed ModDown. */
    public static void countModDown(OpCounters c, int limbsIn, int limbsOut) {
        c.increment(Op.MOD_DOWN);
        c.add(Op.LIMBS_READ, limbsIn);
        c.add(Op.LIMBS_WRITTEN, limbsOut);
    }

    /** ModDown: x ∈ R_{Q_ℓ·P} (NTT) → round(x/P) ∈ R_{Q_ℓ} (NTT), a new polynomial. */
    public RnsPoly modDown(PolyQP x) {
        RnsPoly out = rq.newPoly(x.level(), x.domain());
        modDown(x, out, new LimbPool(n), counters);
        return out;
    }

    /**
     * ModDown merged with rescale (spec §2.5): x ∈ R_{Q_ℓ·P} (NTT) → round(x/(q_ℓ·P)) ∈ R_{Q_{ℓ−1}}
     * (NTT) into {@code out}: one centred BConv and D limb transforms instead of D + (ℓ+1).
     * Counts one MOD_DOWN.
     */
    public void modDownRescale(PolyQP x, RnsPoly out, LimbPool pool, OpCounters c) {
        Prepared p = modDownRescalePrepare(x, pool, c);
        try {
            Parallel.ranges(
                    ctx.engine().threads(), x.level(), (from, to) -> modDownRescaleLimbs(x, p, out, from, to, pool, c));
        } finally {
            p.release(pool);
        }
        out.setDomain(Domain.NTT);
        countModDown(c, x.limbCount(), x.level());
    }

    /** Prologue of ModDown+rescale: the dropped limbs (q_ℓ and P) in the coefficient form, prepared for the centred conversion. */
    public Prepared modDownRescalePrepare(PolyQP x, LimbPool pool, OpCounters c) {
        int level = x.level();
        if (level == 0) throw new LevelMismatchException("cannot rescale a level-0 polynomial");
        if (x.domain() != Domain.NTT)
            throw new WrongOperandException("modDownRescale expects an NTT-domain polynomial");
        int alpha = ctx.alpha();
        long[][] y = pool.get(1 + alpha);
        NttTables[] t = new NttTables[1 + alpha];
        System.arraycopy(x.q().limb(level), 0, y[0], 0, n);
        t[0] = rq.tables(level);
        for (int j = 0; j < alpha; j++) {
            System.arraycopy(x.p().limb(j), 0, y[1 + j], 0, n);
            t[1 + j] = rp.tables(j);
        }
        ctx.engine().inverse(y, t, y.length, c);
        long[] u = pool.get();
        BConv conv = ctx.modDownRescaleConv(level);
        conv.prepare(y, y, u, n, c, kernels);
        return new Prepared(conv, y, u, -1);
    }

    /** Q limbs [from, to) ⊆ [0, ℓ) of ModDown+rescale from the prologue (NTT domain). */
    public void modDownRescaleLimbs(
            PolyQP x, Prepared prep, RnsPoly out, int from, int to, LimbPool pool, OpCounters c) {
        int level = x.level();
        dropLimbs(x.q(), Domain.NTT, prep, out, from, to, ctx.qpLastInv[level], ctx.qpLastInvShoup[level], pool, c);
    }

    public RnsPoly modDownRescale(PolyQP x) {
        RnsPoly out = rq.newPoly(x.level() - 1, Domain.NTT);
        modDownRescale(x, out, new LimbPool(n), counters);
        return out;
    }

    /**
     * The tail shared by ModDown and ModDown+rescale, Q limbs j ∈ [from, to):
     * out_j = (x_j − conv_j)·inv_j with conv the centred conversion of the dropped primes,
     * transformed first when the domain is NTT.
     */
    private void dropLimbs(
            RnsPoly xq,
            Domain domain,
            Prepared p,
            RnsPoly out,
            int from,
            int to,
            long[] inv,
            long[] invShoup,
            LimbPool pool,
            OpCounters c) {
        if (from >= to) return;
        long[][] conv = new long[to][];
        for (int j = from; j < to; j++) conv[j] = pool.get();
        try {
            p.conv.convert(p.y, p.u, conv, from, to, n, c, kernels);
            if (domain == Domain.NTT) {
                long[][] l = new long[to - from][];
                NttTables[] t = new NttTables[to - from];
                for (int j = from; j < to; j++) {
                    l[j - from] = conv[j];
                    t[j - from] = rq.tables(j);
                }
                ctx.engine().forward(l, t, to - from, c);
            }
            for (int j = from; j < to; j++)
                kernels.subMulShoup(xq.limb(j), conv[j], out.limb(j), inv[j], invShoup[j], rq.prime(j));
        } finally {
            for (int j = from; j < to; j++) pool.put(conv[j]);
        }
        c.add(Op.MOD_MULS, (long) (to - from) * n);
    }

    // ================================================================== rescale and helpers

    /** Rescale of one Q polynomial (NTT): divide by q_ℓ with rounding, drop the last limb. */
    public RnsPoly rescale(RnsPoly x) {
        return rescale(x, counters);
    }

    /** {@link #rescale(RnsPoly)} counted in {@code c}. */
    public RnsPoly rescale(RnsPoly x, OpCounters c) {
        int level = x.level();
        if (level == 0) throw new LevelMismatchException("cannot rescale a level-0 ciphertext");
        if (x.domain() != Domain.NTT) throw new WrongOperandException("rescale expects an NTT-domain polynomial");
        long ql = rq.prime(level);
        long[][] last = {x.limb(level).clone()};
        ctx.engine().inverse(last, new NttTables[] {rq.tables(level)}, 1, c);
        // centered residue of the last limb modulo every other prime: (v + h mod q_ℓ) mod q_j − h, h = ⌊q_ℓ/2⌋,
        // which rounds the division instead of flooring it; branch-free and vectorized
        long half = ql >>> 1;
        long[] shifted = last[0];
        for (int k = 0; k < shifted.length; k++) {
            long v = shifted[k] + half;
            shifted[k] = v >= ql ? v - ql : v;
        }
        RnsPoly conv = rq.newPoly(level - 1, Domain.COEFFICIENT);
        for (int j = 0; j < level; j++) {
            long q = rq.prime(j);
            long ws = ModArith.shoupQuotient(1, q); // v mod q as the Shoup product v·1
            long h = ModArith.mulShoup(half, 1, ws, q);
            long[] dst = conv.limb(j);
            kernels.mulShoup(shifted, 1, ws, q, dst, 0, dst.length);
            for (int k = 0; k < dst.length; k++) {
                long d = dst[k] - h;
                dst[k] = d < 0 ? d + q : d;
            }
        }
        rq.ntt(conv, c);
        RnsPoly out = conv;
        for (int j = 0; j < level; j++) {
            kernels.subMulShoup(
                    x.limb(j),
                    conv.limb(j),
                    out.limb(j),
                    ctx.qLastInv[level][j],
                    ctx.qLastInvShoup[level][j],
                    rq.prime(j));
        }
        c.add(Op.MOD_MULS, (long) level * ctx.n());
        return out;
    }

    /** In place: every residue x → x·2^64 mod q (Montgomery form, as switching keys and encoded diagonals are held). */
    public void toMontgomery(PolyQP x) {
        toMontgomery(x.q(), rq);
        toMontgomery(x.p(), rp);
    }

    private void toMontgomery(RnsPoly p, Ring ring) {
        for (int i = 0; i < p.limbCount(); i++) toMontgomery(p.limb(i), ring.prime(i));
    }

    /** In place: one limb modulo q into Montgomery form. */
    public void toMontgomery(long[] limb, long q) {
        long r = ModArith.montgomeryR(q);
        kernels.mulShoup(limb, r, ModArith.shoupQuotient(r, q), q, limb, 0, limb.length);
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
