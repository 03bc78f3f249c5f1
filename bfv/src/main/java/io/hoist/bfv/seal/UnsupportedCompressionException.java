package io.hoist.bfv.seal;

/** A SEAL object saved compressed (zlib or zstd): this reader takes {@code compr_mode_type::none} only. */
public final class UnsupportedCompressionException extends SealFormatException {
    public UnsupportedCompressionException(String message) {
        super(message);
    }
}
