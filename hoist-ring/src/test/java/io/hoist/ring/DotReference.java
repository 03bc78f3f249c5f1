package io.hoist.ring;

import java.math.BigInteger;

/** The slow obvious reference of {@link LimbKernels#dot2Montgomery}, in {@code BigInteger}. */
final class DotReference {
    private DotReference() {}

    /** [(init +) Σ_t x_t[k]·y_t[k]·2^-64]_q over the first {@code terms} terms. */
    static long at(long[][] x, long[][] y, int terms, int k, long q, long init, boolean accumulate) {
        BigInteger bq = BigInteger.valueOf(q), want = BigInteger.ZERO;
        for (int t = 0; t < terms; t++)
            want = want.add(BigInteger.valueOf(x[t][k]).multiply(BigInteger.valueOf(y[t][k])));
        want = want.multiply(BigInteger.ONE.shiftLeft(64).modInverse(bq));
        if (accumulate) want = want.add(BigInteger.valueOf(init));
        return want.mod(bq).longValue();
    }
}
