package io.hoist.ckks.poly;

import io.hoist.ckks.InvalidParametersException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.function.DoubleUnaryOperator;

/** Chebyshev interpolation in plain Java: at the Chebyshev nodes, or through any given nodes. */
public final class Chebyshev {
    private static final MathContext MC = new MathContext(60);

    private Chebyshev() {}

    private static void checkInterval(double a, double b) {
        if (!(a < b) || !Double.isFinite(a) || !Double.isFinite(b))
            throw new InvalidParametersException("interval must be finite with a < b, got [" + a + ", " + b + "]");
    }

    private static double finite(double v, double x) {
        if (!Double.isFinite(v)) throw new InvalidParametersException("the function is not finite at " + x + ": " + v);
        return v;
    }

    /** The {@code count} Chebyshev nodes of the first kind on [a, b]. */
    public static double[] nodes(int count, double a, double b) {
        if (count < 1) throw new InvalidParametersException("need at least one node, got " + count);
        double[] x = new double[count];
        for (int k = 0; k < count; k++) x[k] = (a + b) / 2 + (b - a) / 2 * Math.cos(Math.PI * (k + 0.5) / count);
        return x;
    }

    /** The degree-d interpolant of f at the d + 1 Chebyshev nodes of [a, b] (coefficients by the discrete cosine sum). */
    public static Polynomial interpolate(DoubleUnaryOperator f, double a, double b, int degree) {
        if (degree < 0) throw new InvalidParametersException("degree must be >= 0, got " + degree);
        checkInterval(a, b);
        int n = degree + 1;
        double[] x = nodes(n, a, b), fx = new double[n];
        for (int k = 0; k < n; k++) fx[k] = finite(f.applyAsDouble(x[k]), x[k]);
        double[] c = new double[n];
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += fx[k] * Math.cos(Math.PI * j * (k + 0.5) / n);
            c[j] = (j == 0 ? 1.0 : 2.0) * s / n;
        }
        return Polynomial.chebyshev(a, b, c);
    }

    /**
     * The unique polynomial of degree nodes.length − 1 through f at the given distinct nodes in [a, b],
     * in the Chebyshev basis of [a, b]; the linear system is solved in 60-digit decimal arithmetic so
     * that clustered or equispaced nodes lose nothing to cancellation.
     */
    public static Polynomial interpolateAt(DoubleUnaryOperator f, double a, double b, double[] nodes) {
        int n = nodes.length;
        if (n < 1) throw new InvalidParametersException("need at least one node");
        checkInterval(a, b);
        BigDecimal[][] m = new BigDecimal[n][n + 1];
        for (int k = 0; k < n; k++) {
            if (!(nodes[k] >= a && nodes[k] <= b))
                throw new InvalidParametersException("node " + nodes[k] + " is outside [" + a + ", " + b + "]");
            BigDecimal y = new BigDecimal((2 * nodes[k] - a - b) / (b - a));
            BigDecimal t0 = BigDecimal.ONE, t1 = y;
            for (int j = 0; j < n; j++) {
                m[k][j] = j == 0 ? t0 : t1;
                if (j >= 1) {
                    BigDecimal t2 = y.multiply(t1, MC).multiply(BigDecimal.TWO).subtract(t0, MC);
                    t0 = t1;
                    t1 = t2;
                }
            }
            m[k][n] = new BigDecimal(finite(f.applyAsDouble(nodes[k]), nodes[k]));
        }
        for (int col = 0; col < n; col++) {
            int piv = col;
            for (int r = col + 1; r < n; r++) if (m[r][col].abs().compareTo(m[piv][col].abs()) > 0) piv = r;
            if (m[piv][col].signum() == 0) throw new InvalidParametersException("interpolation nodes are not distinct");
            BigDecimal[] t = m[piv];
            m[piv] = m[col];
            m[col] = t;
            for (int r = 0; r < n; r++) {
                if (r == col || m[r][col].signum() == 0) continue;
                BigDecimal fct = m[r][col].divide(m[col][col], MC);
                for (int c = col; c <= n; c++) m[r][c] = m[r][c].subtract(fct.multiply(m[col][c], MC), MC);
            }
        }
        double[] c = new double[n];
        for (int j = 0; j < n; j++) c[j] = m[j][n].divide(m[j][j], MC).doubleValue();
        return Polynomial.chebyshev(a, b, c);
    }
}
