package io.hoist.ckks;

/**
 * The switching key for the automorphism φ_g, switching from s to φ_{g^-1}(s) so the inner product
 * can run before the permutation (hoisting; spec §2.4, "switch first, then permute").
 */
public record GaloisKey(long galoisElement, SwitchingKey key) {
    public int level() {
        return key.level();
    }
}
