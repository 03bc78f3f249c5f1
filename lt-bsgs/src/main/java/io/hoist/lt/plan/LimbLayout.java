package io.hoist.lt.plan;

import com.google.errorprone.annotations.Immutable;
import io.hoist.ckks.CkksParameters;
import io.hoist.random.Prng;

/**
 * The limb geometry of one linear-transform evaluation (spec §7.2): ring degree N = 2^logN, the
 * ciphertext level ℓ (Lq = ℓ+1 Q limbs), α special primes (D = Lq + α QP limbs), β = ⌈Lq/α⌉ digits,
 * and the stored word size w in bits (one limb is N·w/8 bytes). Hoist keeps 64-bit words; the
 * paper's memory model uses w = 54. Needs no primes, so model-only settings (Table II) work too.
 */
@Immutable
public record LimbLayout(int logN, int level, int alpha, int wordBits) {
    public LimbLayout {
        if (logN < 1 || logN > 17) throw new InvalidTransformException("logN must be in [1, 17]: " + logN);
        if (level < 0 || level >= 4096) throw new InvalidTransformException("level must be in [0, 4096): " + level);
        if (alpha < 1 || alpha >= 4096) throw new InvalidTransformException("α must be in [1, 4096): " + alpha);
        if (wordBits < 1 || wordBits > 64)
            throw new InvalidTransformException("word size must be in [1, 64] bits: " + wordBits);
    }

    /** The layout of {@code params} at {@code level}, 64-bit words. */
    public static LimbLayout of(CkksParameters params, int level) {
        params.checkLevel(level);
        return new LimbLayout(params.logN(), level, params.alpha(), 64);
    }

    /** The paper's Table II setting: N = 2^16, L = 31, α = 12 (β = 3, D = 44), w = 54. */
    public static LimbLayout table2() {
        return new LimbLayout(16, 31, 12, 54);
    }

    public int n() {
        return 1 << logN;
    }
    /** Q limbs, ℓ+1. */
    public int lq() {
        return level + 1;
    }
    /** QP limbs, ℓ+1+α. */
    public int d() {
        return level + 1 + alpha;
    }
    /** Digits, ⌈(ℓ+1)/α⌉. */
    public int beta() {
        return (lq() + alpha - 1) / alpha;
    }
    /** Q primes in digit t (the last digit may be shorter). */
    public int digitSize(int t) {
        return Math.min(alpha, lq() - t * alpha);
    }
    /** Bytes of one limb, N·w/8. */
    public long limbBytes() {
        return (long) n() * wordBits / 8;
    }
    /** Bytes of one compact diagonal: one 64-bit word per coefficient. */
    public long compactBytes() {
        return 8L * n();
    }

    /** Bytes of one switching key: 2·β·D limbs of this word size (spec §11 oracle 5). */
    public long keyBytes() {
        return 2L * beta() * d() * limbBytes();
    }

    /** Bytes of one seeded switching key: the β·D limbs of its b part and the seed of its a part. */
    public long seededKeyBytes() {
        return (long) beta() * d() * limbBytes() + Prng.SEED_BYTES;
    }
}
