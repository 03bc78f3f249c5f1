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
    /** The limbs open at once over all the states of one evaluation, and their peak. */
    private static final class Tally {
        long live, peak;
    }

    private final Tally tally;
    /** The limbs each buffer of one execution state holds (shared by the hooks of that state). */
    private final long[] held;

    private final EncodedDiagonals block;
    private final LtProgram prog;
    private final int threads;

    private PhasedPeak(Tally tally, long[] held, EncodedDiagonals block, int threads) {
        this.tally = tally;
        this.held = held;
        this.block = block;
        this.prog = block.program();
        this.threads = threads;
    }

    /** The peak of {@code block}'s walk under grouping {@code g} and {@code budget}, on {@code threads} threads. */
    static long limbs(EncodedDiagonals block, Grouping g, long budget, int threads) {
        Tally tally = new Tally();
        LtProgram prog = block.program();
        SixPhaseWalk.walk(
                prog,
                block.storage(),
                g,
                budget,
                new PhasedPeak(tally, new long[prog.buffers().size()], block, threads));
        return tally.peak;
    }

    /**
     * The peak of a six-phase block product over {@code blocks} (null: a zero block), walked as {@code
     * BlockExecutor} walks it: per column its input state's phases 1–3, closed after the column's blocks fed
     * their rows' phase 4; every row's state open to the end, its phases 5–6 last.
     */
    static long blockLimbs(EncodedDiagonals[][] blocks, Grouping g, long budget, int threads) {
        EncodedDiagonals any = EncodedDiagonals.firstOf(blocks);
        Tally tally = new Tally();
        LtProgram prog = any.program();
        int buffers = prog.buffers().size();
        SixPhaseWalk walker = SixPhaseWalk.forBlocks(prog, any.storage(), g, budget);
        long[][] rows = new long[blocks.length][];
        for (int bc = 0; bc < blocks[0].length; bc++) {
            long[] column = null;
            for (int br = 0; br < blocks.length; br++) {
                EncodedDiagonals b = blocks[br][bc];
                if (b == null) continue;
                if (column == null) {
                    column = new long[buffers];
                    walker.input(new PhasedPeak(tally, column, any, threads));
                }
                boolean accumulate = rows[br] != null;
                if (rows[br] == null) rows[br] = new long[buffers];
                walker.block(new PhasedPeak(tally, rows[br], b, threads), b::contains, accumulate);
            }
            if (column != null) for (long h : column) tally.live -= h; // the column's state closes
        }
        for (long[] row : rows) if (row != null) walker.output(new PhasedPeak(tally, row, any, threads));
        return tally.peak;
    }

    private void opened(LtProgram.Step s, long scratch) {
        tally.live += ExecState.opens(prog, held, s, false);
        tally.peak = Math.max(tally.peak, tally.live + scratch);
    }

    @Override
    public void timesP(LtProgram.Step s) {
        opened(s, 0);
    }

    @Override
    public Decomposition decompose(LtProgram.Step s) {
        long prepared = prog.layout().level() + 1L + prog.layout().beta(); // each digit's Q limbs and one more
        tally.live += prepared;
        opened(s, 0);
        return new Decomposition() {
            @Override
            public void limbs(int from, int to) {}

            @Override
            public void end() {
                tally.live -= prepared;
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
        tally.live -= held[id];
        held[id] = 0;
    }
}
