package io.hoist.bfv.seal;

/** An object made under other parameters (or at another level) than the context it is read into. */
public final class ParmsIdMismatchException extends SealFormatException {
    public ParmsIdMismatchException(String message) {
        super(message);
    }
}
