package io.hoist.lt.exec;

import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.schedule.PhaseHooks;
import java.util.List;

/**
 * The six-phase walk's compute on one execution state: each hook runs the step kernel on the limb
 * range the walk finishes. Diagonal sums read the babies of {@code source} (the state itself, or a
 * block column's) and the diagonals of {@code block} (the state's own transform when null).
 */
final class KernelHooks implements PhaseHooks {
    private final ExecState st;
    private final ExecState source;
    private final EncodedDiagonals block;

    KernelHooks(ExecState st, ExecState source, EncodedDiagonals block) {
        this.st = st;
        this.source = source;
        this.block = block == null ? st.et : block;
    }

    @Override
    public void timesP(LtProgram.Step s) {
        st.timesP(s);
    }

    @Override
    public Decomposition decompose(LtProgram.Step s) {
        return new DecomposeJob(st, s);
    }

    @Override
    public void keySwitch(LtProgram.Step s, int from, int to, boolean last) {
        st.keySwitchRange(s, from, to, last);
    }

    @Override
    public void intt(LtProgram.Step s, int from, int to) {
        st.intt(s, from, to);
    }

    @Override
    public void modDown(LtProgram.Step s) {
        st.modDown(s);
    }

    @Override
    public void diagonalSums(List<LtProgram.Step> group, int from, int to, boolean last, boolean accumulate) {
        DiagonalSums.range(st, source, block, group, from, to, last, accumulate);
    }

    @Override
    public void move(LtProgram.Step s) {
        st.move(s);
    }

    @Override
    public void modDownRescale(LtProgram.Step s) {
        st.modDownRescale(s);
    }

    @Override
    public void release(int id) {
        st.release(id);
    }
}
