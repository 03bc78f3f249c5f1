package io.hoist.ckks.poly;

/** The basis a {@link Polynomial}'s coefficients are given in. */
public enum Basis {
    /** 1, x, x², … */
    MONOMIAL,
    /** T_0, T_1, T_2, … on the polynomial's interval, mapped to [−1, 1]. */
    CHEBYSHEV
}
