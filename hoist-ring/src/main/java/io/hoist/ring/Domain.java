package io.hoist.ring;

/** Representation of a polynomial's limbs: coefficients, or evaluations in bit-reversed NTT order. */
public enum Domain {
    COEFFICIENT,
    NTT
}
