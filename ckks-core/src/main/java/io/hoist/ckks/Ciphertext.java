package io.hoist.ckks;

import io.hoist.ring.Domain;
import io.hoist.ring.RnsPoly;
import java.util.Arrays;

/**
 * A CKKS ciphertext (c_0, c_1[, c_2]) over Q_ℓ in the NTT domain with its scale: decrypts to
 * c_0 + c_1·s (+ c_2·s²) ≈ Δ·m. Immutable by contract: evaluator operations return new
 * ciphertexts and never write to their inputs; callers must not write to {@link #poly(int)}.
 */
public final class Ciphertext {
    private final CkksParameters params;
    private final RnsPoly[] polys;
    private final double scale;

    public Ciphertext(CkksParameters params, double scale, RnsPoly... polys) {
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

    public RnsPoly poly(int i) {
        return polys[i];
    }

    public Ciphertext copy() {
        RnsPoly[] c = new RnsPoly[polys.length];
        for (int i = 0; i < c.length; i++) c[i] = polys[i].copy();
        return new Ciphertext(params, scale, c);
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
