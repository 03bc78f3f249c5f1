package io.hoist.ckks;

/**
 * An encoded message over QP (Q limbs up to a level plus all P limbs), NTT domain: the form of
 * linear-transform diagonals, which multiply hoisted rotations before ModDown.
 */
public record PlaintextQP(CkksParameters params, PolyQP poly, double scale) {
    public int level() {
        return poly.level();
    }
}
