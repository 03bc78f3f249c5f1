package io.hoist.lt.plan;

import io.hoist.HoistException;

/**
 * A linear transform, plan, split, schedule, block shape or encoded value that cannot be used as
 * asked: a dimension that is not a power of two, a split whose product is not the dimension, a
 * diagonal of the wrong length, ciphertexts that do not match the blocks. The message names what.
 */
public final class InvalidTransformException extends HoistException {
    public InvalidTransformException(String message) {
        super(message);
    }
}
