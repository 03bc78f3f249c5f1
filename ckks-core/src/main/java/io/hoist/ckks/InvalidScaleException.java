package io.hoist.ckks;

/** A scale that is not finite, below 2, or too large for the modulus chain at the level it is used. */
public final class InvalidScaleException extends CkksException {
    public InvalidScaleException(String message) {
        super(message);
    }
}
