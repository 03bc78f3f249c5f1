package io.hoist.ring;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;

/**
 * A polynomial of a {@link Ring} in RNS form: limb i holds the N residues modulo q_i, for
 * i = 0 … level. A mutable work buffer (like Lattigo's ring.Poly); the scheme layer wraps these
 * in immutable plaintexts and ciphertexts.
 */
public final class RnsPoly {
    private final Ring ring;
    final long[][] limbs;
    Domain domain;

    RnsPoly(Ring ring, long[][] limbs, Domain domain) {
        this.ring = ring;
        this.limbs = limbs;
        this.domain = domain;
    }

    public Ring ring() {
        return ring;
    }

    public int level() {
        return limbs.length - 1;
    }

    public int limbCount() {
        return limbs.length;
    }

    public Domain domain() {
        return domain;
    }

    /**
     * Sets the domain flag. For code that transforms limbs one range at a time (the phased LT
     * executor): the flag must describe every limb once the last range is done.
     */
    public void setDomain(Domain d) {
        this.domain = Objects.requireNonNull(d, "domain");
    }

    public int n() {
        return ring.n();
    }

    /** The live limb array of prime i (no copy: hot paths write through it). */
    public long[] limb(int i) {
        // the message is built out of line: this accessor stays small enough for C2 to inline everywhere
        if (i < 0 || i >= limbs.length) throw noLimb(i);
        return limbs[i];
    }

    /** The live limb arrays (no copy). */
    public long[][] limbs() {
        return limbs;
    }

    /**
     * A view of the first {@code level}+1 limbs, sharing their arrays (no copy): the same value
     * modulo a shorter prefix of the chain. Writing through the view writes this polynomial.
     */
    public RnsPoly atLevel(int level) {
        if (level < 0 || level > level())
            throw new RingMismatchException("cannot view level " + level + " of a polynomial at level " + level());
        return level == level() ? this : new RnsPoly(ring, Arrays.copyOf(limbs, level + 1), domain);
    }

    /**
     * Copies every limb into the first limbs of {@code dst} (a polynomial of the same degree with at least as many)
     * and gives it this domain.
     *
     * @throws RingMismatchException if dst has another degree or fewer limbs
     */
    public void copyTo(RnsPoly dst) {
        if (dst.ring.n() != ring.n() || dst.limbs.length < limbs.length)
            throw new RingMismatchException("cannot copy " + limbs.length + " limbs of N = " + ring.n() + " into "
                    + dst.limbs.length + " limbs of N = " + dst.ring.n());
        for (int i = 0; i < limbs.length; i++) System.arraycopy(limbs[i], 0, dst.limbs[i], 0, limbs[i].length);
        dst.domain = domain;
    }

    public RnsPoly copy() {
        long[][] c = new long[limbs.length][];
        for (int i = 0; i < c.length; i++) c[i] = limbs[i].clone();
        return new RnsPoly(ring, c, domain);
    }

    /** Sets coefficient k of every limb from a signed integer. */
    public void setCoefficient(int k, long value) {
        checkCoefficient(k);
        for (int i = 0; i < limbs.length; i++) limbs[i][k] = ring.modulus(i).fromSigned(value);
    }

    /** Sets coefficient k of every limb from an integer of any size. */
    public void setCoefficient(int k, BigInteger value) {
        checkCoefficient(k);
        for (int i = 0; i < limbs.length; i++)
            limbs[i][k] = value.mod(BigInteger.valueOf(ring.prime(i))).longValue();
    }

    /** CRT-reconstructed coefficient k in [0, Q_level) — slow; tests and decoding. */
    public BigInteger coefficient(int k) {
        checkCoefficient(k);
        long[] r = new long[limbs.length];
        for (int i = 0; i < r.length; i++) r[i] = limbs[i][k];
        return (limbs.length == ring.basis().size()
                        ? ring.basis()
                        : ring.basis().prefix(limbs.length))
                .reconstruct(r);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RnsPoly p && p.ring.sameAs(ring) && p.domain == domain && Arrays.deepEquals(p.limbs, limbs);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(limbs);
    }

    @Override
    public String toString() {
        return "RnsPoly[level=" + level() + ", " + domain + ", N=" + ring.n() + "]";
    }

    private RingMismatchException noLimb(int i) {
        return new RingMismatchException("no limb " + i + " in a polynomial of " + limbs.length + " limbs");
    }

    private void checkCoefficient(int k) {
        if (k < 0 || k >= ring.n())
            throw new RingMismatchException("no coefficient " + k + " in a polynomial of N = " + ring.n());
    }
}
