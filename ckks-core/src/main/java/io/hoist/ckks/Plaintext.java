package io.hoist.ckks;

import io.hoist.ring.RnsPoly;
import java.util.Objects;

/**
 * An encoded message over Q at a level and scale, in the NTT domain. Immutable: the constructor and
 * {@link #poly()} copy; the engine shares arrays through {@link #wrap} and {@link #poly(RawAccess)}.
 */
public final class Plaintext {
    private final CkksParameters params;
    private final RnsPoly poly;
    private final double scale;

    /** A plaintext of a copy of {@code poly}. */
    public Plaintext(CkksParameters params, RnsPoly poly, double scale) {
        this(params, Objects.requireNonNull(poly, "poly is null").copy(), scale, true);
    }

    /** A plaintext that takes over {@code poly} (no copy): the encoder's output. */
    public static Plaintext wrap(RawAccess access, CkksParameters params, RnsPoly poly, double scale) {
        Objects.requireNonNull(access, "access is null");
        return new Plaintext(params, poly, scale, true);
    }

    private Plaintext(CkksParameters params, RnsPoly poly, double scale, boolean checked) {
        Objects.requireNonNull(params, "params is null");
        Objects.requireNonNull(poly, "poly is null");
        InvalidScaleException.requirePositiveFinite(scale, "a plaintext");
        this.params = params;
        this.poly = poly;
        this.scale = scale;
    }

    public CkksParameters params() {
        return params;
    }

    /** A copy of the polynomial. */
    public RnsPoly poly() {
        return poly.copy();
    }

    /** The polynomial itself, shared: read it, never write it. */
    public RnsPoly poly(RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        return poly;
    }

    public int level() {
        return poly.level();
    }

    public double scale() {
        return scale;
    }

    @Override
    public String toString() {
        return "Plaintext[level=" + level() + ", scale=2^" + String.format("%.2f", Math.log(scale) / Math.log(2)) + "]";
    }
}
