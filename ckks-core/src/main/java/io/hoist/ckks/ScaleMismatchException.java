package io.hoist.ckks;

/** Operands at different scales that would be added. */
public class ScaleMismatchException extends CkksException {
    public ScaleMismatchException(String message) {
        super(message);
    }
}
