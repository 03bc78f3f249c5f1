package io.hoist.ckks;

/** An operand of the wrong kind, e.g. a degree-2 ciphertext where a degree-1 one is needed. */
public class WrongOperandException extends CkksException {
    public WrongOperandException(String message) {
        super(message);
    }
}
