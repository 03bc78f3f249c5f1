package io.hoist.ckks.io;

import com.google.common.io.BaseEncoding;
import com.google.errorprone.annotations.Immutable;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The random 128-bit id a key store and its secret-key file share when they are written as one
 * pair ({@link KeyFiles#writePair}). It is drawn from {@link SecureRandom}, not derived from the
 * secret, so it tells nothing about the key; it only lets a reader refuse a store and a secret that
 * do not belong together before decrypting noise.
 */
@Immutable
public final class KeyPairId {
    /** Bytes of an id on disk (right after the header, when the PAIRED flag is set). */
    public static final int BYTES = 16;

    @SuppressWarnings("Immutable") // written only by the constructor, never handed out
    private final byte[] bytes;

    private KeyPairId(byte[] bytes) {
        this.bytes = bytes;
    }

    /** A fresh id. */
    public static KeyPairId random() {
        byte[] b = new byte[BYTES];
        new SecureRandom().nextBytes(b);
        return new KeyPairId(b);
    }

    /** The id in {@code b} (16 bytes, copied). */
    public static KeyPairId of(byte[] b) {
        if (b == null || b.length != BYTES)
            throw new IllegalArgumentException(
                    "a key-pair id has " + BYTES + " bytes, got " + (b == null ? "null" : b.length));
        return new KeyPairId(b.clone());
    }

    /** A copy of the 16 bytes. */
    public byte[] toBytes() {
        return bytes.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyPairId k && Arrays.equals(k.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** The id in lower-case hex. */
    @Override
    public String toString() {
        return BaseEncoding.base16().lowerCase().encode(bytes);
    }
}
