package io.hoist.ckks;

import io.hoist.ckks.KeySwitcher.Prepared;
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

/** ModDown (QP → Q) and ModDown merged with the rescale (spec §2.5): the prologue on the dropped limbs and the kernel over Q limb ranges. Reached through {@link KeySwitcher}. */
final class ModDown {
    private final CkksContext ctx;
    private final Ring rq;
    private final Ring rp;
    private final OpCounters counters;
    private final LimbKernels kernels;
    private final int n;

    ModDown(CkksContext ctx) {
        this.ctx = ctx;
        this.rq = ctx.ringQ();
        this.rp = ctx.ringP();
        this.counters = ctx.counters();
        this.kernels = ctx.engine().kernels();
        this.n = ctx.n();
    }

    /**
     * Prologue of ModDown: the P limbs of x (transformed to the coefficient form in borrowed
     * buffers if x is in the NTT domain) prepared for the centred conversion P → Q_ℓ.
     */
    public Prepared modDownPrepare(PolyQP x, LimbPool pool, OpCounters c) {
        int alpha = ctx.alpha();
        long[][] y = pool.get(alpha);
        try {
            if (x.domain() == Domain.NTT) { // transformed in y; the coefficient form is read in place
                for (int j = 0; j < alpha; j++) System.arraycopy(x.p().limb(j), 0, y[j], 0, n);
                return modDownPrepareInPlace(y, x.level(), pool, c);
            }
            return prepare(x.p().limbs(), y, x.level(), pool, c);
        } catch (RuntimeException | Error e) { // e.g. an interrupted parallel INTT: y goes back
            pool.put(y);
            throw e;
        }
    }

    /**
     * Prologue of ModDown from the α P limbs of x in borrowed buffers (NTT domain), transformed and
     * prepared in place: they become the prologue's y and go back with it.
     */
    Prepared modDownPrepareInPlace(long[][] pNtt, int level, LimbPool pool, OpCounters c) {
        int alpha = ctx.alpha();
        NttTables[] t = new NttTables[alpha];
        for (int j = 0; j < alpha; j++) t[j] = rp.tables(j);
        ctx.engine().inverse(pNtt, t, alpha, c);
        return prepare(pNtt, pNtt, level, pool, c);
    }

    /** The prologue's u is borrowed here and goes back if preparing fails; y stays the caller's until it returns. */
    private Prepared prepare(long[][] in, long[][] y, int level, LimbPool pool, OpCounters c) {
        long[] u = pool.get();
        try {
            BConv conv = ctx.modDownConv(level);
            conv.prepare(in, y, u, n, c, kernels);
            return new Prepared(conv, y, u, -1);
        } catch (RuntimeException | Error e) {
            pool.put(u);
            throw e;
        }
    }

    /**
     * Q limbs [from, to) of ModDown(x) = (x_Q − [x]_P)·P^-1 with [x]_P centred, in x's domain
     * (converted limbs are transformed when x is in the NTT domain). {@code out} may be x's Q part.
     */
    public void modDownLimbs(PolyQP x, Prepared prep, RnsPoly out, int from, int to, LimbPool pool, OpCounters c) {
        dropLimbs(x.q(), x.domain(), prep, out, from, to, ctx.pInvModQ, ctx.pInvModQShoup, pool, c);
    }

