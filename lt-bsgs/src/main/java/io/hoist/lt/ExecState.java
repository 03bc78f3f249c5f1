package io.hoist.lt;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.KeySwitcher;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.RotationKeySet;
import io.hoist.math.ModArith;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.LimbPool;
import io.hoist.ring.NttTables;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Parallel;
import io.hoist.ring.RnsPoly;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The buffers of one execution of an {@link LtProgram} and the kernels of its steps, each over a
 * range of QP limbs — written once and run by both executors (the direct one with the whole range).
 * Buffers come from the evaluator's {@link LimbPool} when first written and go back when released
 * (or on {@link #close}, so a failed evaluation leaks nothing); counts go to this evaluation's own
 * {@link OpCounters}.
 */
final class ExecState implements AutoCloseable {
    /** Babies per pass when expanding compact diagonals: bounds the expanded scratch to this many limbs per output. */
    private static final int COMPACT_CHUNK = 8;

    final CkksContext ctx;
    final KeySwitcher ks;
    final LimbPool pool;
    final OpCounters counters;
    final LtProgram prog;
    final EncodedTransform et;
    final int level, lq, d, n;
    /** The engine's threads: the limbs of a key switch, a Decompose or a diagonal sum are spread over them. */
    final int threads;

    private final PolyQP[] polys;
    private final PolyQP[][] digits;
    private final GaloisKey[] keyOf;
    private final LimbKernels kernels;
    private long[] t0, t1;
    private final boolean[] external;
    /** R = 2^64 mod the QP prime of each limb, and its Shoup quotient: the compact lift lands in Montgomery form. */
    private final long[] montR, montRShoup;

    ExecState(
            CkksContext ctx,
            KeySwitcher ks,
            LimbPool pool,
            LtProgram prog,
            EncodedTransform et,
            RotationKeySet keys,
            Ciphertext ct) {
        this(ctx, ks, pool, prog, et, keys, ct, ctx.counters().child());
    }

    /** A state counting into {@code counters} (shared by the states of one block product). */
    ExecState(
            CkksContext ctx,
            KeySwitcher ks,
            LimbPool pool,
            LtProgram prog,
            EncodedTransform et,
            RotationKeySet keys,
            Ciphertext ct,
            OpCounters counters) {
        this.ctx = ctx;
        this.ks = ks;
        this.pool = pool;
        this.counters = counters;
        this.prog = prog;
        this.et = et;
        this.level = prog.layout().level();
        this.lq = level + 1;
        this.d = prog.layout().d();
        this.n = ctx.n();
        this.kernels = ctx.engine().kernels();
        this.threads = ctx.engine().threads();
        this.polys = new PolyQP[prog.buffers().size()];
        this.digits = new PolyQP[prog.buffers().size()][];
        this.keyOf = new GaloisKey[prog.steps().size()];
        this.external = new boolean[prog.buffers().size()];
        // every key up front, so a missing one is named before any work
        for (LtProgram.Step s : prog.steps()) {
            if (s.kind() == LtProgram.Kind.KEY_SWITCH) {
                keyOf[s.index()] =
                        keys.get(ctx.params().galoisElementForRotation(s.rotation()), "rotation by " + s.rotation());
            }
        }
        this.montR = new long[d];
        this.montRShoup = new long[d];
        for (int j = 0; j < d; j++) {
            long q = ctx.primeQP(level, j);
            montR[j] = ModArith.montgomeryR(q);
            montRShoup[j] = ModArith.shoupQuotient(montR[j], q);
        }
        if (ct != null) { // null for a state that resumes after phase 4 (a block row's summed partials)
            polys[prog.input0()] = new PolyQP(ct.poly(0), null);
            polys[prog.input1()] = new PolyQP(ct.poly(1), null);
        }
    }

    /** The buffers phase 4 writes (U_{0,k}, U_{1,k} per giant step), in program order. */
    static int[] sumBuffers(LtProgram prog) {
        return prog.phase(4).stream()
                .flatMapToInt(s -> IntStream.of(s.out().get(0), s.out().get(1)))
                .toArray();
    }

    /** A copy of buffer {@code id} in fresh (unpooled) arrays, for a value that outlives this state. */
    PolyQP copyOut(int id) {
        PolyQP p = polys[id];
        return new PolyQP(p.q().copy(), p.p() == null ? null : p.p().copy());
    }

    /** Buffer {@code id} borrowed from the pool and filled with {@code src}'s residues. */
    void copyIn(int id, PolyQP src) {
        PolyQP dst = ensure(id, src.domain());
        for (int j = 0; j < src.q().limbCount(); j++)
            System.arraycopy(src.q().limb(j), 0, dst.q().limb(j), 0, n);
        if (src.p() != null)
            for (int j = 0; j < src.p().limbCount(); j++)
                System.arraycopy(src.p().limb(j), 0, dst.p().limb(j), 0, n);
        dst.q().setDomain(src.domain());
        if (dst.p() != null) dst.p().setDomain(src.domain());
    }

    // ---------------------------------------------------------------- buffers

    PolyQP poly(int id) {
        return polys[id];
    }

    /** Buffer {@code id}, borrowed from the pool on first use (contents arbitrary), flagged {@code domain}. */
    PolyQP ensure(int id, Domain domain) {
        PolyQP p = polys[id];
        if (p == null) {
            LtProgram.Buffer b = prog.buffer(id);
            if (b.role() == LtProgram.Role.OUTPUT)
                p = new PolyQP(ctx.ringQ().newPoly(prog.rescales() ? level - 1 : level, domain), null);
            else if (b.qOnly()) p = new PolyQP(ctx.ringQ().wrap(pool.get(lq), domain), null);
            else p = PolyQP.borrow(ctx, pool, level, domain);
            polys[id] = p;
        }
        return p;
    }

    PolyQP[] ensureDigits(int id) {
        PolyQP[] ds = digits[id];
        if (ds == null) {
            ds = new PolyQP[prog.layout().beta()];
            for (int t = 0; t < ds.length; t++) ds[t] = PolyQP.borrow(ctx, pool, level, Domain.NTT);
            digits[id] = ds;
        }
        return ds;
    }

    /** Supplies digits computed elsewhere (a Decompose shared by several transforms); never released here. */
    void presetDigits(int id, PolyQP[] ds) {
        digits[id] = ds;
        external[id] = true;
    }

    boolean hasDigits(int id) {
        return digits[id] != null;
    }

    /** Gives buffer {@code id}'s limbs back to the pool (inputs, outputs and external buffers are not pooled). */
    void release(int id) {
        LtProgram.Buffer b = prog.buffer(id);
        if (b.role() != LtProgram.Role.TEMPORARY || external[id]) return;
        if (polys[id] != null) {
            pool.put(polys[id].q().limbs());
            if (polys[id].p() != null) pool.put(polys[id].p().limbs());
            polys[id] = null;
        }
        if (digits[id] != null) {
            for (PolyQP p : digits[id]) p.release(pool);
            digits[id] = null;
        }
    }

    @Override
    public void close() {
        for (DecomposeJob j : List.copyOf(openJobs)) j.free();
        for (int id = 0; id < polys.length; id++) release(id);
        if (t0 != null) {
            pool.put(t0);
            pool.put(t1);
            t0 = t1 = null;
        }
    }

    Ciphertext output(double scale) {
        return new Ciphertext(ctx.params(), scale, polys[prog.output0()].q(), polys[prog.output1()].q());
    }

    // ---------------------------------------------------------------- step kernels

    /** TIMES_P: A_0 ← P·C'_0 (Q limbs). */
    void timesP(LtProgram.Step s) {
        PolyQP out = ensure(s.out().get(0), Domain.NTT);
        ks.timesP(polys[s.in().get(0)].q(), out.q(), counters);
    }

    /** DECOMPOSE, first half: the coefficient form and the prepared digits (all limbs needed). */
    final class DecomposeJob {
        final LtProgram.Step step;
        final RnsPoly coeff;
        final RnsPoly ntt;
        final boolean ownCoeff;
        final KeySwitcher.Prepared[] prep;
        final PolyQP[] out;

        DecomposeJob(LtProgram.Step s) {
            step = s;
            RnsPoly src = polys[s.in().get(0)].q();
            if (src.domain() == Domain.NTT) {
                RnsPoly c = ctx.ringQ().wrap(pool.get(lq), Domain.NTT);
                for (int j = 0; j < lq; j++) System.arraycopy(src.limb(j), 0, c.limb(j), 0, n);
                ctx.ringQ().intt(c, counters);
                coeff = c;
                ntt = src;
                ownCoeff = true;
            } else {
                coeff = src;
                ntt = null;
                ownCoeff = false;
            }
            prep = ks.decomposePrepare(coeff, pool, counters);
            out = ensureDigits(s.out().get(0));
            synchronized (openJobs) {
                openJobs.add(this);
            }
        }

        void limbs(int from, int to) {
            ks.decomposeLimbs(prep, coeff, ntt, out, from, to, counters);
        }

        void end() {
            free();
            counters.increment(Op.DECOMPOSE);
            counters.add(Op.LIMBS_READ, lq);
            counters.add(Op.LIMBS_WRITTEN, (long) out.length * d);
        }

        /** Gives the prepared digits and the coefficient copy back to the pool (once). */
        private void free() {
            synchronized (openJobs) {
                if (!openJobs.remove(this)) return;
            }
            ks.release(prep, pool);
            if (ownCoeff) pool.put(coeff.limbs());
        }
    }

    /** Decompositions begun and not ended: a failed evaluation gives their scratch back on {@link #close}. */
    private final List<DecomposeJob> openJobs = new ArrayList<>();

    /** KEY_SWITCH over QP limbs [from, to); counts the KS-IP when {@code last}. */
    void keySwitch(LtProgram.Step s, int from, int to, boolean last) {
        if (t0 == null) {
            t0 = pool.get();
            t1 = pool.get();
        }
        keySwitch(s, from, to, last, t0, t1);
    }

    /** KEY_SWITCH over all QP limbs, the limbs spread over the engine's threads (each range with its own scratch). */
    void keySwitchAll(LtProgram.Step s) {
        keySwitchRange(s, 0, d, true);
    }

    /** KEY_SWITCH over QP limbs [from, to), spread over the engine's threads (each sub-range with its own scratch); counts when {@code last}. */
    void keySwitchRange(LtProgram.Step s, int from, int to, boolean last) {
        if (threads == 1 || to - from < 2) {
            keySwitch(s, from, to, last);
            return;
        }
        ensure(s.out().get(0), Domain.NTT); // before the ranges, so that no two threads create a buffer
        ensure(s.out().get(1), Domain.NTT);
        Parallel.ranges(threads, to - from, (a0, a1) -> {
            long[] a = pool.get(), b = pool.get();
            try {
                keySwitch(s, from + a0, from + a1, last && a0 == 0, a, b);
            } finally {
                pool.put(a);
                pool.put(b);
            }
        });
    }

    /** Limbs [from, to) of a Decompose, spread over the engine's threads. */
    void decomposeRange(DecomposeJob job, int from, int to) {
        Parallel.ranges(threads, to - from, (a0, a1) -> job.limbs(from + a0, from + a1));
    }

    /** Independent KEY_SWITCH steps (one layer's rotations, distinct outputs), one whole step per task over the engine's threads. */
    void keySwitchBatch(List<LtProgram.Step> steps) {
        for (LtProgram.Step s : steps) {
            ensure(s.out().get(0), Domain.NTT);
            ensure(s.out().get(1), Domain.NTT);
        }
        Parallel.forEach(threads, steps.size(), i -> {
            long[] a = pool.get(), b = pool.get();
            try {
                keySwitch(steps.get(i), 0, d, true, a, b);
            } finally {
                pool.put(a);
                pool.put(b);
            }
        });
    }

    private void keySwitch(LtProgram.Step s, int from, int to, boolean last, long[] t0, long[] t1) {
        PolyQP[] ds = digits[s.in().get(0)];
        int addId = s.in().get(1);
        PolyQP add = addId < 0 ? null : polys[addId];
        PolyQP a = ensure(s.out().get(0), Domain.NTT), b = ensure(s.out().get(1), Domain.NTT);
        GaloisKey k = keyOf[s.index()];
        ks.switchAndPermute(ds, k.key(), k.galoisElement(), add, a, b, s.accumulate(), from, to, t0, t1, counters);
        if (last) KeySwitcher.countInnerProduct(counters, ds.length, d);
    }

    /** INTT: limbs [from, to) of the source, into the destination (which may be the source). */
    void intt(LtProgram.Step s, int from, int to) {
        PolyQP src = polys[s.in().get(0)];
        PolyQP dst = ensure(s.out().get(0), Domain.COEFFICIENT);
        long[][] l = new long[to - from][];
        NttTables[] t = new NttTables[to - from];
        for (int j = from; j < to; j++) {
            if (dst != src) System.arraycopy(src.limb(j), 0, dst.limb(j), 0, n);
            l[j - from] = dst.limb(j);
            t[j - from] = ctx.tablesQP(level, j);
        }
        ctx.engine().inverse(l, t, to - from, counters);
        if (to == d) dst.setDomain(Domain.COEFFICIENT);
    }

    /** MOD_DOWN of a coefficient-form QP buffer into a Q buffer (whole polynomial). */
    void modDown(LtProgram.Step s) {
        PolyQP src = polys[s.in().get(0)];
        PolyQP dst = ensure(s.out().get(0), Domain.COEFFICIENT);
        ks.modDown(src, dst.q(), pool, counters);
    }

    /** MOVE: C takes over U_{·,0}'s limbs, or starts at zero. */
    void move(LtProgram.Step s) {
        for (int p = 0; p < 2; p++) {
            int src = s.in().get(p), dst = s.out().get(p);
            if (src >= 0) {
                polys[dst] = polys[src];
                polys[src] = null;
            } else {
                PolyQP c = ensure(dst, Domain.NTT);
                for (int j = 0; j < d; j++) Arrays.fill(c.limb(j), 0L);
            }
        }
    }

    /** MOD_DOWN_KEEP_LEVEL (whole polynomial): ModDown ÷P, NTT in and out, no rescale. */
    void modDownKeepLevel(LtProgram.Step s) {
        PolyQP dst = ensure(s.out().get(0), Domain.NTT);
        ks.modDown(polys[s.in().get(0)], dst.q(), pool, counters);
    }

    /** MOD_DOWN_RESCALE (whole polynomial; its Q limbs spread over the engine's threads by the key switcher). */
    void modDownRescale(LtProgram.Step s) {
        PolyQP dst = ensure(s.out().get(0), Domain.NTT);
        ks.modDownRescale(polys[s.in().get(0)], dst.q(), pool, counters);
    }

    /** The diagonal sums of {@code group} over all QP limbs, the limbs spread over the engine's threads. */
    void diagonalSumsAll(ExecState src, EncodedTransform block, List<LtProgram.Step> group, boolean accumulate) {
        diagonalSumsRange(src, block, group, 0, d, true, accumulate);
    }

    /** The diagonal sums of {@code group} over QP limbs [from, to), spread over the engine's threads; counts when {@code last}. */
    void diagonalSumsRange(
            ExecState src,
            EncodedTransform block,
            List<LtProgram.Step> group,
            int from,
            int to,
            boolean last,
            boolean accumulate) {
        if (threads == 1 || to - from < 2) {
            diagonalSums(src, block, group, from, to, last, accumulate);
            return;
        }
        for (LtProgram.Step s : group) {
            ensure(s.out().get(0), Domain.NTT);
            ensure(s.out().get(1), Domain.NTT);
        }
        Parallel.ranges(
                threads,
                to - from,
                (a0, a1) -> diagonalSums(src, block, group, from + a0, from + a1, last && a0 == 0, accumulate));
    }

    /**
     * DIAGONAL_SUM of several giant steps at once over QP limbs [from, to): per limb one multi-output
     * kernel call over the babies (A_b, B_b) of {@code src} and the diagonals of {@code block}, into
     * this state's U buffers, added to them when {@code accumulate} (the blocks of one block row).
     * Diagonals the block does not hold are zero and skipped. Compact diagonals are expanded one limb
     * and at most {@link #COMPACT_CHUNK} babies at a time. Counts the PtMuls when {@code last}.
     */
    void diagonalSums(
            ExecState src,
            EncodedTransform block,
            List<LtProgram.Step> group,
            int from,
            int to,
            boolean last,
            boolean accumulate) {
        int outs = group.size();
        int[] babies = group.stream()
                .flatMapToInt(s -> s.babies().stream())
                .distinct()
                .sorted()
                .toArray();
        // term table: diag[o][t] = r, or −1 when giant step o has no diagonal with baby t
        int[][] diag = new int[outs][babies.length];
        int[] aBuf = new int[babies.length], bBuf = new int[babies.length];
        for (int o = 0; o < outs; o++) {
            LtProgram.Step s = group.get(o);
            Arrays.fill(diag[o], -1);
            for (int t = 0; t < s.babies().length(); t++) {
                int ti = Arrays.binarySearch(babies, s.babies().get(t));
                int r = s.diagonals().get(t);
                diag[o][ti] = block.contains(r) ? r : -1;
                aBuf[ti] = s.in().get(2 * t);
                bBuf[ti] = s.in().get(2 * t + 1);
            }
        }
        PolyQP[] u0 = new PolyQP[outs], u1 = new PolyQP[outs];
        for (int o = 0; o < outs; o++) {
            u0[o] = ensure(group.get(o).out().get(0), Domain.NTT);
            u1[o] = ensure(group.get(o).out().get(1), Domain.NTT);
        }
        long[][] o0 = new long[outs][], o1 = new long[outs][];
        boolean compact = block.storage() == Storage.COMPACT;
        int chunk = compact ? COMPACT_CHUNK : babies.length;
        long[][] x = new long[chunk][], y = new long[chunk][];
        long[][][] f = new long[outs][chunk][];
        List<long[]> scratch = new ArrayList<>();
        for (int j = from; j < to; j++) {
            long q = ctx.primeQP(level, j);
            for (int o = 0; o < outs; o++) {
                o0[o] = u0[o].limb(j);
                o1[o] = u1[o].limb(j);
            }
            boolean first = !accumulate;
            for (int c0 = 0; c0 < babies.length; c0 += chunk) {
                int terms = 0;
                for (int t = c0; t < Math.min(babies.length, c0 + chunk); t++) {
                    if (j >= lq && babies[t] == 0) continue; // A_0, B_0 have no P limbs
                    boolean any = false;
                    for (int o = 0; o < outs; o++) any |= diag[o][t] >= 0;
                    if (!any) continue;
                    x[terms] = src.polys[aBuf[t]].limb(j);
                    y[terms] = src.polys[bBuf[t]].limb(j);
                    for (int o = 0; o < outs; o++)
                        f[o][terms] = diag[o][t] < 0
                                ? null
                                : compact
                                        ? expand(block, diag[o][t], j, q, scratch)
                                        : block.qp(diag[o][t]).limb(j);
                    terms++;
                }
                if (terms == 0) continue;
                if (compact) transformScratch(scratch, j);
                kernels.dot2MontgomeryMulti(x, y, f, terms, outs, o0, o1, q, !first);
                first = false;
                for (long[] a : scratch) pool.put(a);
                scratch.clear();
            }
            if (first)
                for (int o = 0; o < outs; o++) {
                    Arrays.fill(o0[o], 0L);
                    Arrays.fill(o1[o], 0L);
                }
        }
        if (last) {
            for (int o = 0; o < outs; o++) {
                int terms = 0;
                for (int t = 0; t < babies.length; t++) if (diag[o][t] >= 0) terms++;
                counters.add(Op.PT_MUL, terms);
                counters.add(Op.MOD_MULS, 2L * terms * d * n);
            }
        }
    }

    /** Compact diagonal r's limb j in the coefficient domain, Montgomery form (NTT follows in {@link #transformScratch}). */
    private long[] expand(EncodedTransform block, int r, int j, long q, List<long[]> scratch) {
        long[] s = pool.get();
        kernels.liftSigned(block.compact(r), montR[j], montRShoup[j], q, s);
        scratch.add(s);
        return s;
    }

    private void transformScratch(List<long[]> scratch, int j) {
        if (scratch.isEmpty()) return;
        NttTables t = ctx.tablesQP(level, j);
        NttTables[] ts = new NttTables[scratch.size()];
        Arrays.fill(ts, t);
        ctx.engine().forward(scratch.toArray(new long[0][]), ts, ts.length, counters);
    }
}
