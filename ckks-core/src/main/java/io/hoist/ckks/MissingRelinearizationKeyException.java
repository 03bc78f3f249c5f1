package io.hoist.ckks;

/** A relinearization asked of an evaluator that was given no relinearization key. */
public final class MissingRelinearizationKeyException extends CkksException {
    public MissingRelinearizationKeyException(String message) {
        super(message);
    }
}
