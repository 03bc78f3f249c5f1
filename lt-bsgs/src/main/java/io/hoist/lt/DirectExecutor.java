package io.hoist.lt;

import io.hoist.ckks.Ciphertext;

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
        for (LtProgram.Step s : prog.steps()) {
            if (s.phase() < fromPhase || s.phase() > toPhase) continue;
            switch (s.kind()) {
                case DECOMPOSE -> {
                    if (st.hasDigits(s.out().get(0))) break;   // shared with another transform (evaluateMany)
                    ExecState.DecomposeJob job = st.new DecomposeJob(s);
                    io.hoist.ring.Parallel.ranges(st.threads, d, job::limbs);
                    job.end();
                }
                case TIMES_P -> st.timesP(s);
                case KEY_SWITCH -> st.keySwitchAll(s);
                case INTT -> st.intt(s, 0, d);
                case MOD_DOWN -> st.modDown(s);
                case DIAGONAL_SUM -> st.diagonalSumsAll(st, st.et, List.of(s), false);
                case MOVE -> st.move(s);
                case MOD_DOWN_RESCALE -> st.modDownRescale(s);
                case MOD_DOWN_KEEP_LEVEL -> st.modDownKeepLevel(s);
            }
            for (int i = 0; i < s.in().length(); i++) releaseIfDone(st, s.in().get(i), s.index());
            for (int i = 0; i < s.out().length(); i++) releaseIfDone(st, s.out().get(i), s.index());
        }
    }

    private static void releaseIfDone(ExecState st, int id, int step) {
        if (id >= 0 && st.prog.lastUse(id) == step) st.release(id);
    }
}
