package io.hoist.ckks.io;

import java.util.Locale;

/** What a serialized object is; the code is stored in the header, and unknown codes are refused. */
public enum ObjectKind {
    PARAMETERS(1),
    SECRET_KEY(2),
    PUBLIC_KEY(3),
    RELINEARIZATION_KEY(4),
    GALOIS_KEY(5),
    CIPHERTEXT(6),
    SEEDED_CIPHERTEXT(7),
    PLAINTEXT(8),
    KEY_STORE(9),
    ENCODED_TRANSFORM(10),
    PLAN(11),
    /** A block row's diagonal sums over some block columns (a split block product's partial). */
    BLOCK_ROW_PARTIAL(12);

    private final int code;

    ObjectKind(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static ObjectKind ofCode(int code) {
        for (ObjectKind k : values()) if (k.code == code) return k;
        throw new MalformedDataException(
                "unknown object kind " + code + " (this reader knows 1 … " + values().length + ")");
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
