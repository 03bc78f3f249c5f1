package io.hoist.ckks;

/** Base of the scheme's typed errors: each names what is wrong with the input. */
public class CkksException extends IllegalArgumentException {
    public CkksException(String message) {
        super(message);
    }
}
