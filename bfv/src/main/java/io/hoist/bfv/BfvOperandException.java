package io.hoist.bfv;

/** An operand that does not fit: another context, a value out of range, a seeded ciphertext where a full one is needed. */
public final class BfvOperandException extends BfvException {
    public BfvOperandException(String message) {
        super(message);
    }
}
