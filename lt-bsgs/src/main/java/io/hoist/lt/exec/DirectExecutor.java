package io.hoist.lt.exec;

import io.hoist.ckks.Ciphertext;
import io.hoist.lt.plan.LtProgram;
import io.hoist.ring.Parallel;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs an {@link LtProgram} step by step on whole polynomials, in program order — the evaluation
 * order of Algorithm 2 as listed in spec §5.2; the run of diagonal sums (lines 12–14, whose outputs are
 * all live until phase 5 anyway) goes to the kernels at once. Each buffer goes back to the pool right
 * after its last use, so the pool holds the program's live set and nothing more.
 */
final class DirectExecutor {
    private DirectExecutor() {}

    /**
     * Below this many QP limbs per thread, independent chains of small steps run one per thread
     * (n13: 4 limbs on 2 threads); from it on, each step's limb ranges balance well and one working
     * set stays in cache (boot16's 30 limbs: chains measured 1.03–1.11× slower there).
     */
    private static final int CHAINS_BELOW_LIMBS_PER_THREAD = 4;

    static Ciphertext run(ExecState st, double scale) {
        runPhases(st, 1, 6);
        return st.output(scale);
    }

    /**
     * Runs the steps of phases [from, to] in program order; a buffer whose last use lies outside
     * the range stays with the state (the babies a block product's diagonal sums read).
     */
    static void runPhases(ExecState st, int fromPhase, int toPhase) {
        List<LtProgram.Step> steps = st.prog.steps();
        for (int idx = 0; idx < steps.size(); idx++) {
            LtProgram.Step s = steps.get(idx);
            if (s.phase() < fromPhase || s.phase() > toPhase) continue;
            List<List<LtProgram.Step>> chains = chainsFrom(st, steps, idx);
            if (!chains.isEmpty()) {
                runChains(st, chains);
                for (List<LtProgram.Step> c : chains) idx += c.size();
                idx--;
                continue;
            }
            List<List<LtProgram.Step>> across = chainsAcrossKeySwitches(st, steps, idx);
            if (!across.isEmpty()) {
                // lines 15–16 of the next outer rotations one per thread, then the key switches between them in
                // program order; the key switch after the last chain comes next in the loop
                runChains(st, across);
                for (int c = 0; c < across.size() - 1; c++) runStep(st, steps.get(lastIndex(across.get(c)) + 1));
                idx = lastIndex(across.getLast());
                continue;
            }
            if (s.kind() == LtProgram.Kind.DIAGONAL_SUM) { // the run of diagonal sums at once (DiagonalSums.all)
                int run = idx + 1;
                while (run < steps.size()
                        && steps.get(run).kind() == LtProgram.Kind.DIAGONAL_SUM
                        && steps.get(run).phase() <= toPhase) run++;
                List<LtProgram.Step> group = steps.subList(idx, run);
                DiagonalSums.all(st, st, st.et, group, false);
                for (LtProgram.Step g : group) release(st, g);
                idx = run - 1;
                continue;
            }
            int end = layerEnd(steps, idx, st.threads);
            if (end > idx + 1) {
                // the rotations of one layer are independent: one per thread beats splitting each one's few limbs
                st.keySwitchBatch(steps.subList(idx, end));
                for (LtProgram.Step k : steps.subList(idx, end)) release(st, k);
                idx = end - 1;
                continue;
            }
            runStep(st, s);
        }
    }

    /** One step on the whole polynomial (its limbs over the engine's threads), then its buffers' releases. */
    private static void runStep(ExecState st, LtProgram.Step s) {
        int d = st.d;
        switch (s.kind()) {
            case DECOMPOSE -> {
                if (st.hasDigits(s.out().get(0))) break; // shared with another transform (evaluateMany)
                DecomposeJob job = new DecomposeJob(st, s);
                job.limbs(0, d);
                job.end();
            }
            case TIMES_P -> st.timesP(s);
            case KEY_SWITCH -> st.keySwitchAll(s);
            case INTT -> st.intt(s, 0, d);
            case MOD_DOWN -> st.modDown(s);
            case DIAGONAL_SUM -> DiagonalSums.all(st, st, st.et, List.of(s), false);
            case MOVE -> st.move(s);
            case MOD_DOWN_RESCALE -> st.modDownRescale(s);
            case MOD_DOWN_KEEP_LEVEL -> st.modDownKeepLevel(s);
        }
        release(st, s);
    }

    /**
     * The independent chains of the run of single-input INTT, MOD_DOWN and DECOMPOSE steps of one
     * phase starting at {@code from} (line 5's transforms, lines 6–7 per middle source), when the
     * ciphertext has fewer than {@link #CHAINS_BELOW_LIMBS_PER_THREAD} QP limbs per thread and the
     * run forms at least one chain per thread; otherwise none. Lines 15–16 stop at each accumulating
     * key switch, so they run step by step (docs/throughput.md, "Threads").
     */
    private static List<List<LtProgram.Step>> chainsFrom(ExecState st, List<LtProgram.Step> steps, int from) {
        if (!chainsPay(st, steps.get(from))) return List.of();
        List<List<LtProgram.Step>> chains = chains(steps.subList(from, chainableRunEnd(steps, from)));
        return chains.size() >= st.threads ? chains : List.of();
    }

