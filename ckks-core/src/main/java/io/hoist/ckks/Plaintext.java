package io.hoist.ckks;

import io.hoist.ring.RnsPoly;

/**
 * An encoded message over Q at a level and scale, in the NTT domain. Immutable by contract:
 * the evaluator never writes to it, and callers must not either.
 */
public final class Plaintext {
    private final CkksParameters params;
    private final RnsPoly poly;
    private final double scale;

    public Plaintext(CkksParameters params, RnsPoly poly, double scale) {
        this.params = params;
        this.poly = poly;
        this.scale = scale;
    }

    public CkksParameters params() {
        return params;
    }

    public RnsPoly poly() {
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
