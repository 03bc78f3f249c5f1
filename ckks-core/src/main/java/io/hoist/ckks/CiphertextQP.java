package io.hoist.ckks;

import java.util.Objects;

/**
 * A ciphertext over Q_ℓ·P before ModDown: (a, b) with a + b·s ≡ P·Δ·m + small (mod Q_ℓ·P), NTT domain.
 * What lazy hoisted rotations return and linear transforms accumulate (spec §2.4, Algorithms 1–2). Immutable: the
 * constructor and the plain accessors copy, the {@link RawAccess} forms share.
 */
public final class CiphertextQP {
    private final CkksParameters params;
    private final PolyQP a;
    private final PolyQP b;
    private final double scale;

    /** A QP ciphertext of copies of {@code a} and {@code b}. */
    public CiphertextQP(CkksParameters params, PolyQP a, PolyQP b, double scale) {
        this(
                RawAccess.get(),
                params,
                Objects.requireNonNull(a, "a is null").copy(),
                Objects.requireNonNull(b, "b is null").copy(),
                scale);
    }

    private CiphertextQP(RawAccess shared, CkksParameters params, PolyQP a, PolyQP b, double scale) {
        Objects.requireNonNull(shared, "access is null");
        this.params = Objects.requireNonNull(params, "params is null");
        this.a = Objects.requireNonNull(a, "a is null");
        this.b = Objects.requireNonNull(b, "b is null");
        InvalidScaleException.requirePositiveFinite(scale, "a QP ciphertext");
        if (a.level() != b.level())
            throw new LevelMismatchException(
                    "the parts of a QP ciphertext are at levels " + a.level() + " and " + b.level());
        if (a.isQOnly() || b.isQOnly())
            throw new WrongOperandException("a QP ciphertext needs the P limbs of both parts");
        this.scale = scale;
    }

    /** A QP ciphertext taking over {@code a} and {@code b} (the evaluator's fresh outputs), not copying them. */
    public static CiphertextQP wrap(RawAccess access, CkksParameters params, PolyQP a, PolyQP b, double scale) {
        return new CiphertextQP(access, params, a, b, scale);
    }

    public CkksParameters params() {
        return params;
    }

    public double scale() {
        return scale;
    }

    /** A copy of the first part. */
    public PolyQP a() {
        return a.copy();
    }

    /** A copy of the second part. */
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

    @Override
    public boolean equals(Object o) {
        return o instanceof CiphertextQP c
                && c.params.equals(params)
                && Double.compare(c.scale, scale) == 0
                && c.a.equals(a)
                && c.b.equals(b);
    }

    @Override
    public int hashCode() {
        return Objects.hash(params, scale, a, b);
    }

    @Override
    public String toString() {
        return "CiphertextQP[level " + level() + ", scale 2^" + Math.log(scale) / Math.log(2) + "]";
    }
}
