package io.hoist.ckks;

import java.util.Objects;

/**
 * An encoded message over QP (Q limbs up to a level plus all P limbs), NTT domain: the form of
 * linear-transform diagonals, which multiply hoisted rotations before ModDown. Immutable: the constructor and
 * {@link #poly()} copy, {@link #poly(RawAccess)} shares.
 */
public final class PlaintextQP {
    private final CkksParameters params;
    private final PolyQP poly;
    private final double scale;

    /** A plaintext of a copy of {@code poly}. */
    public PlaintextQP(CkksParameters params, PolyQP poly, double scale) {
        this(
                RawAccess.get(),
                params,
                Objects.requireNonNull(poly, "poly is null").copy(),
                scale);
    }

    private PlaintextQP(RawAccess shared, CkksParameters params, PolyQP poly, double scale) {
        Objects.requireNonNull(shared, "access is null");
        this.params = Objects.requireNonNull(params, "params is null");
        this.poly = Objects.requireNonNull(poly, "poly is null");
        InvalidScaleException.requirePositiveFinite(scale, "a QP plaintext");
        this.scale = scale;
    }

    /** A plaintext taking over {@code poly} (the encoder's fresh output), not copying it. */
    public static PlaintextQP wrap(RawAccess access, CkksParameters params, PolyQP poly, double scale) {
        return new PlaintextQP(access, params, poly, scale);
    }

    public CkksParameters params() {
        return params;
    }

    public double scale() {
        return scale;
    }

    /** A copy of the polynomial. */
    public PolyQP poly() {
        return poly.copy();
    }

    /** The polynomial itself, shared: read it, never write it. */
    public PolyQP poly(RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        return poly;
    }

    public int level() {
        return poly.level();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PlaintextQP p
                && p.params.equals(params)
                && Double.compare(p.scale, scale) == 0
                && p.poly.equals(poly);
    }

    @Override
    public int hashCode() {
        return Objects.hash(params, scale, poly);
    }

    @Override
    public String toString() {
        return "PlaintextQP[level " + level() + ", scale 2^" + Math.log(scale) / Math.log(2) + "]";
    }
}
