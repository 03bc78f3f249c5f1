package io.hoist.ckks;

/**
 * How a switching key holds its uniform parts a_t in memory. {@link #FULL}: every limb stored, read
 * by the key inner product. {@link #SEEDED}: only the 32-byte seed, each limb regenerated (AES-CTR,
 * straight into the NTT domain) inside the key inner product when it is needed: half the key memory
 * and half the key bytes streamed, for the cost of the sampling (docs/persistence.md has the numbers).
 */
public enum KeyStorage {
    FULL,
    SEEDED
}
