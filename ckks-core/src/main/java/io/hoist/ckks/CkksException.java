package io.hoist.ckks;

import io.hoist.HoistException;

/** Base of the scheme's typed errors: each names what is wrong with the input. */
public class CkksException extends HoistException {
    public CkksException(String message) {
        super(message);
    }
}
