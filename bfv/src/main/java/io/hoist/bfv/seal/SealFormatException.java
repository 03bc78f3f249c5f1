package io.hoist.bfv.seal;

import io.hoist.bfv.BfvException;

/** Bytes that are not the SEAL object asked for: a bad header, a length that does not add up, a value out of range. */
public class SealFormatException extends BfvException {
    public SealFormatException(String message) {
        super(message);
    }
}
