package io.hoist.ring;

import io.hoist.HoistException;

/** Operands that cannot be combined: different rings, levels or domains. The message names which. */
public class RingMismatchException extends HoistException {
    public RingMismatchException(String message) {
        super(message);
    }
}
