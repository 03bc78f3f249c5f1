package io.hoist.ckks.io;

import io.hoist.ckks.CkksException;

/**
 * A key store and a secret-key file that were not written as one pair (their key-pair ids differ,
 * or one has none): refused before anything is decrypted, since decrypting with the wrong secret
 * gives noise, not an error.
 */
public final class KeyPairMismatchException extends CkksException {
    public KeyPairMismatchException(String message) {
        super(message);
    }
}
