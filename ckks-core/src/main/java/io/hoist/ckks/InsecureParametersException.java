package io.hoist.ckks;

/** Parameters over the 128-bit security bound, built without explicitly allowing it. */
public final class InsecureParametersException extends CkksException {
    public InsecureParametersException(String message) {
        super(message);
    }
}
