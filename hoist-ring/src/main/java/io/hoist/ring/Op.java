package io.hoist.ring;

/** The operations the engine counts. Later layers (key switching, linear transforms) add their own. */
public enum Op {
    /** Forward limb NTTs (one per limb transformed). */
    NTT_LIMBS,
    /** Inverse limb NTTs. */
    INTT_LIMBS,
    /** Calls into the NTT backend (a batch of limbs each). */
    NTT_CALLS,
    /** Limbs that the selected backend refused and the scalar fallback transformed. */
    NTT_FALLBACK_LIMBS,
    /** Fast basis conversions, one per polynomial converted. */
    BCONV,
    /** Modular multiplications, counted per operation as the closed forms of spec §6.2. */
    MOD_MULS,
    /** Automorphisms X → X^g, one per limb. */
    AUTOMORPHISM_LIMBS,
    /** Hybrid key switching: Decompose (ModUp of all digits of one polynomial). */
    DECOMPOSE,
    /** ModDown QP → Q of one polynomial. */
    MOD_DOWN,
    /** Key-switching inner products ⟨D, SWK⟩ (both components). */
    KS_INNER_PRODUCT,
    /** Plaintext × ciphertext products. */
    PT_MUL,
    /** Ciphertext × ciphertext tensor products (before relinearization). */
    CT_MUL,
    /** Relinearizations (degree 2 → 1). */
    RELINEARIZE,
    /** Rescales of a ciphertext (one prime dropped with rounding). */
    RESCALE,
    /** Products of a ciphertext with a real constant encoded at a chosen scale. */
    CONST_MUL,
    /** Limbs read from operands (the memory model is built on this). */
    LIMBS_READ,
    /** Limbs written to results. */
    LIMBS_WRITTEN,
    /** Key limbs regenerated from their seed instead of read (seeded key storage). */
    KEY_LIMBS_EXPANDED
}
