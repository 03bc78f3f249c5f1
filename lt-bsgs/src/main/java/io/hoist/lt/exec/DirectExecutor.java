package io.hoist.lt.exec;

import io.hoist.ckks.Ciphertext;
import io.hoist.lt.plan.LtProgram;
import io.hoist.ring.Parallel;
import java.util.List;

/**
 * Runs an {@link LtProgram} step by step on whole polynomials, in program order — the evaluation
 * order of Algorithm 2 as listed in spec §5.2. Each buffer goes back to the pool right after its
 * last use, so the pool holds the program's live set and nothing more.
 */
final class DirectExecutor {
    private DirectExecutor() {}

    static Ciphertext run(ExecState st, double scale) {
        runPhases(st, 1, 6);
        return st.output(scale);
    }

    /**
     * Runs the steps of phases [from, to] in program order; a buffer whose last use lies outside
     * the range stays with the state (the babies a block product's diagonal sums read).
     */
    static void runPhases(ExecState st, int fromPhase, int toPhase) {
        LtProgram prog = st.prog;
        int d = st.d;
        List<LtProgram.Step> steps = prog.steps();
        for (int idx = 0; idx < steps.size(); idx++) {
            LtProgram.Step s = steps.get(idx);
            if (s.phase() < fromPhase || s.phase() > toPhase) continue;
            int end = layerEnd(steps, idx, st.threads);
            if (end > idx + 1) {
                // the rotations of one layer are independent: one per thread beats splitting each one's few limbs
                st.keySwitchBatch(steps.subList(idx, end));
                for (LtProgram.Step k : steps.subList(idx, end)) release(st, k);
                idx = end - 1;
                continue;
            }
            switch (s.kind()) {
                case DECOMPOSE -> {
                    if (st.hasDigits(s.out().get(0))) break; // shared with another transform (evaluateMany)
                    DecomposeJob job = new DecomposeJob(st, s);
                    Parallel.ranges(st.threads, d, job::limbsSerial);
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
