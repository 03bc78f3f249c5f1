package io.hoist.ckks;

import io.hoist.ring.RnsPoly;
import java.util.Arrays;
import java.util.Objects;

/**
 * A symmetric-key ciphertext whose uniform part c_1 = a is stored as a 256-bit seed: half the
 * bytes of a full ciphertext to upload. {@link Encryptor#expand} rebuilds the full ciphertext. Immutable: the
 * constructor and {@link #c0()} copy c_0, {@link #wrap} and {@link #c0(RawAccess)} share it; the seed is copied in and
 * out.
 */
public final class SeededCiphertext {
    private final CkksParameters params;
    private final RnsPoly c0;
    private final byte[] seed;
    private final double scale;

    /** A seeded ciphertext of a copy of {@code c0}. */
    public SeededCiphertext(CkksParameters params, RnsPoly c0, byte[] seed, double scale) {
        this(RawAccess.get(), params, Objects.requireNonNull(c0, "c0 is null").copy(), seed, scale);
    }

    private SeededCiphertext(RawAccess shared, CkksParameters params, RnsPoly c0, byte[] seed, double scale) {
        Objects.requireNonNull(shared, "access is null");
        this.params = Objects.requireNonNull(params, "params is null");
        this.c0 = Objects.requireNonNull(c0, "c0 is null");
        this.seed = Objects.requireNonNull(seed, "seed is null").clone();
        InvalidScaleException.requirePositiveFinite(scale, "a seeded ciphertext");
        this.scale = scale;
    }

    /** A seeded ciphertext taking over {@code c0} (the encryptor's or a reader's fresh polynomial), not copying it. */
    public static SeededCiphertext wrap(
            RawAccess access, CkksParameters params, RnsPoly c0, byte[] seed, double scale) {
        return new SeededCiphertext(Objects.requireNonNull(access, "access is null"), params, c0, seed, scale);
    }

    public CkksParameters params() {
        return params;
    }

    public double scale() {
        return scale;
    }

    /** A copy of c_0. */
    public RnsPoly c0() {
        return c0.copy();
    }

    /** c_0 itself, shared: read it, never write it. */
    public RnsPoly c0(RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        return c0;
    }

    /** A copy of the seed. */
    public byte[] seed() {
        return seed.clone();
    }

    public int level() {
        return c0.level();
    }

    public long sizeBytes() {
        return 8L * c0.limbCount() * c0.n() + seed.length;
    }

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
