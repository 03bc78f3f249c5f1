package io.hoist.bfv;

import io.hoist.HoistException;

/** The base of the BFV client's typed errors: each names the parameter, value or file part that is wrong. */
public class BfvException extends HoistException {
    public BfvException(String message) {
        super(message);
    }
}
