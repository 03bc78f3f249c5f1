package io.hoist.ckks;

/**
 * A ciphertext over Q_ℓ·P before ModDown: (a, b) with a + b·s ≡ P·Δ·m + small (mod Q_ℓ·P), NTT domain.
 * What lazy hoisted rotations return and linear transforms accumulate (spec §2.4, Algorithms 1–2).
 */
public record CiphertextQP(CkksParameters params, PolyQP a, PolyQP b, double scale) {
    public int level() {
        return a.level();
    }
}
