package io.hoist.ckks;

/** A rotation or conjugation asked for a Galois key that was not generated. */
public class MissingRotationKeyException extends CkksException {
    public MissingRotationKeyException(String message) {
        super(message);
    }
}
