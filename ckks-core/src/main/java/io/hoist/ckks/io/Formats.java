package io.hoist.ckks.io;

import io.hoist.ckks.CkksParameters;

import java.nio.ByteBuffer;

/**
 * The framing of the Hoist binary format for serializers in other modules (plans and encoded
 * transforms live in lt-bsgs): header, checked open, checksum.
 */
public final class Formats {
    private Formats() {}

    /** A buffer for header + body + trailer, header written, positioned at the body. */
    public static ByteBuffer start(ObjectKind kind, int flags, byte[] fingerprint, int level, double scale, long bodyLength) {
        return Envelope.start(kind, flags, fingerprint, level, scale, bodyLength);
    }

    /** Appends the checksum and returns the bytes. */
    public static byte[] finish(ByteBuffer b) {
        return Envelope.finish(b);
    }

    /** The header of {@code data}, checked (magic, version, kind). */
    public static Header header(byte[] data) {
        return Envelope.header(data);
    }

    /**
     * Checks kind, fingerprint (unless {@code params} is null), the exact body length and the checksum;
     * returns the body.
     */
    public static ByteBuffer open(byte[] data, Header h, ObjectKind want, CkksParameters params, long expectedBody) {
        return Envelope.open(data, h, want, params, expectedBody);
    }

    public static byte[] fingerprint(CkksParameters p) {
        return ParametersSerialization.fingerprint(p);
    }
}
