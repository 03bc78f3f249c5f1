package io.hoist.ckks;

/** A parameter set that cannot be built: a degree, a prime size or count, a σ or a secret outside what the scheme supports. */
public final class InvalidParametersException extends CkksException {
    public InvalidParametersException(String message) {
        super(message);
    }
}