    /**
     * Lines 15–16 (INTT, ModDown, Decompose) of consecutive outer rotations, one chain each, up to one
     * per thread, when the ciphertext is small (as for {@link #chainsFrom}) and each chain is followed
     * by the accumulating key switch of lines 17–18: a chain reads its own U_{1,k} only, so it may run
     * before the key switches of the earlier rotations, which then accumulate in program order (the same
     * sums, bit-identical). Split by limbs instead, each of these small steps paid a section of its own
     * and ran no faster on 2 threads than on 1. Empty when fewer than two such chains start here.
     */
    private static List<List<LtProgram.Step>> chainsAcrossKeySwitches(
            ExecState st, List<LtProgram.Step> steps, int from) {
        if (!chainsPay(st, steps.get(from))) return List.of();
        int phase = steps.get(from).phase();
        List<List<LtProgram.Step>> out = new ArrayList<>();
        IntOpenHashSet switchedIn = new IntOpenHashSet(), switchedOut = new IntOpenHashSet();
        for (int i = from; out.size() < st.threads; ) {
            int end = chainableRunEnd(steps, i);
            List<LtProgram.Step> run = steps.subList(i, end);
            if (run.isEmpty()
                    || run.getFirst().phase() != phase
                    || chains(run).size() != 1
                    || touches(run, switchedIn, switchedOut)) break;
            out.add(run);
            if (end == steps.size()) break;
            LtProgram.Step k = steps.get(end);
            if (k.kind() != LtProgram.Kind.KEY_SWITCH || k.phase() != phase) break;
            for (int j = 0; j < k.in().length(); j++) if (k.in().get(j) >= 0) switchedIn.add(k.in().get(j));
            for (int j = 0; j < k.out().length(); j++)
                if (k.out().get(j) >= 0) switchedOut.add(k.out().get(j));
            i = end + 1;
        }
        // the chains run before the key switches between them: none may read what those write, or write what they read
        return out.size() >= 2 ? out : List.of();
    }

    /** Whether a step of {@code run} reads one of {@code written} or writes one of {@code read}. */
    private static boolean touches(List<LtProgram.Step> run, IntOpenHashSet read, IntOpenHashSet written) {
        for (LtProgram.Step s : run) {
            for (int j = 0; j < s.in().length(); j++) if (written.contains(s.in().get(j))) return true;
            for (int j = 0; j < s.out().length(); j++) if (read.contains(s.out().get(j))) return true;
        }
        return false;
    }

    private static int lastIndex(List<LtProgram.Step> chain) {
        return chain.getLast().index();
    }

    /** Whether chains may start at {@code s}: several threads, fewer QP limbs than pay for a split by limbs, a chainable step. */
    private static boolean chainsPay(ExecState st, LtProgram.Step s) {
        return st.threads >= 2 && st.d < CHAINS_BELOW_LIMBS_PER_THREAD * st.threads && chainable(s);
    }

    /** End (exclusive) of the run of chainable steps of one phase from {@code from}. */
    private static int chainableRunEnd(List<LtProgram.Step> steps, int from) {
        int end = from;
        while (end < steps.size()
                && chainable(steps.get(end))
                && steps.get(end).phase() == steps.get(from).phase()) end++;
        return end;
    }

    private static boolean chainable(LtProgram.Step s) {
        return s.kind() == LtProgram.Kind.INTT
                || s.kind() == LtProgram.Kind.MOD_DOWN
                || s.kind() == LtProgram.Kind.DECOMPOSE;
    }

    /**
     * The steps of a run grouped by data flow: a step joins the chain whose step wrote its input, or
     * that already reads it (a buffer's last reader releases it, so its readers stay in one chain).
     * The latest earlier step of the run that reads or writes the input names the chain: runs are
     * short, and a hash map here met keys its profile from program compilation had not seen and
     * deoptimized in every first evaluation on two threads.
     */
    private static List<List<LtProgram.Step>> chains(List<LtProgram.Step> run) {
        List<List<LtProgram.Step>> chains = new ArrayList<>();
        int[] chainOf = new int[run.size()];
        for (int i = 0; i < run.size(); i++) {
            int in = run.get(i).in().get(0), c = -1;
            for (int j = i - 1; j >= 0 && c < 0; j--) {
                LtProgram.Step t = run.get(j);
                if (t.in().get(0) == in || t.out().get(0) == in) c = chainOf[j];
            }
            if (c < 0) {
                c = chains.size();
                chains.add(new ArrayList<>());
            }
            chains.get(c).add(run.get(i));
            chainOf[i] = c;
        }
        return chains;
    }

    /**
     * Independent chains one per thread, each step of a chain whole and in order: steps over the
     * few limbs of a small ciphertext split badly by limbs (3 Q limbs on 2 threads) and each split
     * pays a worker's wake-up. Nested limb work then runs in place (a worker of the pool).
     */
    private static void runChains(ExecState st, List<List<LtProgram.Step>> chains) {
        Parallel.forEach(st.threads, chains.size(), c -> {
            for (LtProgram.Step s : chains.get(c)) runStep(st, s);
        });
    }

    private static void release(ExecState st, LtProgram.Step s) {
        for (int i = 0; i < s.in().length(); i++) releaseIfDone(st, s.in().get(i), s.index());
        for (int i = 0; i < s.out().length(); i++) releaseIfDone(st, s.out().get(i), s.index());
    }

    /**
     * End (exclusive) of the run of non-accumulating KEY_SWITCH steps starting at {@code from} (an
     * inner or middle layer: each writes its own A, B), when there are at least as many as threads
     * and more than one thread; otherwise {@code from}.
     */
    private static int layerEnd(List<LtProgram.Step> steps, int from, int threads) {
        if (threads < 2) return from;
        int end = from;
        while (end < steps.size()
                && steps.get(end).kind() == LtProgram.Kind.KEY_SWITCH
                && !steps.get(end).accumulate()
                && steps.get(end).phase() == steps.get(from).phase()) end++;
        return end - from >= threads ? end : from;
    }

    private static void releaseIfDone(ExecState st, int id, int step) {
        if (id >= 0 && st.prog.lastUse(id) == step) st.release(id);
    }
}
