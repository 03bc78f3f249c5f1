package io.hoist.ckks;

import io.hoist.ring.RnsPoly;

/** Public key (b, a) = (−a·s + e, a) over Q at the top level, NTT domain. */
public record PublicKey(CkksParameters params, RnsPoly b, RnsPoly a) {
    public KeySizes sizes() {
        long part = 8L * b.limbCount() * b.n();
        return new KeySizes(2 * part, part + Prng.SEED_BYTES);
    }
}
