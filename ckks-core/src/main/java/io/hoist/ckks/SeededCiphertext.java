package io.hoist.ckks;

import io.hoist.ring.RnsPoly;

/**
 * A symmetric-key ciphertext whose uniform part c_1 = a is stored as a 256-bit seed: half the
 * bytes of a full ciphertext to upload. {@link Encryptor#expand} rebuilds the full ciphertext.
 */
public record SeededCiphertext(CkksParameters params, RnsPoly c0, byte[] seed, double scale) {
    public SeededCiphertext {
        seed = seed.clone();
    }

    @Override
    public byte[] seed() {
        return seed.clone();
    }

    public int level() {
        return c0.level();
    }

    public long sizeBytes() {
        return 8L * c0.limbCount() * c0.n() + seed.length;
    }
}
