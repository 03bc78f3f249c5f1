package io.hoist.ckks;

import java.util.Objects;

/**
 * A ciphertext over Q_ℓ·P before ModDown: (a, b) with a + b·s ≡ P·Δ·m + small (mod Q_ℓ·P), NTT domain.
 * What lazy hoisted rotations return and linear transforms accumulate (spec §2.4, Algorithms 1–2).
 */
public record CiphertextQP(CkksParameters params, PolyQP a, PolyQP b, double scale) {
    /** Takes over {@code a} and {@code b} (the evaluator's fresh outputs); the accessors copy. */
    public CiphertextQP {
        Objects.requireNonNull(params, "params is null");
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(b, "b is null");
        if (!(scale > 0) || Double.isInfinite(scale))
            throw new InvalidScaleException("scale must be positive and finite: " + scale);
    }

    /** A copy of the first part. */
    @Override
    public PolyQP a() {
        return a.copy();
    }

    /** A copy of the second part. */
    @Override
    public PolyQP b() {
        return b.copy();
    }

    /** The first part itself, shared: read it, never write it. */
    public PolyQP a(RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        return a;
    }

    /** The second part itself, shared: read it, never write it. */
    public PolyQP b(RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        return b;
    }

    public int level() {
        return a.level();
    }
}
