package io.hoist.ckks.poly;

import com.google.common.collect.ImmutableMap;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.InvalidParametersException;
import io.hoist.ckks.InvalidScaleException;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.MutableCiphertext;
import io.hoist.ckks.Scratch;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Evaluates a {@link Polynomial} on a ciphertext by baby-step giant-step (Paterson–Stockmeyer style,
 * as Lattigo's polynomial evaluator): p = q·T_n + r split at the largest power of two n ≤ degree until
 * the pieces have degree below 2^babyLog; the pieces are sums of constants times baby-step powers.
 * The scales are managed exactly: each piece is evaluated to land at the scale its product needs, so
 * the result has exactly the requested scale, with no drift. Only the powers a piece uses are computed
 * (odd and even polynomials touch only odd or even powers), and the baby-step size is the one with the
 * fewest levels, then the fewest products ({@link #plan}). See docs/bootstrapping.md.
 *
 * <p>T_j = 2·T_a·T_b − T_{a−b} (x^j = x^a·x^b) with a the largest power of two below j: T_j sits
 * ⌈log2 j⌉ levels below the input. Needs a relinearization key in the evaluator. Thread-safe.
 */
public final class PolynomialEvaluator {
    private static final int CONSTANT = -1;
    private final Evaluator ev;
    private final CkksParameters params;

    public PolynomialEvaluator(Evaluator ev) {
        this.ev = Objects.requireNonNull(ev, "ev is null");
        this.params = ev.context().params();
    }

    /**
     * The output and the counts of this evaluation alone ({@link OpCounters#count}: work other threads run on the same
     * context meanwhile is not included).
     */
    public record Result(Ciphertext output, PolynomialPlan plan, Map<Op, Long> counts) {
        public Result {
            counts = ImmutableMap.copyOf(counts);
        }
    }

    // ------------------------------------------------------------------ planning

    /** The plan: baby-step size with the fewest levels, then the fewest ciphertext products. */
    public static PolynomialPlan plan(Polynomial p) {
        Objects.requireNonNull(p, "p is null");
        if (p.degree() < 1)
            throw new InvalidParametersException("a polynomial of degree 0 is a constant; nothing to evaluate");
        int m = 32 - Integer.numberOfLeadingZeros(p.degree()); // ⌈log2(d + 1)⌉
        PolynomialPlan best = null;
        for (int l = 1; l <= m; l++) {
            Tally t = new Tally(p.basis());
            int need = t.need(p.coefficients(), l);
            PolynomialPlan c = t.plan(p, l, need);
            if (best == null
                    || c.depth() < best.depth()
                    || (c.depth() == best.depth() && c.multiplications() < best.multiplications())) best = c;
        }
        return best;
    }

    /** Levels below the input a power sits at. */
    static int powerDepth(int j) {
        return j <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(j - 1);
    }

    /** The two (or three) powers T_j is made of: a = largest power of two below j, b = j − a. */
    static int splitA(int j) {
        return Integer.highestOneBit(j - 1);
    }

    /** p = q·T_n + r (Chebyshev: T_{n+i} = 2·T_n·T_i − T_{n−i}; monomial: x^{n+i} = x^n·x^i). */
    static double[][] split(double[] c, int n, Basis basis) {
        int d = c.length - 1;
        double[] q = new double[d - n + 1], r = new double[n];
        System.arraycopy(c, 0, r, 0, n);
        q[0] = c[n];
        for (int i = 1; i <= d - n; i++) {
            if (basis == Basis.CHEBYSHEV) {
                q[i] = 2 * c[n + i];
                r[n - i] -= c[n + i];
            } else q[i] = c[n + i];
        }
        return new double[][] {trim(q), trim(r)};
    }

    static double[] trim(double[] c) {
        int d = c.length - 1;
        while (d > 0 && c[d] == 0) d--;
        return d == c.length - 1 ? c : Arrays.copyOf(c, d + 1);
    }

    /** The symbolic twin of the evaluation: levels needed and counts. */
    private static final class Tally {
        final Basis basis;
        final TreeSet<Integer> leafPowers = new TreeSet<>();
        int products, constantProducts, rescales;

        Tally(Basis basis) {
            this.basis = basis;
        }

        int need(double[] c, int l) {
            int d = c.length - 1;
            if (d == 0) return CONSTANT;
            if (d < (1 << l)) {
                int need = 0;
                for (int j = 1; j <= d; j++) {
                    if (c[j] == 0) continue;
                    leafPowers.add(j);
                    constantProducts++;
                    need = Math.max(need, 1 + powerDepth(j));
                }
                rescales++;
                return need;
            }
            int n = Integer.highestOneBit(d);
            double[][] qr = split(c, n, basis);
            leafPowers.add(n);
            int nq = need(qr[0], l), nr = need(qr[1], l);
            if (nq == CONSTANT) constantProducts++;
            else products++;
            rescales++;
            int v = 1 + Math.max(nq == CONSTANT ? 0 : nq, powerDepth(n));
            return Math.max(v, nr == CONSTANT ? 0 : nr);
        }

        PolynomialPlan plan(Polynomial p, int l, int need) {
            TreeSet<Integer> all = new TreeSet<>();
            for (int j : leafPowers) close(j, all);
            all.remove(1);
            int constForPowers = 0;
            if (basis == Basis.CHEBYSHEV)
                for (int j : all)
                    if (j - 2 * splitA(j) != 0) constForPowers++; // T_{a−b} brought to the product's scale
            boolean affine = p.needsAffineMap();
            return new PolynomialPlan(
                    basis,
                    p.degree(),
                    l,
                    need + (affine ? 1 : 0),
                    affine,
                    all,
                    products,
                    constantProducts + constForPowers + (affine ? 1 : 0),
                    rescales + all.size() + (affine ? 1 : 0));
        }

        void close(int j, TreeSet<Integer> all) {
            if (j <= 1 || !all.add(j)) return;
            int a = splitA(j), b = j - a;
            close(a, all);
            close(b, all);
            if (basis == Basis.CHEBYSHEV && a - b > 0) close(a - b, all);
        }
    }

    // ------------------------------------------------------------------ evaluation

    /**
     * p(ct) at exactly {@code targetScale}, {@link PolynomialPlan#depth} levels below the input.
     *
     * @throws LevelMismatchException if the ciphertext has fewer levels than the plan needs
     * @throws InvalidScaleException  if the target scale does not fit the output level's modulus
     */
    public Result evaluate(Ciphertext ct, Polynomial p, double targetScale) {
        try (Scratch scratch = ev.scratch()) {
            Result r = evaluate(ct, p, targetScale, scratch);
            scratch.keep(r.output());
            return r;
        }
    }

    /**
     * {@link #evaluate(Ciphertext, Polynomial, double)} with the intermediate ciphertexts (the powers, the partial
     * sums) in {@code scratch}, each given back once the evaluation has no more use for it, and the output made
     * there too: the caller releases it when done with it, or keeps it (see {@link Scratch}). The input is only read.
     *
     * @throws io.hoist.ckks.WrongOperandException if {@code scratch} was made for other parameters
     */
    public Result evaluate(Ciphertext ct, Polynomial p, double targetScale, Scratch scratch) {
        Objects.requireNonNull(scratch, "scratch is null");
        Objects.requireNonNull(ct, "ct is null");
        Objects.requireNonNull(p, "p is null");
        if (!(targetScale > 0) || Double.isInfinite(targetScale))
            throw new InvalidScaleException("target scale must be positive and finite: " + targetScale);
        PolynomialPlan plan = plan(p);
        if (ct.level() < plan.depth())
            throw new LevelMismatchException(
                    "evaluating " + p + " takes " + plan.depth() + " levels; the ciphertext is at level " + ct.level());
        OpCounters.Counted<Ciphertext> out = OpCounters.count(() -> run(ct, p, plan, targetScale, scratch));
        return new Result(out.value(), plan, out.counts());
    }

    private Ciphertext run(Ciphertext ct, Polynomial p, PolynomialPlan plan, double targetScale, Scratch scratch) {
        Ciphertext x = ct;
        if (plan.affine()) {
            double alpha = 2 / (p.upper() - p.lower()), beta = -(p.upper() + p.lower()) / (p.upper() - p.lower());
            double q = params.q(ct.level());
            MutableCiphertext m = ev.linearCombinationMutable(
                    List.of(ct), new double[] {alpha}, new double[] {q}, ct.level(), ct.scale() * q, scratch);
            exactScale(m.rescale(), ct.scale());
            x = m.addConstant(beta, 0).freeze();
        }
        Run run = new Run(p.basis(), plan.babyLog(), x, scratch);
        for (int j : plan.powers()) run.power(j);
        Ciphertext out = run.eval(p.coefficients(), x.level() - (plan.depth() - (plan.affine() ? 1 : 0)), targetScale);
        // every power is dead now; T_1 is the input itself unless the affine map made it here
        for (Map.Entry<Integer, Ciphertext> e : run.t.entrySet())
            if (e.getKey() != 1 || plan.affine()) scratch.release(e.getValue());
        return out;
    }

    /**
     * {@code c} labelled with the exact scale it was computed to have: a rescale's label is a
     * floating-point quotient, and adding it up step by step would drift; a difference above 1e-9
     * is a bookkeeping error, not rounding.
     */
    public static Ciphertext atExactScale(Ciphertext c, double scale) {
        checkDrift(c.scale(), scale);
        return c.scale() == scale ? c : c.withScale(scale);
    }

    private static void checkDrift(double have, double scale) {
        if (Math.abs(have / scale - 1) > 1e-9)
            throw new IllegalStateException("scale bookkeeping drifted: " + have + " vs " + scale);
    }

    /** {@link #atExactScale} for a mutable ciphertext. */
    private static void exactScale(MutableCiphertext c, double scale) {
        checkDrift(c.scale(), scale);
        c.setScale(scale);
    }

    private Ciphertext at(Ciphertext c, int level) {
        return c.level() == level ? c : ev.atLevel(c, level);
    }

    private final class Run {
        final Basis basis;
        final int l;
        final Map<Integer, Ciphertext> t = new HashMap<>();
        final Scratch scratch;

        Run(Basis basis, int l, Ciphertext x, Scratch scratch) {
            this.basis = basis;
            this.l = l;
            this.scratch = scratch;
            t.put(1, x);
        }

        Ciphertext power(int j) {
            Ciphertext have = t.get(j);
            if (have != null) return have;
            int a = splitA(j), b = j - a;
            Ciphertext ta = power(a), tb = power(b);
            int level = Math.min(ta.level(), tb.level());
            // in place from the product to the rescale: one ciphertext made per power
            MutableCiphertext prod = ev.mulRelinMutable(at(ta, level), at(tb, level), scratch);
            if (basis == Basis.CHEBYSHEV) {
                prod.mulInteger(2);
                if (a == b) prod.addConstant(-1, 0);
                else {
                    Ciphertext tc = power(a - b);
                    prod.addScaled(tc, -1.0, prod.scale() / tc.scale());
                }
            }
            double scale = prod.scale() / params.q(level);
            Ciphertext r = atExactScale(prod.rescale().freeze(), scale);
            t.put(j, r);
            return r;
        }

        /** Σ c_j·T_j landing at (level, scale); null for a constant (the caller adds it). */
        Ciphertext eval(double[] c, int level, double scale) {
            int d = c.length - 1;
            if (d == 0) return null;
            if (d < (1 << l)) {
                double up = scale * params.q(level + 1);
                // one linear combination read at level + 1 (c[d] is not 0: at least one term), not a copy, a
                // product and a sum per term
                List<Ciphertext> terms = new ArrayList<>(d);
                double[] coefficients = new double[d], constantScales = new double[d];
                for (int j = 1; j <= d; j++) {
                    if (c[j] == 0) continue;
                    Ciphertext tj = t.get(j);
                    coefficients[terms.size()] = c[j];
                    constantScales[terms.size()] = up / tj.scale();
                    terms.add(tj);
                }
                int m = terms.size();
                MutableCiphertext acc = ev.linearCombinationMutable(
                        terms,
                        Arrays.copyOf(coefficients, m),
                        Arrays.copyOf(constantScales, m),
                        level + 1,
                        up,
                        scratch);
                if (c[0] != 0) acc.addConstant(c[0], 0);
                return atExactScale(acc.rescale().freeze(), scale);
            }
            int n = Integer.highestOneBit(d);
            double[][] qr = split(c, n, basis);
            Ciphertext tn = at(t.get(n), level + 1);
            double qScale = scale * params.q(level + 1) / tn.scale();
            MutableCiphertext qt;
            if (qr[0].length == 1) { // one term: the residues and counts of mulConstant
                qt = ev.linearCombinationMutable(
                        List.of(tn),
                        new double[] {qr[0][0]},
                        new double[] {qScale},
                        level + 1,
                        tn.scale() * qScale,
                        scratch);
            } else {
                Ciphertext q = eval(qr[0], level + 1, qScale);
                qt = ev.mulRelinMutable(q, tn, scratch);
                scratch.release(q);
            }
            exactScale(qt.rescale(), scale);
            Ciphertext r = eval(qr[1], level, scale);
            if (r != null) {
                qt.add(r);
                scratch.release(r);
                return qt.freeze();
            }
            return (qr[1][0] != 0 ? qt.addConstant(qr[1][0], 0) : qt).freeze();
        }
    }
}
