package io.hoist.ckks;

import io.hoist.ring.Domain;
import io.hoist.ring.LimbPool;
import io.hoist.ring.RnsPoly;
import java.util.Objects;

/**
 * A polynomial over QP: its residues modulo q_0 … q_ℓ and modulo all special primes p_0 … p_{α−1}
 * (Lattigo's ringqp.Poly). Key-switching keys, decomposed digits, hoisted rotations and
 * linear-transform diagonals live here. QP limb j is Q limb j for j ≤ ℓ and P limb j − ℓ − 1 after.
 * A mutable work buffer (as {@link RnsPoly}). A polynomial whose P limbs are known to be zero or
 * unused is made explicitly Q-only ({@link #qOnly}); it says so ({@link #isQOnly}) and has no
 * {@link #p()}.
 */
public final class PolyQP {
    private final RnsPoly q;
    private final RnsPoly p; // null only for a Q-only polynomial, never handed out

    private PolyQP(RnsPoly q, RnsPoly p) {
        this.q = Objects.requireNonNull(q, "the Q part is null");
        this.p = p;
        if (p != null && (p.n() != q.n() || p.domain() != q.domain()))
            throw new WrongOperandException("the Q and P parts of a QP polynomial differ in degree or domain");
    }

    /** The QP polynomial of parts {@code q} and {@code p} (shared, not copied). */
    public static PolyQP of(RnsPoly q, RnsPoly p) {
        return new PolyQP(q, Objects.requireNonNull(p, "the P part is null: use PolyQP.qOnly"));
    }

    /** A polynomial with Q limbs only (its P limbs zero or unused), {@code q} shared. */
    public static PolyQP qOnly(RnsPoly q) {
        return new PolyQP(q, null);
    }

    public static PolyQP zero(CkksContext ctx, int level, Domain domain) {
        return of(ctx.ringQ().newPoly(level, domain), ctx.ringP().newPoly(ctx.alpha() - 1, domain));
    }

    /** A QP polynomial whose limbs come from {@code pool} (arbitrary contents); give it back with {@link #release}. */
    public static PolyQP borrow(CkksContext ctx, LimbPool pool, int level, Domain domain) {
        return of(ctx.ringQ().wrap(pool.get(level + 1), domain), ctx.ringP().wrap(pool.get(ctx.alpha()), domain));
    }

    public RnsPoly q() {
        return q;
    }

    /** The P part. @throws WrongOperandException for a Q-only polynomial */
    public RnsPoly p() {
        if (p == null) throw new WrongOperandException("a Q-only polynomial has no P limbs");
        return p;
    }

    /** Whether this polynomial has Q limbs only. */
    public boolean isQOnly() {
        return p == null;
    }

    /** Returns every limb to {@code pool}; this polynomial must not be used afterwards. */
    public void release(LimbPool pool) {
        pool.put(q.limbs());
        if (p != null) pool.put(p.limbs());
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
        return j < lq ? q.limb(j) : p().limb(j - lq);
    }

    public PolyQP copy() {
        return new PolyQP(q.copy(), p == null ? null : p.copy());
    }

    /** Number of limbs: ℓ+1+α, or ℓ+1 when Q-only. */
    public int limbCount() {
        return q.limbCount() + (p == null ? 0 : p.limbCount());
    }

    public Domain domain() {
        return q.domain();
    }

    /** Sets the domain flag of both parts (after a limb-by-limb transform of every limb). */
    public void setDomain(Domain d) {
        q.setDomain(d);
        if (p != null) p.setDomain(d);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PolyQP x && x.q.equals(q) && Objects.equals(x.p, p);
    }

    @Override
    public int hashCode() {
        return 31 * q.hashCode() + Objects.hashCode(p);
    }

    @Override
    public String toString() {
        return "PolyQP[level " + level() + (p == null ? ", Q only" : ", " + p.limbCount() + " P limbs") + "]";
    }
}
