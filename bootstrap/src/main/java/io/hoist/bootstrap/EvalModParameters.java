package io.hoist.bootstrap;

import io.hoist.ckks.InvalidParametersException;
import io.hoist.ckks.poly.Chebyshev;
import io.hoist.ckks.poly.Polynomial;
import io.hoist.ckks.poly.PolynomialEvaluator;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The approximate reduction modulo q_0 of bootstrapping (Han–Ki's scaled cosine, Lattigo's
 * {@code CosDiscrete}): for u = m/ratio + I with |I| &lt; K an integer, sin(2πu)/(2π) ≈ m/ratio.
 *
 * <p>The input slots hold v = u/K ∈ [−1, 1]. A Chebyshev polynomial of {@code degree} approximates
 * c·cos(2π(K·v − 1/4)/2^r) through nodes at the integers u = −(K−1) … K−1 (the only places u can be
 * near: Han–Ki's discrete interpolation; nodes beyond 2K − 1 go to the half-integers from the edges
 * inwards, where equispaced interpolation is weakest), then r double-angle steps y ← 2y² − c_k², c_{k+1} = c_k², turn it into
 * c^{2^r}·cos(2π(u − 1/4)) = c^{2^r}·sin(2πu). Without arcsine c^{2^r} = 1/(2π); with an arcsine of
 * odd degree d, c = 1 and the Taylor polynomial of arcsin(y)/(2π) follows. Immutable.
 *
 * @param k               the interval bound K: |I| must stay below K (K − 1 is the largest integer node)
 * @param degree          the cosine polynomial's degree, at least 2K − 2
 * @param doubleAngle     r, the number of double-angle steps
 * @param logMessageRatio log2 of q_0/(Δ·|m|): how far below q_0 the message sits
 * @param arcsineDegree   0 (none) or an odd degree of the arcsine correction
 * @param logScale        log2 of the scale EvalMod works at (its primes' size)
 */
public record EvalModParameters(
        int k, int degree, int doubleAngle, int logMessageRatio, int arcsineDegree, int logScale) {
    public EvalModParameters {
        if (k < 2 || k > 1024) throw new InvalidParametersException("EvalMod K must be in [2, 1024], got " + k);
        if (degree < 2 * k - 2 || degree > Math.min(4 * k - 2, 255))
            throw new InvalidParametersException("EvalMod degree must be in [2K − 2, min(4K − 2, 255)] = ["
                    + (2 * k - 2) + ", " + Math.min(4 * k - 2, 255)
                    + "]: the 2K − 1 integers, then at most the 2K half-integers, are its nodes; got " + degree);
        if (doubleAngle < 0 || doubleAngle > 8)
            throw new InvalidParametersException("double-angle steps must be in [0, 8], got " + doubleAngle);
        if (logMessageRatio < 1 || logMessageRatio > 30)
            throw new InvalidParametersException("log message ratio must be in [1, 30], got " + logMessageRatio);
        if (arcsineDegree != 0 && (arcsineDegree % 2 == 0 || arcsineDegree < 3 || arcsineDegree > 31))
            throw new InvalidParametersException("arcsine degree must be 0 or odd in [3, 31], got " + arcsineDegree);
        if (logScale < 20 || logScale > 61)
            throw new InvalidParametersException("EvalMod log scale must be in [20, 61], got " + logScale);
    }

    /** Lattigo's N16QP1546H192H32 choice: K = 16, degree 30, 3 double angles, ratio 2^8, no arcsine, scale 2^60. */
    public static EvalModParameters lattigoDefault() {
        return new EvalModParameters(16, 30, 3, 8, 0, 60);
    }

    public double messageRatio() {
        return Math.pow(2, logMessageRatio);
    }

    /** The amplitude c^{2^r} the double angles end on: 1/(2π), or 1 when the arcsine follows. */
    double amplitude() {
        return arcsineDegree == 0 ? 1 / (2 * Math.PI) : 1.0;
    }

    /** The nodes in v = u/K: the integers, then half-integers from the edges inwards. */
    double[] nodes() {
        int count = degree + 1;
        double[] x = new double[count];
        int c = 0;
        for (int i = -(k - 1); i <= k - 1; i++) x[c++] = (double) i / k;
        // extra nodes at the half-integers from the edges inwards, where interpolation at equispaced
        // points is weakest (its Lebesgue function peaks there); u itself only ever sits near integers
        for (int j = 0; c < count; j++) {
            double h = k - 0.5 - j;
            if (h <= 0) throw new InvalidParametersException("degree " + degree + " is too large for K = " + k);
            x[c++] = h / k;
            if (c < count) x[c++] = -h / k;
        }
        Arrays.sort(x);
        return x;
    }

    /**
     * The largest error of the whole approximation, before noise: |sin(2πu)/(2π) − EvalMod(u)| (or
     * against u − round(u) with the arcsine) over u = i + ε, |i| ≤ K − 1, |ε| ≤ 2^−logMessageRatio,
     * in plain double arithmetic. Too few nodes per period of the cosine (large K/2^r for the degree)
     * shows here first.
     */
    public double approximationError() {
        Polynomial cos = cosinePolynomial(), as = arcsinePolynomial();
        double c2 = Math.pow(amplitude(), 2.0 / (1 << doubleAngle)), worst = 0;
        double eMax = Math.pow(2, -logMessageRatio);
        for (int i = -(k - 1); i <= k - 1; i++) {
            for (int t = -8; t <= 8; t++) {
                double e = eMax * t / 8, u = i + e;
                double y = cos.evaluate(u / k), cc = c2;
                for (int r = 0; r < doubleAngle; r++) {
                    y = 2 * y * y - cc;
                    cc *= cc;
                }
                double want = Math.sin(2 * Math.PI * u) / (2 * Math.PI);
                if (as != null) {
                    y = as.evaluate(y);
                    want = e;
                }
                worst = Math.max(worst, Math.abs(y - want));
            }
        }
        return worst;
    }

    /**
     * The cosine polynomials made so far, by parameters: the interpolation solves its system in BigDecimal (tens of
     * ms before C2 has it), and the plan's depth, the approximation error and EvalMod each asked for it again.
     */
    private static final ConcurrentHashMap<EvalModParameters, Polynomial> COSINES = new ConcurrentHashMap<>();

    /** The cosine polynomial on v ∈ [−1, 1] (immutable; made once per parameters). */
    public Polynomial cosinePolynomial() {
        return COSINES.computeIfAbsent(this, EvalModParameters::interpolateCosine);
    }

    private Polynomial interpolateCosine() {
        double c = Math.pow(amplitude(), 1.0 / (1 << doubleAngle));
        double kk = k, r = 1 << doubleAngle;
        return Chebyshev.interpolateAt(v -> c * Math.cos(2 * Math.PI * (kk * v - 0.25) / r), -1, 1, nodes());
    }

    /** arcsin(y)/(2π) to odd degree d (Taylor), or null without the correction. */
    public Polynomial arcsinePolynomial() {
        if (arcsineDegree == 0) return null;
        double[] c = new double[arcsineDegree + 1];
        double t = 1; // (2n)! / (4^n (n!)^2 (2n+1)) for arcsin's x^{2n+1}
        for (int n = 0; 2 * n + 1 <= arcsineDegree; n++) {
            c[2 * n + 1] = t / (2 * n + 1) / (2 * Math.PI);
            t *= (2.0 * n + 1) / (2.0 * n + 2);
        }
        return Polynomial.monomial(c);
    }

    /** Levels EvalMod consumes: the cosine polynomial's, the double angles, the arcsine's. */
    public int depth() {
        int d = PolynomialEvaluator.plan(cosinePolynomial()).depth() + doubleAngle;
        Polynomial as = arcsinePolynomial();
        return as == null ? d : d + PolynomialEvaluator.plan(as).depth();
    }
}
