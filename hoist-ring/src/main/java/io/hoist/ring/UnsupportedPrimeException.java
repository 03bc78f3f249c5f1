package io.hoist.ring;

import io.hoist.HoistException;

/** A backend was asked to transform a limb modulo a prime it does not support. */
public final class UnsupportedPrimeException extends HoistException {
    public UnsupportedPrimeException(String backend, long q, int logN) {
        super("backend " + backend + " does not accept q=" + q + " (" + (64 - Long.numberOfLeadingZeros(q))
                + " bits) at N=2^" + logN);
    }

    public UnsupportedPrimeException(String backend, long q, int logN, String constraint) {
        super("backend " + backend + " does not accept q=" + q + " at N=2^" + logN + ": " + constraint);
    }
}
