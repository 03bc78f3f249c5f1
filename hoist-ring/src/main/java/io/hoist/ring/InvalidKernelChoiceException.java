package io.hoist.ring;

import io.hoist.HoistException;

/** A {@code hoist.kernels} setting that names an unknown kernel or form, or is malformed. */
public final class InvalidKernelChoiceException extends HoistException {
    public InvalidKernelChoiceException(String message) {
        super(message);
    }
}
