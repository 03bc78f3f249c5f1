package io.hoist.ckks;

/**
 * A shape, a count or a size past what can be represented or indexed (a block count over
 * 2^31 − 1, a length that overflows 64 bits): refused with the numbers instead of wrapping around.
 */
public final class SizeLimitException extends CkksException {
    public SizeLimitException(String message) {
        super(message);
    }
}
