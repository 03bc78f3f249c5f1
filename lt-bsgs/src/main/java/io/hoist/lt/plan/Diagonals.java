package io.hoist.lt.plan;

import io.hoist.ckks.ComplexVector;
import java.util.SortedSet;

/**
 * What a plan and an encoder read of a transform: its dimension and its nonzero diagonals. {@code
 * io.hoist.lt.LinearTransform} is the implementation users make; the interface keeps planning and
 * encoding below the user-facing package.
 */
public interface Diagonals {
    /** The dimension n (a power of two) the diagonals are indexed over. */
    int dimension();

    /** The indices r ∈ [0, n) of the nonzero diagonals, ascending. */
    SortedSet<Integer> diagonalIndices();

    /** Diagonal r: the entries M[i][(i + r) mod n] for i ∈ [0, n). */
    ComplexVector diagonal(int r);
}
