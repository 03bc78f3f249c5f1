package io.hoist.lt.plan;

import com.google.errorprone.annotations.Immutable;

/**
 * Closed-form operation counts of a plan at one level (spec §4–§6): Decompose, ModDown (per
 * polynomial), key-switching inner products, plaintext products, limb (I)NTTs, rotation keys and
 * their bytes (full and seeded), and modular multiplications by the §6.2 model.
 */
@Immutable
public record Cost(
        long decompose,
        long modDown,
        long keySwitchInnerProducts,
        long ptMuls,
        long ntt,
        int rotationKeys,
        long keyBytes,
        long seededKeyBytes,
        double modMuls) {}
