package io.hoist.ckks;

import io.hoist.ring.RnsPoly;
import java.util.Arrays;
import java.util.Objects;

/**
 * A symmetric-key ciphertext whose uniform part c_1 = a is stored as a 256-bit seed: half the
 * bytes of a full ciphertext to upload. {@link Encryptor#expand} rebuilds the full ciphertext. Immutable: c_0 and
 * the seed are copied in and out ({@link #c0(RawAccess)} shares c_0).
 */
public record SeededCiphertext(CkksParameters params, RnsPoly c0, byte[] seed, double scale) {
    public SeededCiphertext {
        Objects.requireNonNull(params, "params is null");
        c0 = Objects.requireNonNull(c0, "c0 is null").copy();
        seed = Objects.requireNonNull(seed, "seed is null").clone();
        if (!(scale > 0) || Double.isInfinite(scale))
            throw new InvalidScaleException("scale must be positive and finite: " + scale);
    }

    /** A copy of c_0. */
    @Override
    public RnsPoly c0() {
        return c0.copy();
    }

    /** c_0 itself, shared: read it, never write it. */
    public RnsPoly c0(RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        return c0;
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

    // by content: the record's own would compare the seed arrays by identity
    @Override
    public boolean equals(Object o) {
        return o instanceof SeededCiphertext s
                && s.params.equals(params)
                && Double.compare(s.scale, scale) == 0
                && s.c0.equals(c0)
                && Arrays.equals(s.seed, seed);
    }

    @Override
    public int hashCode() {
        return Objects.hash(params, scale, c0) * 31 + Arrays.hashCode(seed);
    }

    @Override
    public String toString() {
        return "SeededCiphertext[level " + level() + ", scale 2^" + Math.log(scale) / Math.log(2) + "]";
    }
}