    /** ModDown of x into {@code out} (Q at x's level, x's domain) over the engine's threads; counts one MOD_DOWN. */
    public void modDown(PolyQP x, RnsPoly out, LimbPool pool, OpCounters c) {
        Prepared p = modDownPrepare(x, pool, c);
        try {
            Parallel.forEachChunk( // chunks in turn: uneven limbs (KeyInnerProduct.keySwitch)
                    ctx.engine().threads(),
                    x.level() + 1,
                    (from, to) ->
                            dropLimbs(x.q(), x.domain(), p, out, from, to, ctx.pInvModQ, ctx.pInvModQShoup, pool, c));
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
            Parallel.forEachChunk(
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
        long[] u = null;
        try { // e.g. an interrupted parallel INTT: y and u go back
            NttTables[] t = new NttTables[1 + alpha];
            System.arraycopy(x.q().limb(level), 0, y[0], 0, n);
            t[0] = rq.tables(level);
            for (int j = 0; j < alpha; j++) {
                System.arraycopy(x.p().limb(j), 0, y[1 + j], 0, n);
                t[1 + j] = rp.tables(j);
            }
            ctx.engine().inverse(y, t, y.length, c);
            u = pool.get();
            BConv conv = ctx.modDownRescaleConv(level);
            conv.prepare(y, y, u, n, c, kernels);
            return new Prepared(conv, y, u, -1);
        } catch (RuntimeException | Error e) {
            pool.put(y);
            if (u != null) pool.put(u);
            throw e;
        }
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
     * What a key switch's tail at {@code level} needs: an NTT-domain addend of ℓ + 1 limbs (or none) and
     * an output of at least ℓ + 1 limbs, which a permuted tail cannot write over its addend.
     */
    static void checkTail(int level, RnsPoly add, RnsPoly out, boolean permuted) {
        int limbs = level + 1;
        if (out.limbCount() < limbs || (add != null && (add.limbCount() != limbs || add.domain() != Domain.NTT))) {
            throw new LevelMismatchException("a key switch at level " + level + " needs " + limbs
                    + " NTT-domain limbs to add and to write, got "
                    + (add == null ? "no addend" : add.limbCount() + " (" + add.domain() + ")") + " and "
                    + out.limbCount());
        }
        // the arrays, not the holders: a level view (dropLevel) is another holder over the same limbs
        if (permuted && add != null && add.limb(0) == out.limb(0))
            throw new IllegalArgumentException("a key switch with a permutation cannot add in place");
    }

    /**
     * Q limb j of out_i = φ(ModDown(x_i) + add_i) for the two polynomials of a key switch, from their
     * prologues and their limb j in x[i] (read only): both conversions into the scratch limbs v, one
     * transform call, then the tails. {@code at} is a holder of at least j + 1 entries (its entry j is
     * overwritten). perm and the addends may be null.
     */
    void modDownLimbPair(
            Prepared p0,
            Prepared p1,
            int j,
            long[][] x,
            long[][] v,
            long[][] at,
            NttPermutation perm,
            long[] add0,
            long[] add1,
            long[] out0,
            long[] out1,
            OpCounters c) {
        at[j] = v[0]; // convert writes target limb j into at[j]
        p0.conv.convert(p0.y, p0.u, at, j, j + 1, n, c, kernels);
        at[j] = v[1];
        p1.conv.convert(p1.y, p1.u, at, j, j + 1, n, c, kernels);
        NttTables t = rq.tables(j);
        ctx.engine().forward(v, new NttTables[] {t, t}, 2, c);
        long q = rq.prime(j);
        tail(x[0], v[0], out0, ctx.pInvModQ[j], ctx.pInvModQShoup[j], q, perm, add0);
        tail(x[1], v[1], out1, ctx.pInvModQ[j], ctx.pInvModQShoup[j], q, perm, add1);
        c.add(Op.MOD_MULS, 2L * n);
    }

    /** out = φ((x − conv)·inv + add) for one limb; conv is scratch; perm and add may be null. */
    private void tail(
            long[] x, long[] conv, long[] out, long inv, long invShoup, long q, NttPermutation perm, long[] add) {
        if (perm == null && add == null) {
            kernels.subMulShoup(x, conv, out, inv, invShoup, q);
        } else {
            kernels.subMulShoup(x, conv, conv, inv, invShoup, q);
            if (perm != null) kernels.automorphismNttFromScratch(conv, add, out, perm, q, false);
            else LimbKernels.addMod(conv, add, out, q);
        }
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
                tail(xq.limb(j), conv[j], out.limb(j), inv[j], invShoup[j], rq.prime(j), null, null);
        } finally {
            for (int j = from; j < to; j++) pool.put(conv[j]);
        }
        c.add(Op.MOD_MULS, (long) (to - from) * n);
    }
}
