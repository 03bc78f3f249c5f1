package io.hoist.ckks;

import io.hoist.ring.Domain;
import io.hoist.ring.RnsPoly;
import java.util.Arrays;
import java.util.Objects;

/**
 * A CKKS ciphertext (c_0, c_1[, c_2]) over Q_ℓ in the NTT domain with its scale: decrypts to
 * c_0 + c_1·s (+ c_2·s²) ≈ Δ·m. Immutable: the constructor and {@link #poly(int)} copy; the engine
 * shares arrays through {@link #wrap} and {@link #poly(int, RawAccess)}.
 */
public final class Ciphertext {
    private final CkksParameters params;
    private final RnsPoly[] polys;
    private final double scale;

    /** A ciphertext of copies of {@code polys}. */
    public Ciphertext(CkksParameters params, double scale, RnsPoly... polys) {
        this(params, scale, true, polys);
    }

    /** A ciphertext that takes over {@code polys} (no copy): the engine's outputs. */
    public static Ciphertext wrap(RawAccess access, CkksParameters params, double scale, RnsPoly... polys) {
        Objects.requireNonNull(access, "access is null");
        return new Ciphertext(params, scale, false, polys);
    }

    private Ciphertext(CkksParameters params, double scale, boolean copy, RnsPoly... polys) {
        Objects.requireNonNull(params, "params is null");
        Objects.requireNonNull(polys, "polys is null");
        if (polys.length < 2 || polys.length > 3)
            throw new WrongOperandException("a ciphertext has 2 or 3 polynomials, got " + polys.length);
        int level = polys[0].level();
        for (RnsPoly p : polys) {
            if (p.level() != level) throw new LevelMismatchException("ciphertext polynomials at different levels");
            if (p.domain() != Domain.NTT)
                throw new WrongOperandException("ciphertext polynomials must be in the NTT domain");
        }
        if (!(scale > 0) || Double.isInfinite(scale))
            throw new ScaleMismatchException("scale must be positive and finite: " + scale);
        this.params = params;
        this.polys = polys.clone();
        if (copy) for (int i = 0; i < polys.length; i++) this.polys[i] = polys[i].copy();
        this.scale = scale;
    }

    public CkksParameters params() {
        return params;
    }

    public int level() {
        return polys[0].level();
    }

    public double scale() {
        return scale;
    }
    /** 1 for a fresh ciphertext, 2 after a ciphertext product before relinearization. */
    public int degree() {
        return polys.length - 1;
    }

    /** A copy of polynomial i (c_0, c_1 or c_2). */
    public RnsPoly poly(int i) {
        return poly(i, RawAccess.get()).copy();
    }

    /** Polynomial i itself, shared: read it, never write it. */
    public RnsPoly poly(int i, RawAccess access) {
        Objects.requireNonNull(access, "access is null");
        if (i < 0 || i >= polys.length)
            throw new WrongOperandException("a degree-" + degree() + " ciphertext has no polynomial " + i);
        return polys[i];
    }

    /** The same polynomials read at another scale (shared, as the ciphertext is immutable). */
    public Ciphertext withScale(double scale) {
        return new Ciphertext(params, scale, false, polys);
    }

    public Ciphertext copy() {
        return new Ciphertext(params, scale, true, polys);
    }

    /** Bytes of the limbs (8 per coefficient). */
    public long sizeBytes() {
        return 8L * polys.length * polys[0].limbCount() * polys[0].n();
    }

    @Override
    public String toString() {
        return "Ciphertext[degree=" + degree() + ", level=" + level() + ", scale=2^"
                + String.format("%.2f", Math.log(scale) / Math.log(2)) + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Ciphertext c
                && c.params.equals(params)
                && c.scale == scale
                && Arrays.equals(c.polys, polys);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(polys);
    }
}
