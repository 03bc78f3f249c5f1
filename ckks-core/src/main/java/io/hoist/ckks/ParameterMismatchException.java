package io.hoist.ckks;

/** Operands or keys built under different CKKS parameters. */
public class ParameterMismatchException extends CkksException {
    public ParameterMismatchException(String message) {
        super(message);
    }
}
