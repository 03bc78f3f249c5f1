package io.hoist.lt.exec;

import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.PhaseHooks;
import io.hoist.lt.schedule.SixPhaseWalk;
import java.util.List;

/**
 * The pooled limbs a six-phase evaluation holds at once, found by walking its schedule without arithmetic:
 * each hook opens the buffers its step writes as {@link ExecState#ensure} does and each release closes one;
 * a Decompose holds its prepared digits until it ends (the walk keeps several open at once), and a pass of
 * diagonal sums one thread's expansions of compact diagonals. On the way it builds the diagonal sums' term
 * tables the passes use. A lower bound of the executor's peak, as {@link ExecState#programOrderPeakLimbs} is of
 * the direct one's: the kernels' own scratch and a Decompose's copy of an NTT-domain input are left out.
 */
final class PhasedPeak implements PhaseHooks {
    private final EncodedDiagonals block;
    private final LtProgram prog;
    private final int threads;
    private final long[] held;
    private long live, peak;

    private PhasedPeak(EncodedDiagonals block, int threads) {
        this.block = block;
        this.prog = block.program();
        this.threads = threads;
        this.held = new long[prog.buffers().size()];
    }

    /** The peak of {@code block}'s walk under grouping {@code g} and {@code budget}, on {@code threads} threads. */
    static long limbs(EncodedDiagonals block, Grouping g, long budget, int threads) {
        PhasedPeak walk = new PhasedPeak(block, threads);
        SixPhaseWalk.walk(walk.prog, block.storage(), g, budget, walk);
        return walk.peak;
    }

    private void opened(LtProgram.Step s, long scratch) {
        live += ExecState.opens(prog, held, s, false);
        peak = Math.max(peak, live + scratch);
    }

    @Override
    public void timesP(LtProgram.Step s) {
        opened(s, 0);
    }

    @Override
    public Decomposition decompose(LtProgram.Step s) {
        long prepared = prog.layout().level() + 1L + prog.layout().beta(); // each digit's Q limbs and one more
        live += prepared;
        opened(s, 0);
        return new Decomposition() {
            @Override
            public void limbs(int from, int to) {}

            @Override
            public void end() {
                live -= prepared;
            }
        };
    }

    @Override
    public void keySwitch(LtProgram.Step s, int from, int to, boolean last) {
        opened(s, 0);
    }

    @Override
    public void intt(LtProgram.Step s, int from, int to) {
        opened(s, 0);
    }

    @Override
    public void modDown(LtProgram.Step s) {
        opened(s, 0);
    }

    @Override
    public void diagonalSums(List<LtProgram.Step> group, int from, int to, boolean last, boolean accumulate) {
        int scratch = DiagonalSums.preparePhased(block, group, from, to, threads);
        for (LtProgram.Step s : group) opened(s, scratch);
    }

    @Override
    public void move(LtProgram.Step s) {
        opened(s, 0);
    }

    @Override
    public void modDownRescale(LtProgram.Step s) {
        opened(s, 0);
    }

    @Override
    public void release(int id) {
        if (id < 0) return;
        live -= held[id];
        held[id] = 0;
    }
}
