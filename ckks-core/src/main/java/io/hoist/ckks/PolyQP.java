package io.hoist.ckks;

import io.hoist.ring.Domain;
import io.hoist.ring.RnsPoly;

/**
 * A polynomial over QP: its residues modulo q_0 … q_ℓ and modulo all special primes p_0 … p_{α−1}
 * (Lattigo's ringqp.Poly). Key-switching keys, decomposed digits, hoisted rotations and
 * linear-transform diagonals live here.
 */
public record PolyQP(RnsPoly q, RnsPoly p) {

    public static PolyQP zero(CkksContext ctx, int level, Domain domain) {
        return new PolyQP(ctx.ringQ().newPoly(level, domain), ctx.ringP().newPoly(ctx.alpha() - 1, domain));
    }

    /** A view of the Q limbs up to {@code level} and all P limbs (shares arrays). */
    public PolyQP atLevel(int level) {
        return new PolyQP(q.atLevel(level), p);
    }

    public int level() {
        return q.level();
    }

    public PolyQP copy() {
        return new PolyQP(q.copy(), p.copy());
    }

    /** Number of limbs, ℓ+1+α. */
    public int limbCount() {
        return q.limbCount() + p.limbCount();
    }
}
