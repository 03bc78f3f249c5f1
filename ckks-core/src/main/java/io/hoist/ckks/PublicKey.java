package io.hoist.ckks;

import io.hoist.random.Prng;
import io.hoist.ring.RnsPoly;
import java.util.Objects;

/** Public key (b, a) = (−a·s + e, a) over Q at the top level, NTT domain. */
public record PublicKey(CkksParameters params, RnsPoly b, RnsPoly a) {
    /** Takes copies of {@code b} and {@code a}; the accessors copy too (the engine reads through {@link #b(RawAccess)}). */
    public PublicKey {
        Objects.requireNonNull(params, "params is null");
        b = Objects.requireNonNull(b, "b is null").copy();
        a = Objects.requireNonNull(a, "a is null").copy();
    }

    /** A copy of b = −a·s + e. */
    @Override
    public RnsPoly b() {
        return b.copy();
    }

    /** A copy of a. */
    @Override
    public RnsPoly a() {
        return a.copy();
    }

    /** b itself, shared: read it, never write it. */
    public RnsPoly b(RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        return b;
    }

    /** a itself, shared: read it, never write it. */
    public RnsPoly a(RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        return a;
    }

    public KeySizes sizes() {
        long part = 8L * b.limbCount() * b.n();
        return new KeySizes(2 * part, part + Prng.SEED_BYTES);
    }
}
