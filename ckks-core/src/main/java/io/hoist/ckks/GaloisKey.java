package io.hoist.ckks;

import java.util.Objects;

/**
 * The switching key for the automorphism φ_g, switching from s to φ_{g^-1}(s) so the inner product
 * can run before the permutation (hoisting; spec §2.4, "switch first, then permute").
 */
public record GaloisKey(long galoisElement, SwitchingKey key) {
    /**
     * @throws WrongOperandException unless g is odd in (1, 2N): a key set looks keys up by the reduced element, and
     *     the identity needs no key
     */
    public GaloisKey {
        Objects.requireNonNull(key, "key is null");
        long twoN = 2L * key.params().n();
        if (galoisElement <= 1 || galoisElement >= twoN || (galoisElement & 1) == 0)
            throw new WrongOperandException(
                    "Galois element " + galoisElement + " is not an odd number in (1, 2N = " + twoN + ")");
    }

    public int level() {
        return key.level();
    }
}
