package io.hoist.lt;

import io.hoist.ckks.Ciphertext;
import it.unimi.dsi.fastutil.ints.Int2ObjectLinkedOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs an {@link LtProgram} by the six-phase memory-aware schedule of spec §7: each phase's steps
 * in limb groups (l1 … l5) and polynomial groups (m1 … m6), with a {@link WorkingSet} that tracks
 * the resident limbs under a budget and records every limb moved to or from the backing store in a
 * {@link TrafficLedger}. The loop nests are written out per phase below and documented, with their
 * traffic formulas, in docs/schedule.md; {@link PhaseModel} gives the same numbers in closed form.
 *
 * <p>The same walk runs without data ({@code st == null}): that is the counting interpreter's
 * traffic. With data it computes in exactly this order through {@link ExecState}'s kernels, so its
 * result is bit-identical to {@link DirectExecutor}'s (all arithmetic is exact modular arithmetic).
 */
final class PhasedExecutor {
    private final LtProgram prog;
    private final Storage storage;
    private final Grouping g;
    private final WorkingSet ws;
    private ExecState st; // the state the current phase computes on; null: the walk without data
    private final LimbLayout lay;
    private final int lq, d, beta, level;
    private final long lb;

    private PhasedExecutor(LtProgram prog, Storage storage, Grouping g, long budget, ExecState st) {
        this.prog = prog;
        this.storage = storage;
        this.g = g;
        this.ws = new WorkingSet(budget);
        this.st = st;
        this.lay = prog.layout();
        this.lq = lay.lq();
        this.d = lay.d();
        this.beta = lay.beta();
        this.level = lay.level();
        this.lb = lay.limbBytes();
    }

    /** Walks (and, with {@code st}, computes) the schedule; returns its ledger. */
    static TrafficLedger walk(LtProgram prog, Storage storage, Grouping g, long budget, ExecState st) {
        PhasedExecutor e = new PhasedExecutor(prog, storage, g, budget, st);
        e.phase1();
        e.phase2();
        e.phase3();
        e.phase4(st, st == null ? null : st.et, false, true);
        e.phase5();
        e.phase6();
        return e.ws.ledger();
    }

    /**
     * A walker for a block product ({@link BlockExecutor}): one working set and ledger for the whole
     * product, driven input by input ({@link #input}), block by block ({@link #block}) and output by
     * output ({@link #output}).
     */
    static PhasedExecutor forBlocks(LtProgram prog, Storage storage, Grouping g, long budget) {
        return new PhasedExecutor(prog, storage, g, budget, null);
    }

    /** Phases 1–3 of one input ciphertext (a block column) on {@code col} (null: walk only); its babies stay with it. */
    void input(ExecState col) {
        st = col;
        phase1();
        phase2();
        phase3();
    }

    /**
     * Phase 4 of one block: {@code col}'s babies against {@code block}'s diagonals into {@code row}'s
     * U buffers, read back and added to when {@code accumulate} (not the row's first block).
     */
    void block(ExecState col, ExecState row, EncodedTransform block, boolean accumulate) {
        st = row;
        phase4(col, block, accumulate, false);
    }

    /** Phases 5–6 of one block row: the outer layer and the ModDown with rescale. */
    void output(ExecState row) {
        st = row;
        phase5();
        phase6();
    }

    TrafficLedger ledger() {
        return ws.ledger();
    }

    /** Runs the schedule on {@code st}'s buffers; the ledger is returned through {@code ledgerOut[0]}. */
    static Ciphertext run(
            ExecState st, Storage storage, Grouping g, long budget, double scale, TrafficLedger[] ledgerOut) {
        ledgerOut[0] = walk(st.prog, storage, g, budget, st);
        return st.output(scale);
    }

    // ---------------------------------------------------------------- tracked objects

    private WorkingSet.Obj buf(int id, int poly) {
        LtProgram.Buffer b = prog.buffer(id);
        LedgerKind k = b.digits() ? LedgerKind.DIGITS : LedgerKind.CIPHERTEXT;
        return ws.obj(WorkingSet.key(WorkingSet.BUF, id, poly), k, lb, d);
    }

