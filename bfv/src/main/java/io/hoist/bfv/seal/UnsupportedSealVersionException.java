package io.hoist.bfv.seal;

/** A SEAL header whose version this reader does not read (it reads 4.0 … 4.4 and 3.4 or later). */
public final class UnsupportedSealVersionException extends SealFormatException {
    public UnsupportedSealVersionException(String message) {
        super(message);
    }
}
