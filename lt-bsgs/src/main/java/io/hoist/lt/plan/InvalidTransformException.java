package io.hoist.lt.plan;

import com.google.common.base.Strings;
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

    /** Throws one, its message {@code template} with each %s replaced by the next argument, unless {@code ok}. */
    public static void check(boolean ok, String template, Object... args) {
        if (!ok) throw new InvalidTransformException(Strings.lenientFormat(template, args));
    }
}
