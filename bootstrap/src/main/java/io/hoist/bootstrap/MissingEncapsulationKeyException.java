package io.hoist.bootstrap;

import io.hoist.ckks.CkksException;

/** A bootstrapping plan with the sparse-secret encapsulation was given no (or unfit) encapsulation keys. */
public class MissingEncapsulationKeyException extends CkksException {
    public MissingEncapsulationKeyException(String message) {
        super(message);
    }
}
