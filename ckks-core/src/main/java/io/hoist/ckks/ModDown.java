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
        dropLimbs(x.q(), x.domain(), prep, out, from, to, ctx.pInvModQ, ctx.pInvModQShoup, null, null, pool, c);
    }

    /** ModDown of x into {@code out} (Q at x's level, x's domain); counts one MOD_DOWN. */
    public void modDown(PolyQP x, RnsPoly out, LimbPool pool, OpCounters c) {
        modDown(x, null, null, out, pool, c);
    }

    /** out = φ(ModDown(x) + add) over all Q limbs, spread over the engine's threads; counts one MOD_DOWN. */
    private void modDown(PolyQP x, NttPermutation perm, RnsPoly add, RnsPoly out, LimbPool pool, OpCounters c) {
        Prepared p = modDownPrepare(x, pool, c);
        try {
            Parallel.ranges(
                    ctx.engine().threads(),
                    x.level() + 1,
                    (from, to) -> dropLimbs(
                            x.q(), x.domain(), p, out, from, to, ctx.pInvModQ, ctx.pInvModQShoup, perm, add, pool, c));
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
        dropLimbs(
                x.q(),
                Domain.NTT,
                prep,
                out,
                from,
                to,
                ctx.qpLastInv[level],
                ctx.qpLastInvShoup[level],
                null,
                null,
                pool,
                c);
    }

    public RnsPoly modDownRescale(PolyQP x) {
        RnsPoly out = rq.newPoly(x.level() - 1, Domain.NTT);
        modDownRescale(x, out, new LimbPool(n), counters);
        return out;
    }

    /**
     * ModDown fused with what follows it in a key switch: out = φ(ModDown(x) + add) ({@code perm} null:
     * no permutation; {@code add} null: nothing added), the permutation folded into the tail. x, add and
     * out in the NTT domain at x's level; out must not alias x. Counts one MOD_DOWN (the permutation's
     * limbs are the caller's to count).
     */
    public void modDownFinish(PolyQP x, NttPermutation perm, RnsPoly add, RnsPoly out, LimbPool pool, OpCounters c) {
        if (x.domain() != Domain.NTT)
            throw new WrongOperandException("a key switch's ModDown expects an NTT-domain polynomial");
        int limbs = x.level() + 1;
        if (out.limbCount() < limbs || (add != null && (add.limbCount() != limbs || add.domain() != Domain.NTT))) {
            throw new LevelMismatchException("a key switch at level " + x.level() + " needs " + limbs
                    + " NTT-domain limbs to add and to write, got "
                    + (add == null ? "no addend" : add.limbCount() + " (" + add.domain() + ")") + " and "
                    + out.limbCount());
        }
        modDown(x, perm, add, out, pool, c);
    }

    /**
     * The tail shared by ModDown and ModDown+rescale, Q limbs j ∈ [from, to):
     * out_j = (x_j − conv_j)·inv_j with conv the centred conversion of the dropped primes,
     * transformed first when the domain is NTT; then out_j = φ(out_j + add_j) when {@code perm} or
     * {@code add} is given, read from the conversion's scratch, so no ModDown output is written only
     * to be read again.
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
            NttPermutation perm,
            RnsPoly add,
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
            for (int j = from; j < to; j++) {
                long q = rq.prime(j);
                if (perm == null && add == null) {
                    kernels.subMulShoup(xq.limb(j), conv[j], out.limb(j), inv[j], invShoup[j], q);
                } else {
                    kernels.subMulShoup(xq.limb(j), conv[j], conv[j], inv[j], invShoup[j], q);
                    finishLimb(conv[j], add == null ? null : add.limb(j), out.limb(j), perm, q);
                }
            }
        } finally {
            for (int j = from; j < to; j++) pool.put(conv[j]);
        }
        c.add(Op.MOD_MULS, (long) (to - from) * n);
    }

    /** out = φ(r + add) for one limb (perm null: r + add); add may be null, r is scratch. */
    private void finishLimb(long[] r, long[] add, long[] out, NttPermutation perm, long q) {
        if (perm != null) kernels.automorphismNttFromScratch(r, add, out, perm, q, false);
        else LimbKernels.addMod(r, add, out, q);
    }
}
