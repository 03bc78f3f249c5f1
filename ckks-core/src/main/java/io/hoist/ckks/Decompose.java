package io.hoist.ckks;

import io.hoist.ckks.KeySwitcher.Prepared;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.LimbPool;
import io.hoist.ring.NttTables;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Parallel;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;

/** Decompose (spec §2.4): every digit of a polynomial converted into QP — the prologue that prepares the digits, the limb-range kernel, and the whole-polynomial form. Reached through {@link KeySwitcher}. */
final class Decompose {
    private final CkksContext ctx;
    private final Ring rq;
    private final OpCounters counters;
    private final LimbKernels kernels;
    private final int n;

    Decompose(CkksContext ctx) {
        this.ctx = ctx;
        this.rq = ctx.ringQ();
        this.counters = ctx.counters();
        this.kernels = ctx.engine().kernels();
        this.n = ctx.n();
    }

    /**
     * Prologue of Decompose: for every digit t of {@code coeff} (c ∈ R_{Q_ℓ}, coefficient domain)
     * the prepared conversion of its α_t limbs. Borrowed from {@code pool}; release each when done.
     */
    public Prepared[] decomposePrepare(RnsPoly coeff, LimbPool pool, OpCounters c) {
        return prepare(coeff, false, pool, c);
    }

    /**
     * The digits prepared in {@code coeff}'s own limbs (borrowed from {@code pool}, no longer read as
     * coefficients): each digit's prologue owns its slice and gives it back with its release.
     */
    private Prepared[] prepare(RnsPoly coeff, boolean inPlace, LimbPool pool, OpCounters c) {
        if (coeff.domain() != Domain.COEFFICIENT)
            throw new WrongOperandException("decomposePrepare expects the coefficient form");
        int level = coeff.level();
        int beta = ctx.params().beta(level);
        Prepared[] out = new Prepared[beta];
        long[][][] ins = new long[beta][][];
        boolean prepared = false;
        try {
            for (int t = 0; t < beta; t++) {
                int s = ctx.digitStart(t), e = ctx.digitEnd(t, level);
                long[][] in = new long[e - s][];
                for (int j = s; j < e; j++) in[j - s] = coeff.limb(j);
                ins[t] = in;
                long[][] y = inPlace ? in : pool.get(e - s);
                out[t] = new Prepared(ctx.decomposeConv(level, t), y, pool.get(), t);
            }
            // the digits over the engine's threads: on the calling thread alone, the others waited through it
            Parallel.RangeBody digits = (from, to) -> {
                for (int t = from; t < to; t++) out[t].conv.prepare(ins[t], out[t].y, out[t].u, n, c, kernels);
            };
            if ((long) (level + 1) * n >= Ring.PARALLEL_WORDS)
                Parallel.forEachChunk(ctx.engine().threads(), beta, digits);
            else digits.run(0, beta);
            prepared = true;
            return out;
        } finally {
            if (!prepared) { // what was borrowed goes back (in place, the rows are the caller's copy)
                for (Prepared pr : out) {
                    if (pr == null) continue;
                    if (!inPlace) pool.put(pr.y);
                    pool.put(pr.u);
                }
            }
        }
    }

