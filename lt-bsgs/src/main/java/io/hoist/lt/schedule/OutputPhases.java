package io.hoist.lt.schedule;

import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Phases 4–6 of the six-phase walk (Algorithm 2 lines 12–19): the diagonal sums of one block (or
 * the whole transform), then a block row's outer layer and the ModDown with rescale.
 */
abstract class OutputPhases extends InputPhases {
    OutputPhases(LtProgram prog, Storage storage, Grouping g, long budget, PhaseHooks hooks) {
        super(prog, storage, g, budget, hooks);
    }

    // ---------------------------------------------------------------- Phase 4: lines 12–14

    /**
     * Per group of m5 giant steps (their accumulators U_{0,k}, U_{1,k} resident), per group of l4
     * limbs: every baby step's (A_b, B_b) limbs once, with the diagonals F̃_{k,b} of the group
     * (precomputed limbs, or the compact word vector expanded into scratch limbs), then the U limbs out.
     * Diagonals {@code holds} rejects are zero and skipped (a block of a block product holds only its
     * own); with {@code accumulate} the U limbs are read in first.
     */
    final void phase4(IntPredicate holds, boolean accumulate, boolean releaseInputs) {
        List<LtProgram.Step> steps = prog.phase(4);
        ws.beginPhase(4);
        boolean compact = storage == Storage.COMPACT;
        for (List<LtProgram.Step> og : groups(steps, g.m5())) {
            int[] babies = og.stream()
                    .flatMapToInt(s -> s.babies().stream())
                    .distinct()
                    .sorted()
                    .toArray();
            if (accumulate && og.stream().noneMatch(s -> s.diagonals().stream().anyMatch(holds::test)))
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
                            if (holds.test(s.diagonals().get(i)))
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
                hooks.diagonalSums(og, f, t, t == d, accumulate);
                for (LtProgram.Step s : og) {
                    ws.evict(buf(s.out().get(0), 0), f, t);
                    ws.evict(buf(s.out().get(1), 0), f, t);
                }
                if (compact) ws.drop(twf(), f, t);
            }
        }
        if (releaseInputs) for (LtProgram.Step s : steps) releaseAfterPhase(s, 4);
        ws.endPhase();
    }

    // ---------------------------------------------------------------- Phase 5: lines 15–18

    /**
     * Per group of m6 outer rotations: each U_{1,k} in whole, INTT (twiddles loaded once per group),
     * ModDown to u_k and its prepared digits, kept on chip; then per group of l5 limbs: C_0, C_1 in
     * (U_{·,0} the first time), E_k's limbs, the keys and U_{0,k} for every k of the group, C out.
     */
    final void phase5() {
        List<LtProgram.Step> steps = prog.phase(5);
        ws.beginPhase(5);
        LtProgram.Step move = steps.get(0);
        int c0 = move.out().get(0), c1 = move.out().get(1);
        boolean fromU = move.in().get(0) >= 0;
        hooks.move(move);
        List<LtProgram.Step[]> quads = new ArrayList<>();
        for (int i = 1; i < steps.size(); i += 4)
            quads.add(new LtProgram.Step[] {steps.get(i), steps.get(i + 1), steps.get(i + 2), steps.get(i + 3)});
        boolean first = true;
        for (List<LtProgram.Step[]> grp : groups(quads, g.m6())) {
            List<PhaseHooks.Decomposition> jobs = new ArrayList<>();
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
                hooks.intt(q[0], 0, d);
                hooks.modDown(q[1]);
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
                jobs.add(hooks.decompose(q[2]));
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
                    jobs.get(k).limbs(f, t);
                    loadKey(q[3].rotation(), f, t);
                    loadBuf(u0, f, t);
                    hooks.keySwitch(q[3], f, t, t == d);
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
            for (PhaseHooks.Decomposition j : jobs) j.end();
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
    final void phase6() {
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
        for (LtProgram.Step s : steps) hooks.modDownRescale(s);
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
}
