package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.poly.Basis;
import io.hoist.ckks.poly.Chebyshev;
import io.hoist.ckks.poly.Polynomial;
import io.hoist.ckks.poly.PolynomialEvaluator;
import io.hoist.ckks.poly.PolynomialPlan;
import io.hoist.ring.Op;
import io.hoist.ring.ScalarNttBackend;
import io.hoist.testing.SeededFuzz;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The polynomial evaluator against plain double arithmetic: bases, parities, degrees 1 … 63, intervals, scales and counts. */
class PolynomialEvaluatorTest {
    private static SchemeFixture f;
    private static Evaluator ev;
    private static PolynomialEvaluator pe;

    @BeforeAll
    static void setUp() {
        f = new SchemeFixture(11, new int[] {60, 50, 50, 50, 50, 50, 50, 50, 50}, new int[] {60}, 7);
        ev = f.evaluator(null);
        pe = new PolynomialEvaluator(ev);
    }

    enum Parity {
        GENERAL,
        EVEN,
        ODD
    }

    static Stream<Arguments> cases() {
        // seeded generator: degree, basis, parity and interval drawn from fixed seeds
        List<Arguments> out = new ArrayList<>();
        int[] degrees = {1, 2, 3, 4, 5, 7, 8, 12, 15, 16, 17, 30, 31, 32, 47, 63};
        double[][] intervals = {{-1, 1}, {0, 4}, {-3, 1}};
        SplittableRandom r = new SplittableRandom(20261201);
        for (int d : degrees) {
            for (Parity par : Parity.values()) {
                if (par == Parity.EVEN && d % 2 == 1 || par == Parity.ODD && d % 2 == 0) continue;
                Basis b = r.nextBoolean() ? Basis.CHEBYSHEV : Basis.MONOMIAL;
                double[] iv = b == Basis.MONOMIAL || par != Parity.GENERAL ? intervals[0] : intervals[r.nextInt(3)];
                out.add(Arguments.of(d, b, par, iv[0], iv[1], r.nextLong()));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "degree {0} {1} {2} on [{3}, {4}]")
    @MethodSource("cases")
    void matchesPlainEvaluation(int degree, Basis basis, Parity parity, double a, double b, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] c = new double[degree + 1];
        for (int j = 0; j <= degree; j++) {
            boolean zero = parity == Parity.EVEN && j % 2 == 1 || parity == Parity.ODD && j % 2 == 0;
            // monomial coefficients decay so that |p| stays moderate on [−1, 1]
            double mag = basis == Basis.MONOMIAL ? Math.pow(0.8, j) : 1.0 / (1 + j);
            c[j] = zero ? 0 : (r.nextDouble() * 2 - 1) * mag;
        }
        c[degree] = (c[degree] == 0 ? 0.5 : c[degree]);
        Polynomial p = basis == Basis.MONOMIAL ? Polynomial.monomial(c) : Polynomial.chebyshev(a, b, c);
        int slots = f.params.slots();
        double[] x = new double[slots], want = new double[slots];
        for (int i = 0; i < slots; i++) {
            x[i] = a + (b - a) * r.nextDouble();
            want[i] = p.evaluate(x[i]);
        }
        // the input's scale near the 50-bit primes: each power's scale is then near them too
        Ciphertext ct = f.encryptor.encrypt(f.encoder.encode(ComplexVector.ofReal(x), f.params.maxLevel(), 0x1p50));
        double target = 0x1p48;
        PolynomialEvaluator.Result res = pe.evaluate(ct, p, target);
        PolynomialPlan plan = res.plan();
        int m = 32 - Integer.numberOfLeadingZeros(degree);
        assertEquals(m + (plan.affine() ? 1 : 0), plan.depth(), "depth ⌈log2(d+1)⌉ (+1 for the interval map)");
        assertEquals(ct.level() - plan.depth(), res.output().level());
        assertEquals(target, res.output().scale(), 0.0, "output lands exactly at the requested scale");
        assertEquals(plan.multiplications(), res.counts().get(Op.CT_MUL));
        assertEquals(plan.multiplications(), res.counts().get(Op.RELINEARIZE));
        assertEquals(plan.rescales(), res.counts().get(Op.RESCALE));
        assertEquals(plan.constantProducts(), res.counts().get(Op.CONST_MUL));
        if (parity == Parity.EVEN && basis == Basis.CHEBYSHEV)
            assertTrue(plan.powers().stream().allMatch(j -> j % 2 == 0 || j == 1), "even: even powers only");
        f.assertBits(ComplexVector.ofReal(want), res.output(), 20, p.toString());
    }

    /**
     * In a scratch the evaluation gives back every power and partial sum: the scratch holds the output's limbs and
     * nothing else, the output equals the one the plain call keeps, and a warm evaluation allocates little more than
     * the output (every intermediate of degree 30 in fresh memory was about 20 ciphertexts).
     */
    @ParameterizedTest(name = "degree {0} {1} on [{2}, {3}]")
    @MethodSource("scratchCases")
    void inScratchOnlyTheOutputIsLeftAndAWarmEvaluationAllocatesLittle(int degree, Basis basis, double a, double b) {
        SplittableRandom r = new SplittableRandom(degree);
        double[] c = new double[degree + 1];
        for (int j = 0; j <= degree; j++) c[j] = (r.nextDouble() * 2 - 1) / (1 + j);
        Polynomial p = basis == Basis.MONOMIAL ? Polynomial.monomial(c) : Polynomial.chebyshev(a, b, c);
        double[] x = new double[f.params.slots()];
        for (int i = 0; i < x.length; i++) x[i] = a + (b - a) * r.nextDouble();
        Ciphertext ct = f.encryptor.encrypt(f.encoder.encode(ComplexVector.ofReal(x), f.params.maxLevel(), 0x1p50));
        Ciphertext plain = pe.evaluate(ct, p, 0x1p48).output();
        // on the scalar kernels: vector kernels the JIT has not compiled yet box their lanes, and tests skip the
        // warm-up
        Evaluator scalar = new Evaluator(CkksContext.create(f.params, ScalarNttBackend.NAME), f.rlk, null);
        PolynomialEvaluator spe = new PolynomialEvaluator(scalar);
        long[] allocated = new long[4], pooled = new long[4];
        for (int run = 0; run < allocated.length; run++) {
            long before = SeededFuzz.allocatedBytes();
            try (Scratch s = scalar.scratch()) {
                Ciphertext out = spe.evaluate(ct, p, 0x1p48, s).output();
                assertEquals((out.degree() + 1) * (out.level() + 1), s.heldLimbs(), "the output's limbs, no more");
                assertTrue(s.holds(out));
                for (int i = 0; i <= out.degree(); i++)
                    for (int j = 0; j <= out.level(); j++)
                        assertArrayEquals(
                                plain.poly(i, RawAccess.get()).limb(j),
                                out.poly(i, RawAccess.get()).limb(j),
                                "poly " + i + ", limb " + j);
            }
            allocated[run] = SeededFuzz.allocatedBytes() - before;
            pooled[run] = scalar.pooledBytes();
        }
        assertTrue(pooled[0] > 0);
        assertEquals(pooled[0], pooled[3], "the first run's pool serves the later ones: it does not grow");
        // the first run fills the pool with the intermediates' live set (without a scratch every run allocated at
        // least that much); the output goes back at close, so a warm run borrows every limb it writes and allocates
        // only small objects (the plan, the terms' constants: a few limbs' worth at N = 2^11)
        assertTrue(
                4 * allocated[3] < allocated[0],
                "bytes allocated by the first and later evaluations: " + Arrays.toString(allocated));
    }

    static Stream<Arguments> scratchCases() {
        return Stream.of(
                Arguments.of(30, Basis.CHEBYSHEV, 0.0, 4.0),
                Arguments.of(15, Basis.MONOMIAL, -1.0, 1.0),
                Arguments.of(7, Basis.CHEBYSHEV, -1.0, 1.0));
    }

    /**
     * Two evaluations at once on one evaluator: each result counts its own products, rescales and constant products
     * (the plan's closed forms), not the other's, and both outputs equal the ones made alone.
     */
    @Test
    void concurrentEvaluationsCountOnlyTheirOwnWork() throws Exception {
        SplittableRandom r = new SplittableRandom(5);
        double[] x = new double[f.params.slots()];
        for (int i = 0; i < x.length; i++) x[i] = 2 * r.nextDouble() - 1;
        Ciphertext ct = f.encryptor.encrypt(f.encoder.encode(ComplexVector.ofReal(x), f.params.maxLevel(), 0x1p50));
        double[] c30 = new double[31], c7 = new double[8];
        for (int j = 0; j < c30.length; j++) c30[j] = 1.0 / (1 + j);
        for (int j = 0; j < c7.length; j++) c7[j] = 0.5 / (1 + j);
        List<Polynomial> ps = List.of(Polynomial.chebyshev(-1, 1, c30), Polynomial.monomial(c7));
        List<PolynomialEvaluator.Result> alone = new ArrayList<>();
        for (Polynomial p : ps) alone.add(pe.evaluate(ct, p, 0x1p48));
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 3; round++) {
                List<Future<PolynomialEvaluator.Result>> at = new ArrayList<>();
                for (Polynomial p : ps) at.add(two.submit(() -> pe.evaluate(ct, p, 0x1p48)));
                for (int k = 0; k < ps.size(); k++) {
                    PolynomialEvaluator.Result got = at.get(k).get();
                    PolynomialPlan plan = got.plan();
                    assertEquals(
                            plan.multiplications(),
                            got.counts().get(Op.CT_MUL),
                            ps.get(k).toString());
                    assertEquals(
                            plan.rescales(),
                            got.counts().get(Op.RESCALE),
                            ps.get(k).toString());
                    assertEquals(
                            plan.constantProducts(),
                            got.counts().get(Op.CONST_MUL),
                            ps.get(k).toString());
                    assertEquals(alone.get(k).counts(), got.counts(), "every count as when alone");
                    SchemeFixture.assertSameBits(
                            alone.get(k).output(), got.output(), ps.get(k).toString());
                }
            }
        } finally {
            two.shutdown();
        }
    }

    @Test
    void denseMonomialCountsFollowTheClosedForm() {
        for (int m = 1; m <= 6; m++) {
            int d = (1 << m) - 1;
            double[] c = new double[d + 1];
            Arrays.fill(c, 0.25);
            PolynomialPlan plan = PolynomialEvaluator.plan(Polynomial.monomial(c));
            assertEquals(m, plan.depth());
            // x^2, x^4, …, x^{2^{m−1}}, and one product per giant-step split with a non-constant quotient
            assertEquals((m - 1) + ((1 << (m - 1)) - 1), plan.multiplications(), "degree " + d);
        }
    }

    @Test
    void tooFewLevelsIsATypedError() {
        Ciphertext ct = ev.atLevel(f.encrypt(ComplexVector.ofReal(new double[f.params.slots()])), 3);
        double[] c = new double[32];
        c[31] = 1;
        assertThrows(LevelMismatchException.class, () -> pe.evaluate(ct, Polynomial.monomial(c), 0x1p40));
        assertThrows(InvalidParametersException.class, () -> pe.evaluate(ct, Polynomial.monomial(3), 0x1p40));
    }

    @Test
    void constantsThatWouldWrapAreTypedErrors() {
        Ciphertext ct = ev.atLevel(f.encrypt(ComplexVector.ofReal(new double[f.params.slots()])), 1);
        // level 1: 110 bits of modulus; 2^100 · 2^40 does not fit
        assertThrows(EncodingOverflowException.class, () -> ev.addConstant(ct, 0x1p100, 0));
        assertThrows(EncodingOverflowException.class, () -> ev.mulConstant(ct, 0x1p80, 0x1p40));
        assertThrows(InvalidParametersException.class, () -> Chebyshev.interpolate(x -> Double.NaN, -1, 1, 1));
        assertThrows(InvalidParametersException.class, () -> Chebyshev.interpolate(Math::sin, 1, 1, 3));
    }

    @Test
    void chebyshevInterpolation() {
        Polynomial p = Chebyshev.interpolate(Math::cos, -Math.PI, Math.PI, 24);
        for (double x = -Math.PI; x <= Math.PI; x += 0.01) assertEquals(Math.cos(x), p.evaluate(x), 1e-13);
        double[] nodes = new double[31];
        for (int i = 0; i < nodes.length; i++) nodes[i] = (i - 15) / 16.0;
        Polynomial q = Chebyshev.interpolateAt(t -> Math.sin(7 * t), -1, 1, nodes);
        assertEquals(30, q.degree());
        for (double t : nodes) assertEquals(Math.sin(7 * t), q.evaluate(t), 1e-12);
        assertThrows(
                InvalidParametersException.class,
                () -> Chebyshev.interpolateAt(Math::sin, -1, 1, new double[] {0.5, 0.5}));
    }
}
