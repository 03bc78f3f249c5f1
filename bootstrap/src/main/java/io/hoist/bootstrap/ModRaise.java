package io.hoist.bootstrap;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.Scratch;
import io.hoist.ckks.WrongOperandException;
import io.hoist.math.ModArith;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.NttTables;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.util.Objects;

/**
 * ModRaise: a level-0 ciphertext (c_0, c_1) mod q_0 read as centred integers and taken to every
 * prime up to {@code level}. It decrypts to c_0 + c_1·s = t + q_0·I over the larger modulus, with
 * t the level-0 plaintext and I a small integer polynomial (|I| ≤ (h+1)/2 for a secret of weight h).
 */
public final class ModRaise {
    private ModRaise() {}

    /** The raised ciphertext at {@code level}, read at {@code scale}. */
    public static Ciphertext raise(CkksContext ctx, Ciphertext ct, int level, double scale) {
        return raise(ctx, ct, level, scale, null);
    }

    /** {@link #raise(CkksContext, Ciphertext, int, double)} made in {@code scratch}, or in fresh memory if null. */
    public static Ciphertext raise(CkksContext ctx, Ciphertext ct, int level, double scale, Scratch scratch) {
        Objects.requireNonNull(ctx, "ctx is null");
        Objects.requireNonNull(ct, "ct is null");
        // another parameter set's residues would be raised with this context's primes and relabelled: a wrong answer
        if (!ct.params().equals(ctx.params()))
            throw new ParameterMismatchException("ModRaise of a ciphertext made under other parameters");
        if (scratch != null) scratch.requireOpenFor(ctx.ringQ());
        if (ct.level() != 0)
            throw new LevelMismatchException("ModRaise takes a level-0 ciphertext, got level " + ct.level());
        if (ct.degree() != 1)
            throw new WrongOperandException("ModRaise takes a degree-1 ciphertext (relinearize first)");
        if (level < 1 || level > ctx.params().maxLevel())
            throw new LevelMismatchException("ModRaise target level " + level + " outside [1, "
                    + ctx.params().maxLevel() + "]");
        Ring rq = ctx.ringQ();
        LimbKernels kernels = ctx.engine().kernels();
        RnsPoly[] out = new RnsPoly[2];
        long q0 = rq.prime(0);
        for (int i = 0; i < 2; i++) {
            long[] c = ct.poly(i, RawAccess.get()).limb(0).clone();
            ctx.engine().inverse(new long[][] {c}, new NttTables[] {rq.tables(0)}, 1, ctx.counters());
            // centred: v − q_0 when v > q_0/2 (the rescale's form), then lifted to each q_j by the engine's kernel: a
            // division per coefficient and prime here made ModRaise 44–45 ms at boot16 on one thread (26–27 now), and
            // the first bootstrap ran it interpreted until C2 had compiled this method (0.2 s of C2)
            LimbKernels.centre(c, q0);
            // every coefficient of every limb is written below
            RnsPoly p = scratch == null ? rq.newPoly(level, Domain.COEFFICIENT) : scratch.newPoly(level);
            p.setDomain(Domain.COEFFICIENT);
            for (int j = 0; j <= level; j++) {
                long qj = rq.prime(j);
                kernels.liftSigned(c, 1, ModArith.shoupQuotient(1, qj), qj, p.limb(j));
            }
            rq.ntt(p);
            out[i] = p;
        }
        return Ciphertext.wrap(RawAccess.get(), ctx.params(), scale, out);
    }
}
