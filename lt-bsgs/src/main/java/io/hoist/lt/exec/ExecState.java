package io.hoist.lt.exec;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.KeySwitcher;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.Scratch;
import io.hoist.lt.plan.IntSequence;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.LimbPool;
import io.hoist.ring.NttTables;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Parallel;
import io.hoist.ring.RnsPoly;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The buffers of one execution of an {@link LtProgram} and the kernels of its steps, each over a
 * range of QP limbs — written once and run by both executors (the direct one with the whole range).
 * Buffers come from the evaluator's {@link LimbPool} when first written and go back when released
 * (or on {@link #close}, so a failed evaluation leaks nothing); counts go to this evaluation's own
 * {@link OpCounters}.
 */
final class ExecState implements AutoCloseable {
    final CkksContext ctx;
    final KeySwitcher ks;
    final LimbPool pool;
    final OpCounters counters;
    final LtProgram prog;
    final EncodedDiagonals et;
    final int level, lq, d, n;
    /** The engine's threads: the limbs of a key switch, a Decompose or a diagonal sum are spread over them. */
    final int threads;

    private final PolyQP[] polys;
    private final PolyQP[][] digits;
    private final GaloisKey[] keyOf;
    final LimbKernels kernels;
    private long[] t0, t1;
    private final boolean[] external;
    /** The engine's holders of released buffers, their limbs back in the pool ({@link #borrow}). */
    private final BufferHolders holders;
    /** Where the output's polynomials are made, or null for fresh memory ({@link #outputsIn}). */
    private Scratch outputs;

    /** A state counting into {@code counters} (shared by the states of one block product). */
    ExecState(
            CkksContext ctx,
            KeySwitcher ks,
            LimbPool pool,
            BufferHolders holders,
            LtProgram prog,
            EncodedDiagonals et,
            RotationKeySet keys,
            Ciphertext ct,
            OpCounters counters) {
        this.ctx = ctx;
        this.ks = ks;
        this.pool = pool;
        this.holders = holders;
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
                keyOf[s.index()] = keys.forRotation(s.rotation());
            }
        }
        if (ct != null) { // null for a state that resumes after phase 4 (a block row's summed partials)
            polys[prog.input0()] = PolyQP.qOnly(ct.poly(0, RawAccess.get()));
            polys[prog.input1()] = PolyQP.qOnly(ct.poly(1, RawAccess.get()));
        }
    }

    /** A copy of buffer {@code id} in fresh (unpooled) arrays, for a value that outlives this state. */
    PolyQP copyOut(int id) {
        PolyQP p = polys[id];
        return p.copy();
    }

    /** Buffer {@code id} borrowed from the pool and filled with {@code src}'s residues. */
    void copyIn(int id, PolyQP src) {
        PolyQP dst = ensure(id, src.domain());
        src.q().copyTo(dst.q());
        if (!src.isQOnly()) src.p().copyTo(dst.p());
        else if (!dst.isQOnly()) dst.p().setDomain(src.domain());
    }

    // ---------------------------------------------------------------- buffers

    PolyQP poly(int id) {
        return polys[id];
    }

    /** Makes the output's polynomials in {@code scratch} (pooled limbs the steps overwrite) instead of fresh memory. */
    void outputsIn(Scratch scratch) {
        this.outputs = scratch;
    }

    /** Buffer {@code id}, borrowed from the pool on first use (contents arbitrary), flagged {@code domain}. */
    PolyQP ensure(int id, Domain domain) {
        PolyQP p = polys[id];
        if (p == null) {
            LtProgram.Buffer b = prog.buffer(id);
            int outLevel = prog.rescales() ? level - 1 : level;
            if (b.role() == LtProgram.Role.OUTPUT) {
                RnsPoly q = outputs == null ? ctx.ringQ().newPoly(outLevel, domain) : outputs.newPoly(outLevel);
                q.setDomain(domain);
                p = PolyQP.qOnly(q);
            } else p = borrow(b.qOnly(), domain);
            polys[id] = p;
        }
        return p;
    }

    PolyQP[] ensureDigits(int id) {
        PolyQP[] ds = digits[id];
        if (ds == null) {
            ds = new PolyQP[prog.layout().beta()];
            for (int t = 0; t < ds.length; t++) ds[t] = borrow(false, Domain.NTT);
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

    /**
     * The most pooled limbs live at once when {@code prog}'s steps run one by one in program order, each
     * buffer held from its first use to its last as {@link #ensure}, {@link #ensureDigits} and {@link
     * #release} hold it: lq limbs for a Q-only buffer, d for a QP one, β·d for digits; inputs and outputs
     * are not pooled, and a MOVE hands its source's limbs over. The direct executor opens a batch's
     * outputs before it releases the batch's inputs, runs chains whose steps each end holding at least
     * what they started with (b → b' → D, U_1 → u → E), and borrows scratch limbs besides, so its pool
     * peak is at least this much: reserving it never holds a limb a direct evaluation would not take. An
     * executor path that gives limbs back earlier than program order would have to be mirrored here.
     */
    static long programOrderPeakLimbs(LtProgram prog) {
        return programOrderPeakLimbs(prog, null);
    }

    /**
     * {@link #programOrderPeakLimbs(LtProgram)} with {@code scratch[i]} limbs (null: none) borrowed beside the
     * buffers open at step i: compact diagonals' expansions ({@link DiagonalSums#compactScratch}).
     */
    static long programOrderPeakLimbs(LtProgram prog, int[] scratch) {
        return walk(prog, phase -> true, new long[prog.buffers().size()], scratch)[0];
    }

    /**
     * The same lower bound for a block product on the direct schedule ({@code BlockExecutor}, columns in
     * ascending order) with {@code rows} block rows that hold a block, {@code rowsBeforeLast} of them in
     * a column before the last column that holds one: the last column's phases 1–3 while those rows
     * hold their U buffers, then its babies while every row holds them. Both states are reached by a
     * whole product and by partial products over every column; the rows' phases 5–6 beside the other
     * rows' U buffers only by a whole product, so they are left to its first evaluation.
     */
    static long blockOrderPeakLimbs(LtProgram prog, int rows, int rowsBeforeLast) {
        return blockOrderPeakLimbs(prog, rows, rowsBeforeLast, 0);
    }

    /**
     * {@link #blockOrderPeakLimbs(LtProgram, int, int)} with {@code scratch} limbs borrowed beside the last
     * column's babies and every row's sums: a pass of the last column's compact diagonal sums.
     */
    static long blockOrderPeakLimbs(LtProgram prog, int rows, int rowsBeforeLast, int scratch) {
        if (rows < 1 || rowsBeforeLast < 0 || rowsBeforeLast > rows)
            throw new IllegalArgumentException(
                    "block rows " + rows + ", of them before the last column " + rowsBeforeLast);
        long[] input = walk(prog, phase -> phase <= 3, new long[prog.buffers().size()], null);
        long[] held = new long[prog.buffers().size()];
        long sums = 0;
        for (int id : prog.sumBuffers()) sums += open(prog, prog.layout(), held, id);
        return Math.max(rowsBeforeLast * sums + input[0], input[1] + rows * sums + scratch);
    }

    /**
     * Walks the steps of the phases {@code phases} accepts, starting from the limbs {@code held} holds
     * (updated in place): {peak, live at the end}; {@code scratch} (null: none) as for {@link
     * #programOrderPeakLimbs(LtProgram, int[])}.
     */
    private static long[] walk(LtProgram prog, IntPredicate phases, long[] held, int[] scratch) {
        long live = 0;
        for (long h : held) live += h;
        long peak = live;
        for (LtProgram.Step s : prog.steps()) {
            if (!phases.test(s.phase())) continue;
            live += opens(prog, held, s, true);
            peak = Math.max(peak, live + (scratch == null ? 0 : scratch[s.index()]));
            for (IntSequence ids : List.of(s.in(), s.out()))
                for (int i = 0; i < ids.length(); i++) {
                    int id = ids.get(i);
                    if (id >= 0 && prog.lastUse(id) == s.index()) {
                        live -= held[id];
                        held[id] = 0;
                    }
                }
        }
        return new long[] {peak, live};
    }

    /**
     * Opens the pooled buffers step {@code s} writes (and reads, with {@code inputs}) that are not open yet, as
     * {@link #ensure} opens them; a MOVE hands its source's limbs over. The limbs it took.
     */
    static long opens(LtProgram prog, long[] held, LtProgram.Step s, boolean inputs) {
        long took = 0;
        if (s.kind() == LtProgram.Kind.MOVE) {
            for (int p = 0; p < 2; p++) {
                int src = s.in().get(p), dst = s.out().get(p);
                if (src >= 0) {
                    held[dst] = held[src];
                    held[src] = 0;
                } else took += open(prog, prog.layout(), held, dst);
            }
            return took;
        }
        if (inputs) for (int i = 0; i < s.in().length(); i++) took += open(prog, prog.layout(), held, s.in().get(i));
        for (int i = 0; i < s.out().length(); i++)
            took += open(prog, prog.layout(), held, s.out().get(i));
        return took;
    }

    /** Opens buffer {@code id} if it is pooled and not open yet; the limbs it took. */
    private static long open(LtProgram prog, LimbLayout lay, long[] held, int id) {
        if (id < 0 || held[id] > 0) return 0;
        LtProgram.Buffer b = prog.buffer(id);
        if (b.role() != LtProgram.Role.TEMPORARY) return 0;
        held[id] = (b.digits() ? (long) lay.beta() : 1L) * prog.limbs(id);
        return held[id];
    }

    /** Gives buffer {@code id}'s limbs back to the pool (inputs, outputs and external buffers are not pooled). */
    void release(int id) {
        LtProgram.Buffer b = prog.buffer(id);
        if (b.role() != LtProgram.Role.TEMPORARY || external[id]) return;
        if (polys[id] != null) {
            giveBack(polys[id]);
            polys[id] = null;
        }
        if (digits[id] != null) {
            for (PolyQP p : digits[id]) giveBack(p);
            digits[id] = null;
        }
    }

    /** A pooled buffer (Q limbs only, or QP) in the holder of one released before, when there is one. */
    private PolyQP borrow(boolean qOnly, Domain domain) {
        PolyQP h = holders.poll(qOnly, lq);
        if (h == null)
            return qOnly
                    ? PolyQP.qOnly(ctx.ringQ().wrap(pool.get(lq), domain))
                    : PolyQP.borrow(ctx, pool, level, domain);
        fill(h.q(), domain);
        if (!qOnly) fill(h.p(), domain);
        return h;
    }

    private void fill(RnsPoly part, Domain domain) {
        long[][] limbs = part.limbs();
        for (int j = 0; j < limbs.length; j++) limbs[j] = pool.get();
        part.setDomain(domain);
    }

    /** {@code p}'s limbs back to the pool, its holder kept (emptied, so nothing reaches a limb through it). */
    private void giveBack(PolyQP p) {
        empty(p.q());
        if (!p.isQOnly()) empty(p.p());
        holders.add(p);
    }

    private void empty(RnsPoly part) {
        long[][] limbs = part.limbs();
        pool.put(limbs);
        Arrays.fill(limbs, null);
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
        return Ciphertext.wrap(
                RawAccess.get(), ctx.params(), scale, polys[prog.output0()].q(), polys[prog.output1()].q());
    }

    // ---------------------------------------------------------------- step kernels

    /** TIMES_P: A_0 ← P·C'_0 (Q limbs). */
    void timesP(LtProgram.Step s) {
        PolyQP out = ensure(s.out().get(0), Domain.NTT);
        ks.timesP(polys[s.in().get(0)].q(), out.q(), counters);
    }

    /** Decompositions begun and not ended: a failed evaluation gives their scratch back on {@link #close}. */
    private final List<DecomposeJob> openJobs = new ArrayList<>();

    void opened(DecomposeJob j) {
        synchronized (openJobs) {
            openJobs.add(j);
        }
    }

    /** Whether {@code j} was open (and is now closed). */
    boolean closed(DecomposeJob j) {
        synchronized (openJobs) {
            return openJobs.remove(j);
        }
    }

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
        if (last) KeySwitcher.countInnerProduct(counters, ds.length, d, k.key().storage());
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
}
