package io.hoist.lt.plan;

/** How encoded diagonals are kept between evaluations. */
public enum Storage {
    /** QP limbs in NTT (Montgomery) form: fastest, D words per coefficient. */
    PRECOMPUTED,
    /** One 64-bit word per coefficient (the rounded scaled coefficient), expanded limb by limb and NTT'd during evaluation. */
    COMPACT
}