    private WorkingSet.Obj key(int rotation, int part, int t) {
        return ws.obj(WorkingSet.key(WorkingSet.KEY, rotation, part * beta + t), LedgerKind.KEYS, lb, d);
    }

    private WorkingSet.Obj diag(int r) {
        return storage == Storage.COMPACT
                ? ws.obj(WorkingSet.key(WorkingSet.DIAG, r, 0), LedgerKind.DIAGONALS, lay.compactBytes(), 1)
                : ws.obj(WorkingSet.key(WorkingSet.DIAG, r, 0), LedgerKind.DIAGONALS, lb, d);
    }

    private WorkingSet.Obj twf() {
        return ws.obj(WorkingSet.key(WorkingSet.TWF, 0, 0), LedgerKind.TWIDDLES, lb, d);
    }

    private WorkingSet.Obj twi() {
        return ws.obj(WorkingSet.key(WorkingSet.TWI, 0, 0), LedgerKind.TWIDDLES, lb, d);
    }

    /** A fresh on-chip-only object of {@code limbs} limbs (never read or written off chip). */
    private WorkingSet.Obj scratch(int limbs) {
        return ws.scratch(LedgerKind.CIPHERTEXT, lb, limbs);
    }

    /** End of buffer {@code id}'s Q limbs if it is Q-only, else D. */
    private int end(int id) {
        return prog.buffer(id).qOnly() ? lq : d;
    }

    private void loadBuf(int id, int from, int to) {
        int e = Math.min(to, end(id));
        if (from < e) ws.load(buf(id, 0), from, e);
    }

    private void loadDigits(int id, int from, int to) {
        for (int t = 0; t < beta; t++) ws.load(buf(id, t), from, to);
    }

    private void produceDigits(int id, int from, int to) {
        for (int t = 0; t < beta; t++) ws.produce(buf(id, t), from, to);
    }

    private void evictDigits(int id, int from, int to) {
        for (int t = 0; t < beta; t++) ws.evict(buf(id, t), from, to);
    }

    private void dropDigits(int id, int from, int to) {
        for (int t = 0; t < beta; t++) ws.drop(buf(id, t), from, to);
    }

    private void loadKey(int rotation, int from, int to) {
        for (int part = 0; part < 2; part++) for (int t = 0; t < beta; t++) ws.load(key(rotation, part, t), from, to);
    }

    private void dropKey(int rotation, int from, int to) {
        for (int part = 0; part < 2; part++) for (int t = 0; t < beta; t++) ws.drop(key(rotation, part, t), from, to);
    }

