package io.hoist.lt.schedule;

import io.hoist.lt.plan.LtProgram;
import java.util.List;

/**
 * The compute of the six-phase walk ({@link SixPhaseWalk}): the walk decides what is resident and
 * in which order limb ranges are finished; the hooks do the arithmetic of each step on those limbs.
 * {@link #NONE} computes nothing (the dry walk that measures traffic); the engine's kernel hooks run
 * the step kernels. Every method has a no-op default.
 */
public interface PhaseHooks {
    /** The hooks of the dry walk: no arithmetic, no buffers. */
    PhaseHooks NONE = new PhaseHooks() {};

    /** A Decompose begun by {@link #decompose}: its digit limbs are made range by range, then it ends. */
    interface Decomposition {
        Decomposition NONE = new Decomposition() {
            @Override
            public void limbs(int from, int to) {}

            @Override
            public void end() {}
        };

        /** The digits' QP limbs [from, to). */
        void limbs(int from, int to);

        /** All limbs made: frees the prepared digits and counts the Decompose. */
        void end();
    }

    /** TIMES_P: A_0 ← P·C'_0 (or B_0 ← P·C'_1). */
    default void timesP(LtProgram.Step s) {}

    /** DECOMPOSE: the coefficient form and the prepared digits, needed before any limb range. */
    default Decomposition decompose(LtProgram.Step s) {
        return Decomposition.NONE;
    }

    /** KEY_SWITCH over QP limbs [from, to); {@code last} when this range finishes the step. */
    default void keySwitch(LtProgram.Step s, int from, int to, boolean last) {}

    /** INTT of limbs [from, to). */
    default void intt(LtProgram.Step s, int from, int to) {}

    /** MOD_DOWN of a whole polynomial. */
    default void modDown(LtProgram.Step s) {}

    /** DIAGONAL_SUM of the giant steps {@code group} over QP limbs [from, to); {@code accumulate}: add to U. */
    default void diagonalSums(List<LtProgram.Step> group, int from, int to, boolean last, boolean accumulate) {}

    /** MOVE: C takes over U_{·,0}, or starts at zero. */
    default void move(LtProgram.Step s) {}

    /** MOD_DOWN_RESCALE of a whole polynomial. */
    default void modDownRescale(LtProgram.Step s) {}

    /** Buffer {@code id} is read for the last time: its limbs may go back to the pool. */
    default void release(int id) {}
}
