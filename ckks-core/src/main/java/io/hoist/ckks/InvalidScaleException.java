package io.hoist.ckks;

/** A scale that is not finite, below 2, or too large for the modulus chain at the level it is used. */
public final class InvalidScaleException extends CkksException {
    public InvalidScaleException(String message) {
        super(message);
    }

    /** {@code scale} if it is positive and finite (the values' own check; a level's bound is the operations'). */
    static double requirePositiveFinite(double scale, String what) {
        if (!(scale > 0) || Double.isInfinite(scale))
            throw new InvalidScaleException(what + "'s scale must be positive and finite: " + scale);
        return scale;
    }
}
