package io.hoist.bootstrap;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.Scratch;
import io.hoist.ckks.poly.Polynomial;
import io.hoist.ckks.poly.PolynomialEvaluator;
import io.hoist.ckks.poly.PolynomialPlan;
import java.util.Objects;

/**
 * Evaluates {@link EvalModParameters}' approximation on a ciphertext whose slots hold v = u/K: the
 * cosine polynomial, the double angles and the optional arcsine, each landing at the scale computed
 * backwards from the requested output scale, so that the output has exactly that scale and
 * holds sin(2πu)/(2π) ≈ u − round(u). One level per double angle. Thread-safe.
 */
public final class EvalMod {
    private final Evaluator ev;
    private final PolynomialEvaluator pe;
    private final CkksParameters params;
    private final EvalModParameters p;
    private final Polynomial cosine, arcsine;
    private final PolynomialPlan cosinePlan, arcsinePlan;

    public EvalMod(Evaluator ev, EvalModParameters p) {
        this.ev = Objects.requireNonNull(ev, "ev is null");
        this.p = Objects.requireNonNull(p, "p is null");
        this.pe = new PolynomialEvaluator(ev);
        this.params = ev.context().params();
        this.cosine = p.cosinePolynomial();
        this.arcsine = p.arcsinePolynomial();
        this.cosinePlan = PolynomialEvaluator.plan(cosine);
        this.arcsinePlan = arcsine == null ? null : PolynomialEvaluator.plan(arcsine);
    }

    public EvalModParameters parameters() {
        return p;
    }

    public PolynomialPlan cosinePlan() {
        return cosinePlan;
    }

    /** Levels consumed. */
    public int depth() {
        return cosinePlan.depth() + p.doubleAngle() + (arcsinePlan == null ? 0 : arcsinePlan.depth());
    }

    /**
     * The reduction of {@code ct} (slots v = u/K), output {@link #depth} levels lower at exactly
     * {@code outScale}.
     */
    public Ciphertext apply(Ciphertext ct, double outScale) {
        return apply(ct, outScale, null);
    }

    /**
     * {@link #apply(Ciphertext, double)} with the result made in {@code outputs} (a copy out of this call's own
     * scratch, which holds the intermediates), or in fresh memory where it is null. Two calls on two threads may
     * share {@code outputs}.
     */
    public Ciphertext apply(Ciphertext ct, double outScale, Scratch outputs) {
        Objects.requireNonNull(ct, "ct is null");
        if (ct.level() < depth())
            throw new LevelMismatchException(
                    "EvalMod takes " + depth() + " levels; the ciphertext is at level " + ct.level());
        int l0 = ct.level();
        int cosOut = l0 - cosinePlan.depth(), angleOut = cosOut - p.doubleAngle();
        // scales backwards: the arcsine lands at outScale; each double angle squares and divides by its prime
        double[] angleScale = new double[p.doubleAngle() + 1];
        angleScale[p.doubleAngle()] = outScale; // with an arcsine, its input sits at the output scale too
        for (int k = p.doubleAngle() - 1; k >= 0; k--)
            angleScale[k] = Math.sqrt(angleScale[k + 1] * params.q(cosOut - k));
        // every intermediate in pooled limbs, given back as soon as the next step has read it; only the output leaves
        try (Scratch scratch = ev.scratch()) {
            Ciphertext y = pe.evaluate(ct, cosine, angleScale[0], scratch).output();
            double c2 = Math.pow(p.amplitude(), 2.0 / (1 << p.doubleAngle())); // c_0²
            for (int k = 0; k < p.doubleAngle(); k++) {
                // 2y² − c_0², rescaled, in place: one ciphertext made per step
                Ciphertext sq = ev.mulRelinMutable(y, y, scratch)
                        .mulInteger(2)
                        .addConstant(-c2, 0)
                        .rescale()
                        .freeze();
                scratch.release(y);
                y = PolynomialEvaluator.atExactScale(sq, angleScale[k + 1]);
                c2 *= c2;
            }
            if (y.level() != angleOut) throw new IllegalStateException("EvalMod level bookkeeping");
            if (arcsinePlan != null) {
                Ciphertext z = pe.evaluate(y, arcsine, outScale, scratch).output();
                scratch.release(y);
                y = z;
            }
            return outputs == null ? scratch.keep(y) : outputs.copy(y);
        }
    }
}
