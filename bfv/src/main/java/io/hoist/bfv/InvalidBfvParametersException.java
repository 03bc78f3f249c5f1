package io.hoist.bfv;

/** A BFV parameter set that is malformed (N, a prime or t) or, unless asked for, not 128-bit secure. */
public final class InvalidBfvParametersException extends BfvException {
    public InvalidBfvParametersException(String message) {
        super(message);
    }
}
