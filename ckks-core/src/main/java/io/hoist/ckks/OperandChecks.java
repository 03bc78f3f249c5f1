package io.hoist.ckks;

import java.util.Locale;

/** The operand checks of {@link Evaluator}: each names the mismatch with a typed {@link CkksException}. */
final class OperandChecks {
    private static final double SCALE_TOLERANCE = 1e-9;

    private final CkksParameters params;

    OperandChecks(CkksParameters params) {
        this.params = params;
    }

    void checkParams(Ciphertext a) {
        if (!a.params().equals(params))
            throw new ParameterMismatchException("ciphertext made under other parameters than this evaluator's");
    }

    void checkParams(CiphertextQP c) {
        if (!c.params().equals(params))
            throw new ParameterMismatchException("QP ciphertext made under other parameters than this evaluator's");
    }

    void checkRotatable(Ciphertext a) {
        checkParams(a);
        if (a.degree() != 1)
            throw new WrongOperandException(
                    "rotations need a degree-1 ciphertext (relinearize first), got degree " + a.degree());
    }

    void checkPair(Ciphertext a, Ciphertext b, boolean sameScale) {
        checkParams(a);
        checkParams(b);
        if (a.level() != b.level()) {
            throw new LevelMismatchException(
                    "operands at levels " + a.level() + " and " + b.level() + "; drop the higher one with dropLevel");
        }
        if (sameScale) checkScale(a.scale(), b.scale());
    }

    void checkPlain(Ciphertext a, Plaintext p, boolean sameScale) {
        checkParams(a);
        if (!p.params().equals(params))
            throw new ParameterMismatchException("plaintext encoded under other parameters");
        if (p.level() < a.level()) {
            throw new LevelMismatchException(
                    "plaintext at level " + p.level() + " is below the ciphertext's level " + a.level());
        }
        if (sameScale) checkScale(a.scale(), p.scale());
    }

    /** A product's scale must leave room below Q_ℓ/2 for a message of magnitude 1. */
    double checkProductScale(double scale, int level) {
        double logQ = 0;
        for (int j = 0; j <= level; j++) logQ += Math.log(params.q(j)) / Math.log(2);
        double log = Math.log(scale) / Math.log(2);
        if (!(log < logQ - 1)) {
            throw new InvalidScaleException(String.format(
                    Locale.ROOT,
                    "the product's scale 2^%.1f does not fit the modulus 2^%.1f at level %d: rescale the operands first",
                    log,
                    logQ,
                    level));
        }
        return scale;
    }

    static void checkScale(double s1, double s2) {
        if (Math.abs(s1 / s2 - 1) > SCALE_TOLERANCE) {
            throw new ScaleMismatchException(String.format(
                    Locale.ROOT,
                    "operand scales differ: 2^%.4f vs 2^%.4f",
                    Math.log(s1) / Math.log(2),
                    Math.log(s2) / Math.log(2)));
        }
    }
}
