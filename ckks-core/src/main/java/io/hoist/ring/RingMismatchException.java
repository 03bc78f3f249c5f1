package io.hoist.ring;

/** Operands that cannot be combined: different rings, levels or domains. The message names which. */
public class RingMismatchException extends IllegalArgumentException {
    public RingMismatchException(String message) {
        super(message);
    }
}
