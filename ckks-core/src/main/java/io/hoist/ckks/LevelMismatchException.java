package io.hoist.ckks;

/** Operands at levels that cannot be combined, or a key below the ciphertext's level. */
public class LevelMismatchException extends CkksException {
    public LevelMismatchException(String message) {
        super(message);
    }
}
