package io.hoist.ckks;

/**
 * Distribution of the secret key's coefficients.
 *
 * @param hammingWeight 0 for uniform ternary (each coefficient −1, 0, 1 with probability 1/3),
 *                      otherwise exactly this many nonzero ±1 coefficients (sparse ternary)
 */
public record SecretDistribution(int hammingWeight) {
    public SecretDistribution {
        if (hammingWeight < 0) throw new IllegalArgumentException("Hamming weight must be >= 0: " + hammingWeight);
    }

    public static SecretDistribution uniformTernary() {
        return new SecretDistribution(0);
    }

    public static SecretDistribution sparseTernary(int h) {
        if (h <= 0) throw new IllegalArgumentException("sparse ternary needs a positive Hamming weight: " + h);
        return new SecretDistribution(h);
    }

    public boolean sparse() {
        return hammingWeight > 0;
    }

    // equals and hashCode written out: every key switch compares its key's parameters, these among them, and a record's
    // own go through an invokedynamic bootstrap, run as method-handle chains until compiled
    @Override
    public boolean equals(Object o) {
        return o instanceof SecretDistribution d && d.hammingWeight == hammingWeight;
    }

    @Override
    public int hashCode() {
        return hammingWeight;
    }

    @Override
    public String toString() {
        return sparse() ? "sparse ternary (h=" + hammingWeight + ")" : "uniform ternary";
    }
}
