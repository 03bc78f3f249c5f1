package io.hoist.ckks;

import io.hoist.SecretKeyAccess;
import io.hoist.ring.Domain;
import java.util.Objects;

/**
 * The secret s over QP at the top level, NTT domain. It never leaves the client: its residues are
 * reached only through a {@link SecretKeyAccess} token and only as a copy; there is no
 * {@code equals} or {@code hashCode} over them (compare keys with {@link #equalsKey}, in constant
 * time), and {@link #toString} names the parameters only.
 */
public final class SecretKey {
    private final CkksParameters params;
    private final PolyQP s;

    /**
     * A secret key of {@code s} (copied) under {@code params}.
     *
     * @throws IllegalArgumentException if s is not over QP at the top level in the NTT domain
     */
    public SecretKey(CkksParameters params, PolyQP s, SecretKeyAccess access) {
        Objects.requireNonNull(params, "params is null");
        Objects.requireNonNull(s, "s is null");
        Objects.requireNonNull(access, "a secret key is made with a SecretKeyAccess token");
        if (s.level() != params.maxLevel() || s.p().limbCount() != params.alpha() || s.q().n() != params.n()) {
            throw new WrongOperandException("a secret key is over QP at the top level " + params.maxLevel() + " with "
                    + params.alpha() + " P limbs; got level " + s.level() + " and " + s.p().limbCount());
        }
        if (s.domain() != Domain.NTT) throw new WrongOperandException("a secret key is held in the NTT domain");
        if (!params.isRingQ(s.q().ring()) || !params.isRingP(s.p().ring()))
            throw new ParameterMismatchException("the secret's residues are over another ring than its parameters'");
        this.params = params;
        this.s = s.copy();
    }

    public CkksParameters params() {
        return params;
    }

    /** A copy of s over QP (NTT domain). */
    public PolyQP material(SecretKeyAccess access) {
        Objects.requireNonNull(access, "the secret's residues need a SecretKeyAccess token");
        return s.copy();
    }

    /**
     * Whether {@code other} holds the same secret under equal parameters, in time that does not depend
     * on where the residues first differ.
     */
    public boolean equalsKey(SecretKey other) {
        if (other == null || !other.params.equals(params)) return false;
        long diff = 0;
        for (int j = 0; j < s.limbCount(); j++) {
            long[] a = s.limb(j), b = other.s.limb(j);
            for (int k = 0; k < a.length; k++) diff |= a[k] ^ b[k];
        }
        return diff == 0;
    }

    @Override
    public String toString() {
        return "SecretKey[" + params + "]";
    }
}
