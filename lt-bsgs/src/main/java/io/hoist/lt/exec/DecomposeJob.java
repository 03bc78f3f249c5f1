package io.hoist.lt.exec;

import io.hoist.ckks.KeySwitcher;
import io.hoist.ckks.PolyQP;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.schedule.PhaseHooks;
import io.hoist.ring.Domain;
import io.hoist.ring.Op;
import io.hoist.ring.RnsPoly;

/**
 * One DECOMPOSE step of an execution: begun with the coefficient form and the prepared digits (all
 * limbs needed), then the digit limbs range by range, then ended (scratch back to the pool, counted).
 */
final class DecomposeJob implements PhaseHooks.Decomposition {
    private final ExecState st;
    private final RnsPoly coeff;
    private final RnsPoly ntt;
    private final boolean ownCoeff;
    private final KeySwitcher.Prepared[] prep;
    private final PolyQP[] out;

    DecomposeJob(ExecState st, LtProgram.Step s) {
        this.st = st;
        RnsPoly src = st.poly(s.in().get(0)).q();
        if (src.domain() == Domain.NTT) {
            coeff = st.ctx.ringQ().wrap(st.pool.get(st.lq), Domain.NTT);
            ntt = src;
            ownCoeff = true;
        } else {
            coeff = src;
            ntt = null;
            ownCoeff = false;
        }
        try { // the INTT inside: a parallel one throws when its caller is interrupted, and the copy goes back
            if (ownCoeff) {
                for (int j = 0; j < st.lq; j++) System.arraycopy(src.limb(j), 0, coeff.limb(j), 0, st.n);
                st.ctx.ringQ().intt(coeff, st.counters);
            }
            prep = st.ks.decomposePrepare(coeff, st.pool, st.counters);
        } catch (RuntimeException | Error e) {
            if (ownCoeff) st.pool.put(coeff.limbs());
            throw e;
        }
        out = st.ensureDigits(s.out().get(0));
        st.opened(this);
    }

    /** Digit limbs [from, to), spread over the engine's threads (on the calling thread alone from a worker). */
    @Override
    public void limbs(int from, int to) {
        st.ks.decomposeLimbs(prep, coeff, ntt, out, from, to, st.counters);
    }

    @Override
    public void end() {
        free();
        st.counters.increment(Op.DECOMPOSE);
        st.counters.add(Op.LIMBS_READ, st.lq);
        st.counters.add(Op.LIMBS_WRITTEN, (long) out.length * st.d);
    }

    /** Gives the prepared digits and the coefficient copy back to the pool (once). */
    void free() {
        if (!st.closed(this)) return;
        st.ks.release(prep, st.pool);
        if (ownCoeff) st.pool.put(coeff.limbs());
    }
}
