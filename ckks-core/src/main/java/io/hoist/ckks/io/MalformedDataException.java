package io.hoist.ckks.io;

import io.hoist.ckks.CkksException;

/**
 * Serialized data that cannot be read: bad magic, an unknown format version or object kind, a
 * length that disagrees with the parameters, a residue out of range, a failed checksum, or data
 * made under other parameters. The only exception the readers throw for bad input.
 */
public final class MalformedDataException extends CkksException {
    public MalformedDataException(String message) {
        super(message);
    }
}
