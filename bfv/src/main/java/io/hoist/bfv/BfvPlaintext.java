package io.hoist.bfv;

import java.util.Arrays;

/** A BFV plaintext: N coefficients modulo t, coefficient form (as SEAL keeps BFV plaintexts). Immutable. */
public final class BfvPlaintext {
    private final BfvParameters params;
    private final long[] coeffs;

    private BfvPlaintext(BfvParameters params, long[] coeffs) {
        this.params = params;
        this.coeffs = coeffs;
    }

    /** From up to N coefficients in [0, t) (the rest are 0); checks every one. */
    public static BfvPlaintext of(BfvContext ctx, long[] coefficients) {
        int n = ctx.n();
        if (coefficients.length > n)
            throw new BfvOperandException(
                    "a plaintext has at most N = " + n + " coefficients, got " + coefficients.length);
        long t = ctx.t();
        long[] c = Arrays.copyOf(coefficients, n);
        for (int i = 0; i < coefficients.length; i++)
            if (c[i] < 0 || c[i] >= t)
                throw new BfvOperandException(
                        "plaintext coefficient " + i + " = " + c[i] + " is not in [0, t = " + t + ")");
        return new BfvPlaintext(ctx.params(), c);
    }

    /** Takes ownership of {@code c} (length N, every value in [0, t)). */
    static BfvPlaintext wrap(BfvParameters params, long[] c) {
        return new BfvPlaintext(params, c);
    }

    public BfvParameters params() {
        return params;
    }

    public int n() {
        return coeffs.length;
    }

    public long coefficient(int i) {
        if (i < 0 || i >= coeffs.length)
            throw new BfvOperandException("coefficient " + i + " does not exist: N = " + coeffs.length);
        return coeffs[i];
    }

    /** A copy of the coefficients. */
    public long[] coefficients() {
        return coeffs.clone();
    }

    long[] raw() {
        return coeffs;
    }

    /** Value equality, for tests and servers: not constant time (it stops at the first difference). */
    @Override
    public boolean equals(Object o) {
        return o instanceof BfvPlaintext p && p.params.equals(params) && Arrays.equals(p.coeffs, coeffs);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(coeffs);
    }

    @Override
    public String toString() {
        return "BfvPlaintext(N=" + coeffs.length + ")";
    }
}
