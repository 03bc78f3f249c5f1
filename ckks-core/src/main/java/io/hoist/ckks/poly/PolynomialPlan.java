package io.hoist.ckks.poly;

import com.google.common.collect.ImmutableSortedSet;
import java.util.SortedSet;

/**
 * How {@link PolynomialEvaluator} evaluates one polynomial, known before any ciphertext exists:
 * the baby-step size 2^babyLog, the levels consumed, and the closed-form counts.
 *
 * @param depth          levels consumed: ⌈log2(degree + 1)⌉ when the baby steps allow it, plus one
 *                       for the affine map of a Chebyshev interval other than [−1, 1]
 * @param affine         whether the input is first mapped to [−1, 1] (one constant product and rescale)
 * @param powers         the powers T_j (or x^j), j ≥ 2, computed: one product, relinearization and rescale each
 * @param products       ciphertext products of a sub-polynomial with a giant-step power
 * @param constantProducts products of a ciphertext with a constant (affine map and leaves included)
 * @param rescales       rescales in all
 */
public record PolynomialPlan(
        Basis basis,
        int degree,
        int babyLog,
        int depth,
        boolean affine,
        SortedSet<Integer> powers,
        int products,
        int constantProducts,
        int rescales) {
    public PolynomialPlan {
        powers = ImmutableSortedSet.copyOf(powers);
    }

    /** Ciphertext × ciphertext products (each followed by a relinearization). */
    public int multiplications() {
        return powers.size() + products;
    }
}
