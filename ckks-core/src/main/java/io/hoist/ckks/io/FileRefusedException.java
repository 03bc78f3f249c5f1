package io.hoist.ckks.io;

import io.hoist.ckks.CkksException;

/**
 * A path refused before any byte is read or written: not a regular file (a FIFO, a device, a
 * directory, a symbolic link where a file is to be written), larger than its header announces or
 * than one object may be, two outputs naming the same file, or a target that would be overwritten
 * without being asked to. The message names the path and the reason.
 */
public final class FileRefusedException extends CkksException {
    public FileRefusedException(String message) {
        super(message);
    }
}
