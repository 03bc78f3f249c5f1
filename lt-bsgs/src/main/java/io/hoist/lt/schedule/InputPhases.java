package io.hoist.lt.schedule;

import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Storage;
import it.unimi.dsi.fastutil.ints.Int2ObjectLinkedOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Phases 1–3 of the six-phase walk (Algorithm 2 lines 1–11): an input ciphertext's part — the first
 * Decompose, the inner and middle layers. Its babies stay with the input (a block column).
 */
abstract class InputPhases extends WalkContext {
    InputPhases(LtProgram prog, Storage storage, Grouping g, long budget, PhaseHooks hooks) {
        super(prog, storage, g, budget, hooks);
    }

    // ---------------------------------------------------------------- Phase 1: lines 1–5

    /**
     * C'_1 in whole; D_0's prologue (INTT of C'_1, one twiddle table at a time, prepared digits in
     * place of the copy). Then per group of l1 limbs: C'_0's limbs give A_0 = P·C'_0 (kept for the
     * group, then written), B_0 = P·C'_1 is written, D_0's limbs are made, and per group of m1 inner
     * keys the key limbs give A_i, B_i and b_i = INTT(B_i) for those limbs.
     */
    final void phase1() {
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
        hooks.timesP(times.get(0));
        hooks.timesP(times.get(1));
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
        PhaseHooks.Decomposition job = hooks.decompose(dec);
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
            job.limbs(f, t);
            if (!intt.isEmpty()) ws.load(twi(), f, t);
            if (inner.isEmpty()) ws.iteration();
            for (List<LtProgram.Step> kg : groups(inner, g.m1())) {
                ws.iteration();
                for (LtProgram.Step s : kg) loadKey(s.rotation(), f, t);
                for (LtProgram.Step s : kg) {
                    ws.produce(buf(s.out().get(0), 0), f, t);
                    ws.produce(buf(s.out().get(1), 0), f, t);
                    hooks.keySwitch(s, f, t, t == d);
                    LtProgram.Step it = intt.get(s.out().get(1));
                    if (it != null) {
                        ws.produce(buf(it.out().get(0), 0), f, t);
                        hooks.intt(it, f, t);
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
        job.end();
        ws.drop(buf(ct1, 0), 0, lq);
        for (LtProgram.Step s : steps) releaseAfterPhase(s, 1);
        ws.endPhase();
    }

    // ---------------------------------------------------------------- Phase 2: lines 6–7

    /**
     * Per group of m2 sources: each b_i in whole, ModDown (its centring row as scratch, the prepared
     * P limbs in place) to b'_i, which stays on chip with its prepared digits; then per group of l2
     * limbs the digits D_i of the whole group, sharing one load of the NTT twiddles.
     */
    final void phase2() {
        List<LtProgram.Step> steps = prog.phase(2);
        ws.beginPhase(2);
        List<LtProgram.Step[]> pairs = new ArrayList<>();
        for (int i = 0; i < steps.size(); i += 2) pairs.add(new LtProgram.Step[] {steps.get(i), steps.get(i + 1)});
        for (List<LtProgram.Step[]> grp : groups(pairs, g.m2())) {
            List<PhaseHooks.Decomposition> jobs = new ArrayList<>();
            List<WorkingSet.Obj> prepared = new ArrayList<>();
            for (LtProgram.Step[] pr : grp) {
                int bi = pr[0].in().get(0), bp = pr[0].out().get(0);
                loadBuf(bi, 0, d);
                WorkingSet.Obj mdU = scratch(1);
                ws.produce(mdU, 0, 1);
                hooks.modDown(pr[0]);
                ws.produce(buf(bp, 0), 0, lq);
                ws.drop(mdU, 0, 1);
                ws.drop(buf(bi, 0), 0, d);
                release(bi);
                WorkingSet.Obj y = scratch(lq), u = scratch(beta);
                ws.produce(y, 0, lq);
                ws.produce(u, 0, beta);
                prepared.add(y);
                prepared.add(u);
                jobs.add(hooks.decompose(pr[1]));
            }
            for (int[] lg : limbGroups(g.l2())) {
                int f = lg[0], t = lg[1];
                ws.iteration();
                ws.load(twf(), f, t);
                for (int k = 0; k < grp.size(); k++) {
                    produceDigits(grp.get(k)[1].out().get(0), f, t);
                    jobs.get(k).limbs(f, t);
                }
                for (LtProgram.Step[] pr : grp) evictDigits(pr[1].out().get(0), f, t);
                ws.drop(twf(), f, t);
            }
            for (WorkingSet.Obj o : prepared) ws.drop(o, 0, lq);
            for (LtProgram.Step[] pr : grp) {
                ws.drop(buf(pr[0].out().get(0), 0), 0, lq);
                release(pr[0].out().get(0));
            }
            for (PhaseHooks.Decomposition j : jobs) j.end();
        }
        ws.endPhase();
    }

    // ---------------------------------------------------------------- Phase 3: lines 8–11

    /**
     * Per group of l3 limbs, per group of m3 middle keys (kept resident): the sources (A_i, D_i) the
     * keys apply to, m4 at a time, and every (A_{j+i}, B_{j+i}) they give, written out at once.
     */
    final void phase3() {
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
                        hooks.keySwitch(s, f, t, t == d);
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
        for (LtProgram.Step s : steps) releaseAfterPhase(s, 3);
        ws.endPhase();
    }
}