    /**
     * QP limbs [from, to) of every digit: digit t's own limbs are copied from {@code ntt} (the input
     * in the NTT domain) or, if it is null, from {@code coeff} and transformed; the others are
     * converted from the prepared digit and transformed, in one backend call for all digits. The
     * prepared digits must be distinct (a digit given twice would be transformed twice).
     */
    public void decomposeLimbs(
            Prepared[] prep, RnsPoly coeff, RnsPoly ntt, PolyQP[] out, int from, int to, OpCounters c) {
        // every digit converted first, then one transform call with each prime's limbs side by side, so a
        // prime's twiddles are read once for all β digits (digit by digit took 3–9 % longer at boot16)
        if (from >= to) return;
        int beta = prep.length;
        long[][] limbs = new long[beta * (to - from)][];
        NttTables[] tables = new NttTables[limbs.length];
        // the conversions in one range of limbs per thread (β or β − 1 per limb: near-equal shares), then the
        // transforms limb by limb in turn (NttEngine): a 60-bit prime's transform costs about twice a 40-bit
        // one's, so equal ranges of limbs for both steps together left a thread waiting on mixed chains
        Parallel.RangeBody convert = (a, b) -> {
            for (int i = 0; i < beta; i++)
                convertDigit(prep[i], i, beta, coeff, ntt, out, from + a, from + b, from, limbs, tables, c);
        };
        if ((long) (to - from) * beta * n >= Ring.PARALLEL_WORDS)
            Parallel.ranges(ctx.engine().threads(), to - from, convert);
        else convert.run(0, to - from);
        int nn = 0;
        for (int k = 0; k < limbs.length; k++) {
            if (limbs[k] == null) continue; // a digit's own limb copied from the NTT-domain input
            limbs[nn] = limbs[k];
            tables[nn++] = tables[k];
        }
        ctx.engine().forward(limbs, tables, nn, c);
    }

    /**
     * Digit pr's limbs [from, to): its own limbs copied, the others converted; limb j, to be
     * transformed, goes to slot (j − base)·beta + i.
     */
    private void convertDigit(
            Prepared pr,
            int i,
            int beta,
            RnsPoly coeff,
            RnsPoly ntt,
            PolyQP[] out,
            int from,
            int to,
            int base,
            long[][] nttLimbs,
            NttTables[] nttTables,
            OpCounters c) {
        int level = coeff.level();
        int lq = level + 1;
        int t = pr.digit;
        int s = ctx.digitStart(t), e = ctx.digitEnd(t, level), own = e - s;
        PolyQP d = out[t];
        long[][] targets = new long[lq - own + ctx.alpha()][];
        int tFrom = Integer.MAX_VALUE, tTo = Integer.MIN_VALUE;
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
            nttLimbs[(j - base) * beta + i] = d.limb(j);
            nttTables[(j - base) * beta + i] = ctx.tablesQP(level, j);
        }
        if (tFrom < tTo) pr.conv.convert(pr.y, pr.u, targets, tFrom, tTo, n, c, kernels);
    }

    public void release(Prepared[] prep, LimbPool pool) {
        for (Prepared p : prep) if (p != null) p.release(pool);
    }

    /**
     * Decompose(c) into caller-owned digits (β QP polynomials at c's level, NTT domain): the INTT
     * copy, in whose limbs the digits are prepared, is borrowed from {@code pool} and returned. Counts
     * one DECOMPOSE.
     */
    public void decompose(RnsPoly c, PolyQP[] out, LimbPool pool, OpCounters cnt) {
        int level = c.level();
        RnsPoly coeff;
        RnsPoly ntt;
        RnsPoly tmp = null;
        if (c.domain() == Domain.NTT) {
            tmp = rq.wrap(pool.get(level + 1), Domain.NTT);
            coeff = tmp;
            ntt = c;
        } else {
            coeff = c;
            ntt = null;
        }
        Prepared[] prep;
        // the INTT inside: a parallel one throws when its caller is interrupted, and the copy must still go back
        try { // with an INTT copy, the digits are prepared in its limbs, which their prologues then own
            if (tmp != null) {
                for (int j = 0; j <= level; j++) System.arraycopy(c.limb(j), 0, tmp.limb(j), 0, n);
                rq.intt(tmp, cnt);
            }
            prep = prepare(coeff, tmp != null, pool, cnt);
        } catch (RuntimeException | Error e) {
            if (tmp != null) pool.put(tmp.limbs());
            throw e;
        }
        try {
            decomposeLimbs(prep, coeff, ntt, out, 0, level + 1 + ctx.alpha(), cnt);
        } finally {
            release(prep, pool);
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
}
