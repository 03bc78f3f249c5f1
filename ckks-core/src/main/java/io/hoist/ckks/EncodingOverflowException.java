package io.hoist.ckks;

/** Values too large for the modulus at the chosen scale, or not finite. */
public class EncodingOverflowException extends CkksException {
    public EncodingOverflowException(String message) {
        super(message);
    }
}
