package io.hoist.bfv;

/**
 * The PRNG that expands a seeded ciphertext's 64-byte seed into its second polynomial, by SEAL's
 * type byte. SEAL reads both, whatever it was built with; its default builds write {@link #BLAKE2XB}.
 */
public enum PrngType {
    /** Type 1: block c = BLAKE2Xb(key = seed, message = u64le(c), XOF length 4096). */
    BLAKE2XB(1),
    /** Type 2: block c = the first 4096 bytes of SHAKE256(seed ‖ u64le(c)). */
    SHAKE256(2);

    private final int code;

    PrngType(int code) {
        this.code = code;
    }

    /** The byte SEAL writes. */
    public int code() {
        return code;
    }

    /** The type of SEAL's byte, or an exception naming it (0 is SEAL's "unknown"). */
    public static PrngType ofCode(int code) {
        for (PrngType p : values()) if (p.code == code) return p;
        throw new BfvOperandException("unsupported PRNG type byte " + code + " (1 blake2xb and 2 shake256 are known)");
    }
}