    private static <T> List<List<T>> groups(List<T> items, int size) {
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i += size) out.add(items.subList(i, Math.min(items.size(), i + size)));
        return out;
    }

    private List<int[]> limbGroups(int l) {
        List<int[]> out = new ArrayList<>();
        for (int j = 0; j < d; j += l) out.add(new int[] {j, Math.min(d, j + l)});
        return out;
    }

    private void release(int id) {
        if (st != null) st.release(id);
    }

    private static List<LtProgram.Step> of(List<LtProgram.Step> steps, LtProgram.Kind k) {
        return steps.stream().filter(s -> s.kind() == k).toList();
    }

    // ---------------------------------------------------------------- Phase 1: lines 1–5

    /**
     * C'_1 in whole; D_0's prologue (INTT of C'_1, one twiddle table at a time, prepared digits in
     * place of the copy). Then per group of l1 limbs: C'_0's limbs give A_0 = P·C'_0 (kept for the
     * group, then written), B_0 = P·C'_1 is written, D_0's limbs are made, and per group of m1 inner
     * keys the key limbs give A_i, B_i and b_i = INTT(B_i) for those limbs.
     */
    private void phase1() {
        List<LtProgram.Step> steps = prog.phase(1);
        ws.beginPhase(1);
        LtProgram.Step dec =
                of(steps, LtProgram.Kind.DECOMPOSE).stream().findFirst().orElse(null);
        List<LtProgram.Step> times = of(steps, LtProgram.Kind.TIMES_P);
        List<LtProgram.Step> inner = of(steps, LtProgram.Kind.KEY_SWITCH);
        Map<Integer, LtProgram.Step> intt = new HashMap<>();
        for (LtProgram.Step s : of(steps, LtProgram.Kind.INTT)) intt.put(s.in().get(0), s);
        int ct0 = prog.input0(), ct1 = prog.input1();
        int a0 = times.get(0).out().get(0), b0 = times.get(1).out().get(0);
        if (st != null) {
            st.timesP(times.get(0));
            st.timesP(times.get(1));
        }
        if (dec == null) { // no rotation: A_0 and B_0 only
            loadBuf(ct0, 0, lq);
            ws.produce(buf(a0, 0), 0, lq);
            ws.drop(buf(ct0, 0), 0, lq);
            ws.evict(buf(a0, 0), 0, lq);
            loadBuf(ct1, 0, lq);
            ws.produce(buf(b0, 0), 0, lq);
            ws.drop(buf(ct1, 0), 0, lq);
            ws.evict(buf(b0, 0), 0, lq);
            ws.endPhase();
            return;
        }
        loadBuf(ct1, 0, lq);
        WorkingSet.Obj tw = twi();
        for (int j = 0; j < lq; j++) {
            ws.load(tw, j, j + 1);
            ws.drop(tw, j, j + 1);
        }
        WorkingSet.Obj y = scratch(lq), u = scratch(beta);
        ws.produce(y, 0, lq);
        ws.produce(u, 0, beta);
        ExecState.DecomposeJob job = st == null ? null : st.new DecomposeJob(dec);
        int d0 = dec.out().get(0);
        for (int[] lg : limbGroups(g.l1())) {
            int f = lg[0], t = lg[1], tq = Math.min(t, lq);
            loadBuf(ct0, f, tq);
            ws.produce(buf(a0, 0), f, tq);
            ws.drop(buf(ct0, 0), f, tq);
            ws.produce(buf(b0, 0), f, tq);
            ws.evict(buf(b0, 0), f, tq);
            ws.load(twf(), f, t);
            produceDigits(d0, f, t);
            if (job != null) st.decomposeRange(job, f, t);
            if (!intt.isEmpty()) ws.load(twi(), f, t);
            if (inner.isEmpty()) ws.iteration();
            for (List<LtProgram.Step> kg : groups(inner, g.m1())) {
                ws.iteration();
                for (LtProgram.Step s : kg) loadKey(s.rotation(), f, t);
                for (LtProgram.Step s : kg) {
                    ws.produce(buf(s.out().get(0), 0), f, t);
                    ws.produce(buf(s.out().get(1), 0), f, t);
                    if (st != null) st.keySwitchRange(s, f, t, t == d);
                    LtProgram.Step it = intt.get(s.out().get(1));
                    if (it != null) {
                        ws.produce(buf(it.out().get(0), 0), f, t);
                        if (st != null) st.intt(it, f, t);
                    }
                }
                for (LtProgram.Step s : kg) {
                    ws.evict(buf(s.out().get(0), 0), f, t);
                    ws.evict(buf(s.out().get(1), 0), f, t);
                    LtProgram.Step it = intt.get(s.out().get(1));
                    if (it != null) ws.evict(buf(it.out().get(0), 0), f, t);
                    dropKey(s.rotation(), f, t);
                }
            }
            ws.drop(twf(), f, t);
            ws.drop(twi(), f, t);
            evictDigits(d0, f, t);
            ws.evict(buf(a0, 0), f, tq);
        }
        ws.drop(y, 0, lq);
        ws.drop(u, 0, beta);
        if (job != null) job.end();
        ws.drop(buf(ct1, 0), 0, lq);
        if (st != null) for (LtProgram.Step s : steps) releaseAfterPhase(s, 1);
        ws.endPhase();
    }

    // ---------------------------------------------------------------- Phase 2: lines 6–7

    /**
     * Per group of m2 sources: each b_i in whole, ModDown (its centring row as scratch, the prepared
     * P limbs in place) to b'_i, which stays on chip with its prepared digits; then per group of l2
     * limbs the digits D_i of the whole group, sharing one load of the NTT twiddles.
     */
    private void phase2() {
        List<LtProgram.Step> steps = prog.phase(2);
        ws.beginPhase(2);
        List<LtProgram.Step[]> pairs = new ArrayList<>();
        for (int i = 0; i < steps.size(); i += 2) pairs.add(new LtProgram.Step[] {steps.get(i), steps.get(i + 1)});
        for (List<LtProgram.Step[]> grp : groups(pairs, g.m2())) {
            List<ExecState.DecomposeJob> jobs = new ArrayList<>();
            List<WorkingSet.Obj> prepared = new ArrayList<>();
            for (LtProgram.Step[] pr : grp) {
                int bi = pr[0].in().get(0), bp = pr[0].out().get(0);
                loadBuf(bi, 0, d);
                WorkingSet.Obj mdU = scratch(1);
                ws.produce(mdU, 0, 1);
                if (st != null) st.modDown(pr[0]);
                ws.produce(buf(bp, 0), 0, lq);
                ws.drop(mdU, 0, 1);
                ws.drop(buf(bi, 0), 0, d);
                release(bi);
                WorkingSet.Obj y = scratch(lq), u = scratch(beta);
                ws.produce(y, 0, lq);
                ws.produce(u, 0, beta);
                prepared.add(y);
                prepared.add(u);
                if (st != null) jobs.add(st.new DecomposeJob(pr[1]));
            }
            for (int[] lg : limbGroups(g.l2())) {
                int f = lg[0], t = lg[1];
                ws.iteration();
                ws.load(twf(), f, t);
                for (int k = 0; k < grp.size(); k++) {
                    produceDigits(grp.get(k)[1].out().get(0), f, t);
                    if (st != null) st.decomposeRange(jobs.get(k), f, t);
                }
                for (LtProgram.Step[] pr : grp) evictDigits(pr[1].out().get(0), f, t);
                ws.drop(twf(), f, t);
            }
            for (WorkingSet.Obj o : prepared) ws.drop(o, 0, lq);
            for (LtProgram.Step[] pr : grp) {
                ws.drop(buf(pr[0].out().get(0), 0), 0, lq);
                release(pr[0].out().get(0));
            }
            for (ExecState.DecomposeJob j : jobs) j.end();
        }
        ws.endPhase();
    }

    // ---------------------------------------------------------------- Phase 3: lines 8–11

    /**
     * Per group of l3 limbs, per group of m3 middle keys (kept resident): the sources (A_i, D_i) the
     * keys apply to, m4 at a time, and every (A_{j+i}, B_{j+i}) they give, written out at once.
     */
    private void phase3() {
        List<LtProgram.Step> steps = prog.phase(3);
        ws.beginPhase(3);
        Int2ObjectLinkedOpenHashMap<List<LtProgram.Step>> byRot = new Int2ObjectLinkedOpenHashMap<>();
        for (LtProgram.Step s : steps)
            byRot.computeIfAbsent(s.rotation(), k -> new ArrayList<>()).add(s);
        List<Integer> rots = new ArrayList<>(byRot.keySet());
        for (int[] lg : limbGroups(g.l3())) {
            int f = lg[0], t = lg[1];
            for (List<Integer> kg : groups(rots, g.m3())) {
                for (int r : kg) loadKey(r, f, t);
                IntArrayList srcs = new IntArrayList(); // digits buffer ids, in first-use order
                for (int r : kg)
                    for (LtProgram.Step s : byRot.get(r)) if (!srcs.contains(s.in().get(0))) srcs.add(s.in().get(0));
                srcs.sort(null);
                for (List<Integer> sg : groups(new ArrayList<>(srcs), g.m4())) {
                    ws.iteration();
                    List<LtProgram.Step> tile = new ArrayList<>();
                    for (int r : kg) for (LtProgram.Step s : byRot.get(r)) if (sg.contains(s.in().get(0))) tile.add(s);
                    for (int src : sg) {
                        LtProgram.Step any = tile.stream()
                                .filter(s -> s.in().get(0) == src)
                                .findFirst()
                                .orElseThrow();
                        loadBuf(any.in().get(1), f, t);
                        loadDigits(src, f, t);
                    }
                    for (LtProgram.Step s : tile) {
                        ws.produce(buf(s.out().get(0), 0), f, t);
                        ws.produce(buf(s.out().get(1), 0), f, t);
                        if (st != null) st.keySwitchRange(s, f, t, t == d);
                        ws.evict(buf(s.out().get(0), 0), f, t);
                        ws.evict(buf(s.out().get(1), 0), f, t);
                    }
                    for (int src : sg) {
                        LtProgram.Step any = tile.stream()
                                .filter(s -> s.in().get(0) == src)
                                .findFirst()
                                .orElseThrow();
                        ws.drop(buf(any.in().get(1), 0), f, t);
                        dropDigits(src, f, t);
                    }
                }
                for (int r : kg) dropKey(r, f, t);
            }
        }
        if (st != null) for (LtProgram.Step s : steps) releaseAfterPhase(s, 3);
        ws.endPhase();
    }

    // ---------------------------------------------------------------- Phase 4: lines 12–14

    /**
     * Per group of m5 giant steps (their accumulators U_{0,k}, U_{1,k} resident), per group of l4
     * limbs: every baby step's (A_b, B_b) limbs once, with the diagonals F̃_{k,b} of the group
     * (precomputed limbs, or the compact word vector expanded into scratch limbs), then the U limbs out.
     * The babies come from {@code src}; diagonals {@code block} does not hold are zero and skipped
     * (null: every diagonal of the plan); with {@code accumulate} the U limbs are read in first.
     */
    private void phase4(ExecState src, EncodedTransform block, boolean accumulate, boolean releaseInputs) {
        List<LtProgram.Step> steps = prog.phase(4);
        ws.beginPhase(4);
        boolean compact = storage == Storage.COMPACT;
        for (List<LtProgram.Step> og : groups(steps, g.m5())) {
            int[] babies = og.stream()
                    .flatMapToInt(s -> s.babies().stream())
                    .distinct()
                    .sorted()
                    .toArray();
            if (accumulate && og.stream().noneMatch(s -> s.diagonals().stream().anyMatch(block::contains)))
                continue; // U unchanged: nothing moves
            for (int[] lg : limbGroups(g.l4())) {
                int f = lg[0], t = lg[1];
                if (compact) ws.load(twf(), f, t);
                for (LtProgram.Step s : og) {
                    if (accumulate) {
                        ws.load(buf(s.out().get(0), 0), f, t);
                        ws.load(buf(s.out().get(1), 0), f, t);
                    }
                    ws.produce(buf(s.out().get(0), 0), f, t);
                    ws.produce(buf(s.out().get(1), 0), f, t);
                }
                for (int b : babies) {
                    int tb = b == 0 ? Math.min(t, lq) : t;
                    int aId = -1, bId = -1;
                    List<Integer> rs = new ArrayList<>();
                    for (LtProgram.Step s : og) {
                        for (int i = 0; i < s.babies().length(); i++) {
                            if (s.babies().get(i) != b) continue;
                            aId = s.in().get(2 * i);
                            bId = s.in().get(2 * i + 1);
                            if (block == null || block.contains(s.diagonals().get(i)))
                                rs.add(s.diagonals().get(i));
                        }
                    }
                    if (rs.isEmpty()) continue; // no diagonal of this block uses baby b
                    ws.iteration();
                    if (f >= tb) continue;
                    loadBuf(aId, f, tb);
                    loadBuf(bId, f, tb);
                    List<WorkingSet.Obj> exp = new ArrayList<>();
                    for (int r : rs) {
                        if (compact) {
                            ws.load(diag(r), 0, 1);
                            WorkingSet.Obj e = scratch(tb - f);
                            ws.produce(e, 0, tb - f);
                            exp.add(e);
                        } else {
                            ws.load(diag(r), f, tb);
                        }
                    }
                    ws.drop(buf(aId, 0), f, tb);
                    ws.drop(buf(bId, 0), f, tb);
                    for (int r : rs) ws.drop(diag(r), 0, d);
                    for (WorkingSet.Obj e : exp) ws.drop(e, 0, tb - f);
                }
                if (st != null) st.diagonalSumsRange(src, block, og, f, t, t == d, accumulate);
                for (LtProgram.Step s : og) {
                    ws.evict(buf(s.out().get(0), 0), f, t);
                    ws.evict(buf(s.out().get(1), 0), f, t);
                }
                if (compact) ws.drop(twf(), f, t);
            }
        }
        if (st != null && releaseInputs) for (LtProgram.Step s : steps) releaseAfterPhase(s, 4);
        ws.endPhase();
    }

    // ---------------------------------------------------------------- Phase 5: lines 15–18

    /**
     * Per group of m6 outer rotations: each U_{1,k} in whole, INTT (twiddles loaded once per group),
     * ModDown to u_k and its prepared digits, kept on chip; then per group of l5 limbs: C_0, C_1 in
     * (U_{·,0} the first time), E_k's limbs, the keys and U_{0,k} for every k of the group, C out.
     */
    private void phase5() {
        List<LtProgram.Step> steps = prog.phase(5);
        ws.beginPhase(5);
        LtProgram.Step move = steps.get(0);
        int c0 = move.out().get(0), c1 = move.out().get(1);
        boolean fromU = move.in().get(0) >= 0;
        if (st != null) st.move(move);
        List<LtProgram.Step[]> quads = new ArrayList<>();
        for (int i = 1; i < steps.size(); i += 4)
            quads.add(new LtProgram.Step[] {steps.get(i), steps.get(i + 1), steps.get(i + 2), steps.get(i + 3)});
        boolean first = true;
        for (List<LtProgram.Step[]> grp : groups(quads, g.m6())) {
            List<ExecState.DecomposeJob> jobs = new ArrayList<>();
            List<WorkingSet.Obj> onChip = new ArrayList<>();
            // INTT of every U_{1,k}, one limb (and one shared twiddle table) at a time: the P limbs stay
            // as ModDown's prepared source, each Q limb becomes a limb of u_k at once
            for (int j = lq; j < d; j++) {
                ws.load(twi(), j, j + 1);
                for (LtProgram.Step[] q : grp) loadBuf(q[0].in().get(0), j, j + 1);
                ws.drop(twi(), j, j + 1);
            }
            List<WorkingSet.Obj> centring = new ArrayList<>(), uks = new ArrayList<>();
            for (LtProgram.Step[] q : grp) {
                WorkingSet.Obj c = scratch(1);
                ws.produce(c, 0, 1);
                centring.add(c);
                uks.add(scratch(lq)); // u_k never leaves the chip
                if (st != null) {
                    st.intt(q[0], 0, d);
                    st.modDown(q[1]);
                }
            }
            for (int j = 0; j < lq; j++) {
                ws.load(twi(), j, j + 1);
                for (int k = 0; k < grp.size(); k++) {
                    int u1 = grp.get(k)[0].in().get(0);
                    loadBuf(u1, j, j + 1);
                    ws.produce(uks.get(k), j, j + 1);
                    ws.drop(buf(u1, 0), j, j + 1);
                }
                ws.drop(twi(), j, j + 1);
            }
            for (int k = 0; k < grp.size(); k++) {
                LtProgram.Step[] q = grp.get(k);
                ws.drop(buf(q[0].in().get(0), 0), 0, d);
                ws.drop(centring.get(k), 0, 1);
                release(q[0].in().get(0));
                WorkingSet.Obj yk = scratch(lq), uc = scratch(beta);
                ws.produce(yk, 0, lq);
                ws.produce(uc, 0, beta);
                onChip.add(uks.get(k));
                onChip.add(yk);
                onChip.add(uc);
                if (st != null) jobs.add(st.new DecomposeJob(q[2]));
            }
            for (int[] lg : limbGroups(g.l5())) {
                int f = lg[0], t = lg[1];
                ws.iteration();
                ws.load(twf(), f, t);
                if (first && !fromU) {
                    ws.produce(buf(c0, 0), f, t);
                    ws.produce(buf(c1, 0), f, t);
                } else {
                    loadBuf(c0, f, t);
                    loadBuf(c1, f, t);
                }
                for (int k = 0; k < grp.size(); k++) {
                    LtProgram.Step[] q = grp.get(k);
                    int ek = q[2].out().get(0), u0 = q[3].in().get(1);
                    produceDigits(ek, f, t);
                    if (st != null) st.decomposeRange(jobs.get(k), f, t);
                    loadKey(q[3].rotation(), f, t);
                    loadBuf(u0, f, t);
                    if (st != null) st.keySwitchRange(q[3], f, t, t == d);
                    dropDigits(ek, f, t);
                    dropKey(q[3].rotation(), f, t);
                    ws.drop(buf(u0, 0), f, t);
                }
                ws.produce(buf(c0, 0), f, t); // C += …: its limbs are now dirty
                ws.produce(buf(c1, 0), f, t);
                ws.evict(buf(c0, 0), f, t);
                ws.evict(buf(c1, 0), f, t);
                ws.drop(twf(), f, t);
            }
            for (WorkingSet.Obj o : onChip) ws.drop(o, 0, lq);
            for (ExecState.DecomposeJob j : jobs) j.end();
            for (LtProgram.Step[] q : grp) {
                release(q[1].out().get(0));
                release(q[2].out().get(0));
                release(q[3].in().get(1));
            }
            first = false;
        }
        ws.endPhase();
    }

    // ---------------------------------------------------------------- Phase 6: line 19

    /**
     * The dropped limbs (q_ℓ and P) of C_0 and C_1 in, INTT with one twiddle table at a time and
     * prepared in place; then per group of l6 output limbs: C's limbs and the twiddles in, the output
     * limbs of both polynomials out (ModDown merged with rescale).
     */
    private void phase6() {
        List<LtProgram.Step> steps = prog.phase(6);
        ws.beginPhase(6);
        int c0 = steps.get(0).in().get(0), c1 = steps.get(1).in().get(0);
        int o0 = steps.get(0).out().get(0), o1 = steps.get(1).out().get(0);
        for (int j = level; j < d; j++) {
            ws.load(twi(), j, j + 1);
            loadBuf(c0, j, j + 1);
            loadBuf(c1, j, j + 1);
            ws.drop(twi(), j, j + 1);
        }
        WorkingSet.Obj u0 = scratch(1), u1 = scratch(1);
        ws.produce(u0, 0, 1);
        ws.produce(u1, 0, 1);
        if (st != null) for (LtProgram.Step s : steps) st.modDownRescale(s);
        for (int f = 0; f < level; f += g.l6()) {
            int t = Math.min(level, f + g.l6());
            ws.iteration();
            ws.load(twf(), f, t);
            loadBuf(c0, f, t);
            loadBuf(c1, f, t);
            ws.produce(buf(o0, 0), f, t);
            ws.produce(buf(o1, 0), f, t);
            ws.drop(buf(c0, 0), f, t);
            ws.drop(buf(c1, 0), f, t);
            ws.drop(twf(), f, t);
            ws.evict(buf(o0, 0), f, t);
            ws.evict(buf(o1, 0), f, t);
        }
        ws.drop(buf(c0, 0), 0, d);
        ws.drop(buf(c1, 0), 0, d);
        ws.drop(u0, 0, 1);
        ws.drop(u1, 0, 1);
        release(c0);
        release(c1);
        ws.endPhase();
    }

    /** Releases the buffers a phase read for the last time. */
    private void releaseAfterPhase(LtProgram.Step s, int phase) {
        for (int i = 0; i < s.in().length(); i++) {
            int id = s.in().get(i);
            if (id >= 0 && lastPhase(id) == phase) st.release(id);
        }
    }

    private int lastPhase(int id) {
        return prog.steps().get(prog.lastUse(id)).phase();
    }
}
