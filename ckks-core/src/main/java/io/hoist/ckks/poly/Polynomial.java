package io.hoist.ckks.poly;

import io.hoist.ckks.InvalidParametersException;
import java.util.Arrays;
import java.util.Locale;

/**
 * A real polynomial in the monomial basis, or in the Chebyshev basis of an interval [a, b]
 * (T_j evaluated at (2x − a − b)/(b − a)). Immutable; the coefficients are copied in and out.
 * Trailing zero coefficients are dropped, so {@link #degree} is that of the highest nonzero one.
 */
public final class Polynomial {
    private final Basis basis;
    private final double a, b;
    private final double[] coeffs;

    private Polynomial(Basis basis, double a, double b, double[] coeffs) {
        if (coeffs.length == 0) throw new InvalidParametersException("a polynomial needs at least one coefficient");
        for (int i = 0; i < coeffs.length; i++)
            if (!Double.isFinite(coeffs[i]))
                throw new InvalidParametersException("coefficient " + i + " is not finite: " + coeffs[i]);
        if (!(a < b) || !Double.isFinite(a) || !Double.isFinite(b))
            throw new InvalidParametersException("interval must be finite with a < b, got [" + a + ", " + b + "]");
        int d = coeffs.length - 1;
        while (d > 0 && coeffs[d] == 0) d--;
        this.basis = basis;
        this.a = a;
        this.b = b;
        this.coeffs = Arrays.copyOf(coeffs, d + 1);
    }

    /** c_0 + c_1·x + c_2·x² + … */
    public static Polynomial monomial(double... coeffs) {
        return new Polynomial(Basis.MONOMIAL, -1, 1, coeffs.clone());
    }

    /** Σ c_j·T_j((2x − a − b)/(b − a)) on [a, b]. */
    public static Polynomial chebyshev(double a, double b, double... coeffs) {
        return new Polynomial(Basis.CHEBYSHEV, a, b, coeffs.clone());
    }

    public Basis basis() {
        return basis;
    }

    /** The interval's lower end (−1 for the monomial basis). */
    public double lower() {
        return a;
    }

    /** The interval's upper end (1 for the monomial basis). */
    public double upper() {
        return b;
    }

    public int degree() {
        return coeffs.length - 1;
    }

    public double coefficient(int i) {
        return i < coeffs.length && i >= 0 ? coeffs[i] : 0;
    }

    public double[] coefficients() {
        return coeffs.clone();
    }

    /** Whether every odd coefficient is exactly zero. */
    public boolean isEven() {
        for (int i = 1; i < coeffs.length; i += 2) if (coeffs[i] != 0) return false;
        return true;
    }

    /** Whether every even coefficient is exactly zero. */
    public boolean isOdd() {
        for (int i = 0; i < coeffs.length; i += 2) if (coeffs[i] != 0) return false;
        return true;
    }

    /** Whether a Chebyshev polynomial's input needs the affine map to [−1, 1]. */
    boolean needsAffineMap() {
        return basis == Basis.CHEBYSHEV && (a != -1 || b != 1);
    }

    /** p(x) in plain double arithmetic (Horner, or Clenshaw for Chebyshev): the reference for tests. */
    public double evaluate(double x) {
        if (basis == Basis.MONOMIAL) {
            double r = 0;
            for (int i = coeffs.length - 1; i >= 0; i--) r = r * x + coeffs[i];
            return r;
        }
        double y = (2 * x - a - b) / (b - a), b1 = 0, b2 = 0;
        for (int i = coeffs.length - 1; i >= 1; i--) {
            double t = 2 * y * b1 - b2 + coeffs[i];
            b2 = b1;
            b1 = t;
        }
        return y * b1 - b2 + coeffs[0];
    }

    @Override
    public String toString() {
        return basis == Basis.MONOMIAL
                ? "Polynomial[monomial, degree " + degree() + "]"
                : String.format(Locale.ROOT, "Polynomial[Chebyshev on [%g, %g], degree %d]", a, b, degree());
    }
}
