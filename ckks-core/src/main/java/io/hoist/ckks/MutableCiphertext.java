package io.hoist.ckks;

import io.hoist.ring.RnsPoly;
import java.util.Locale;

/**
 * A ciphertext that one caller owns and changes in place, then hands over as an immutable {@link Ciphertext}
 * with {@link #freeze()} (no copy), as a {@code StringBuilder} hands over its text. It is SEAL's and OpenFHE's
 * in-place operations for chains whose intermediate results nobody else sees. The polynomial evaluator's
 * Chebyshev step T_{a+b} = 2·T_a·T_b − T_{a−b}, rescaled, makes one ciphertext this way instead of five, and
 * bootstrapping's EvalMod makes most of its garbage in such chains.
 *
 * <p>Made by {@link Evaluator#mulRelinMutable}, {@link Evaluator#linearCombinationMutable} or {@link
 * Evaluator#mutableCopy}; every operation runs on that evaluator, checks its operands as the evaluator's
 * immutable twin does, gives the same residues bit for bit, counts the same steps, and returns this object.
 * One made in a {@link Scratch} keeps its limbs there (a rescale gives the dropped one back at once). Not
 * thread-safe; after {@link #freeze()}, or after an operation that failed once it had begun to write, every
 * operation throws {@link IllegalStateException}. An operation refused by its checks changes nothing.
 */
public final class MutableCiphertext {
    private final Evaluator ev;
    private final CkksParameters params;
    /** Where the limbs came from, or null for fresh memory. */
    private final Scratch scratch;

    private RnsPoly[] polys;
    private double scale;

    MutableCiphertext(Evaluator ev, CkksParameters params, double scale, RnsPoly[] polys) {
        this(ev, params, scale, polys, null);
    }

    MutableCiphertext(Evaluator ev, CkksParameters params, double scale, RnsPoly[] polys, Scratch scratch) {
        this.ev = ev;
        this.params = params;
        this.scale = scale;
        this.polys = polys;
        this.scratch = scratch;
    }

    public int level() {
        return live()[0].level();
    }

    public double scale() {
        live();
        return scale;
    }

    /** 1, or 2 for a product not yet relinearized. */
    public int degree() {
        return live().length - 1;
    }

    /** Multiplies every slot by the integer c (scale unchanged): {@link Evaluator#mulInteger}. */
    public MutableCiphertext mulInteger(long c) {
        RnsPoly[] p = live();
        ev.mulInteger(p, p, c);
        return this;
    }

    /** Adds re + i·im to every slot, encoded at this scale: {@link Evaluator#addConstant}. */
    public MutableCiphertext addConstant(double re, double im) {
        RnsPoly[] p = live();
        ev.addConstant(p[0], p[0], scale, re, im);
        return this;
    }

    /**
     * Adds round(c·constantScale)·b, b read at this level without a copy (at or above it), whose scale
     * times {@code constantScale} must be this scale: {@link Evaluator#mulConstant} of b at this level, then
     * {@link Evaluator#add}. A negative c subtracts.
     */
    public MutableCiphertext addScaled(Ciphertext b, double c, double constantScale) {
        RnsPoly[] p = live();
        ev.addScaled(p, scale, b, c, constantScale);
        return this;
    }

    /** Adds b (same parameters, level and scale; degree at most this one's): {@link Evaluator#add}. */
    public MutableCiphertext add(Ciphertext b) {
        RnsPoly[] p = live();
        ev.addInPlace(p, scale, b);
        return this;
    }

    /** Divides by the last prime q_ℓ (rounded) and drops it: level ℓ−1, scale / q_ℓ ({@link Evaluator#rescale}). */
    public MutableCiphertext rescale() {
        RnsPoly[] p = live();
        int level = p[0].level();
        if (level == 0) throw new LevelMismatchException("cannot rescale a ciphertext at level 0");
        RnsPoly[] lower = new RnsPoly[p.length];
        for (int i = 0; i < p.length; i++) lower[i] = p[i].atLevel(level - 1);
        try {
            ev.rescale(p, lower); // limb j of the result overwrites limb j, which only it reads
        } catch (RuntimeException | Error e) {
            polys = null; // some limbs may be rescaled already: spent, never a wrong ciphertext
            throw e;
        }
        if (scratch != null) for (RnsPoly q : p) scratch.dropTop(q); // the dropped limb, read by nobody
        polys = lower;
        scale /= params.q(level);
        return this;
    }

    /** The same polynomials read at another scale: {@link Evaluator#withScale}. */
    public MutableCiphertext setScale(double scale) {
        live();
        if (!(scale > 0) || Double.isInfinite(scale))
            throw new ScaleMismatchException("scale must be positive and finite: " + scale); // as withScale
        this.scale = scale;
        return this;
    }

    /** The result as an immutable ciphertext that takes over the polynomials; this object is spent. */
    public Ciphertext freeze() {
        RnsPoly[] p = live();
        polys = null;
        return Ciphertext.wrap(RawAccess.get(), params, scale, p);
    }

    private RnsPoly[] live() {
        if (polys == null) throw new IllegalStateException("this mutable ciphertext was frozen");
        if (scratch != null && scratch.isClosed())
            throw new IllegalStateException("the scratch this mutable ciphertext was made in is closed");
        return polys;
    }

    @Override
    public String toString() {
        return polys == null
                ? "MutableCiphertext[frozen]"
                : "MutableCiphertext[degree=" + degree() + ", level=" + level() + ", scale=2^"
                        + String.format(Locale.ROOT, "%.2f", Math.log(scale) / Math.log(2)) + "]";
    }
}
