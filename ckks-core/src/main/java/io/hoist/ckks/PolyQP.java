package io.hoist.ckks;

import io.hoist.ring.Domain;
import io.hoist.ring.LimbPool;
import io.hoist.ring.RnsPoly;

/**
 * A polynomial over QP: its residues modulo q_0 … q_ℓ and modulo all special primes p_0 … p_{α−1}
 * (Lattigo's ringqp.Poly). Key-switching keys, decomposed digits, hoisted rotations and
 * linear-transform diagonals live here. QP limb j is Q limb j for j ≤ ℓ and P limb j − ℓ − 1 after.
 */
public record PolyQP(RnsPoly q, RnsPoly p) {

    public static PolyQP zero(CkksContext ctx, int level, Domain domain) {
        return new PolyQP(ctx.ringQ().newPoly(level, domain), ctx.ringP().newPoly(ctx.alpha() - 1, domain));
    }

    /** A QP polynomial whose limbs come from {@code pool} (arbitrary contents); give it back with {@link #release}. */
    public static PolyQP borrow(CkksContext ctx, LimbPool pool, int level, Domain domain) {
        return new PolyQP(
                ctx.ringQ().wrap(pool.get(level + 1), domain), ctx.ringP().wrap(pool.get(ctx.alpha()), domain));
    }

    /** Returns every limb to {@code pool}; this polynomial must not be used afterwards. */
    public void release(LimbPool pool) {
        pool.put(q.limbs());
        pool.put(p.limbs());
    }

    /** A view of the Q limbs up to {@code level} and all P limbs (shares arrays). */
    public PolyQP atLevel(int level) {
        return new PolyQP(q.atLevel(level), p);
    }

    public int level() {
        return q.level();
    }

    /** QP limb j: Q limb j for j ≤ ℓ, P limb j − ℓ − 1 otherwise (live array). */
    public long[] limb(int j) {
        int lq = q.limbCount();
        return j < lq ? q.limb(j) : p.limb(j - lq);
    }

    public PolyQP copy() {
        return new PolyQP(q.copy(), p.copy());
    }

    /** Number of limbs, ℓ+1+α. */
    public int limbCount() {
        return q.limbCount() + p.limbCount();
    }

    public Domain domain() {
        return q.domain();
    }

    /** Sets the domain flag of both parts (after a limb-by-limb transform of every limb). */
    public void setDomain(Domain d) {
        q.setDomain(d);
        p.setDomain(d);
    }
}
