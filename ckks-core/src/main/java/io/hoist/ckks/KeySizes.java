package io.hoist.ckks;

import io.hoist.random.Prng;
import java.util.Locale;

/**
 * Key memory: {@code fullBytes} with both parts of every key stored, {@code seededBytes} with each
 * uniform part a replaced by its 32-byte seed. 8 bytes per residue.
 */
public record KeySizes(long fullBytes, long seededBytes) {
    public static final KeySizes ZERO = new KeySizes(0, 0);

    public KeySizes plus(KeySizes o) {
        return new KeySizes(fullBytes + o.fullBytes, seededBytes + o.seededBytes);
    }

    /** Sizes of one switching key with β digits of {@code limbs} = ℓ+1+α limbs of N coefficients. */
    public static KeySizes switchingKey(int beta, int limbs, int n) {
        long part = 8L * beta * limbs * n;
        return new KeySizes(2 * part, part + Prng.SEED_BYTES);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.2f MB (seeded %.2f MB)", fullBytes / 1e6, seededBytes / 1e6);
    }
}
