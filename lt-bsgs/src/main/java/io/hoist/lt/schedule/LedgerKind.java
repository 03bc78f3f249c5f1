package io.hoist.lt.schedule;

import java.util.Locale;

/** What a limb moved between the working set and the backing store belongs to. */
public enum LedgerKind {
    /** Ciphertext parts: the input, A/B/b, U, C and the output. */
    CIPHERTEXT,
    /** Decomposed digits D_0, D_i, E_k. */
    DIGITS,
    /** Switching keys. */
    KEYS,
    /** Encoded plaintext diagonals (QP limbs, or one 64-bit word per coefficient when compact). */
    DIAGONALS,
    /** NTT twiddle tables (one limb-sized table per prime and direction). */
    TWIDDLES;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
