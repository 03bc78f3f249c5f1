package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.ring.Op;
import io.hoist.ring.RnsPoly;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Evaluator#linearCombination} against what it replaces in the polynomial evaluator's leaf sums: each term
 * read at the level ({@link Evaluator#atLevel}), multiplied by its constant ({@link Evaluator#mulConstant}) and
 * added ({@link Evaluator#add}) — the same residues bit for bit, the same scale and the same counts.
 */
class LinearCombinationTest {
    private static SchemeFixture f;
    private static Evaluator ev;

    @BeforeAll
    static void setUp() {
        f = new SchemeFixture(10, new int[] {60, 45, 45, 45, 45}, new int[] {60}, 3);
        ev = f.evaluator(null);
    }

    /** Seeded cases: terms at random levels at or above the combination's, some of degree 2, coefficients of any sign. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void equalsTheTermByTermSumBitForBit(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int level = 1 + r.nextInt(f.params.maxLevel()); // at level 0, Δ·q_0 would not fit the modulus
        double target = f.params.defaultScale() * f.params.q(level);
        int m = 1 + r.nextInt(6);
        List<Ciphertext> terms = new ArrayList<>();
        double[] c = new double[m], cs = new double[m];
        for (int t = 0; t < m; t++) {
            Ciphertext x = f.encryptRandom(r);
            if (r.nextInt(3) == 0) x = ev.mul(x, x); // degree 2
            int at = level + r.nextInt(f.params.maxLevel() - level + 1);
            x = ev.atLevel(x, at);
            terms.add(x);
            c[t] = (r.nextDouble() * 2 - 1) * (1 + r.nextInt(1000));
            cs[t] = target / x.scale();
        }
        Map<Op, Long> before = f.ctx.counters().snapshot();
        Ciphertext fused = ev.linearCombination(terms, c, cs, level, target);
        Map<Op, Long> fusedCounts = f.ctx.counters().since(before);

        before = f.ctx.counters().snapshot();
        Ciphertext sum = null;
        for (int t = 0; t < m; t++) {
            Ciphertext term = ev.mulConstant(ev.atLevel(terms.get(t), level), c[t], cs[t]);
            term = term.withScale(target);
            sum = sum == null ? term : ev.add(sum, term);
        }
        Map<Op, Long> stepCounts = f.ctx.counters().since(before);

        assertEquals(sum.level(), fused.level());
        assertEquals(sum.degree(), fused.degree());
        assertEquals(target, fused.scale());
        for (int i = 0; i <= sum.degree(); i++) {
            RnsPoly want = sum.poly(i, RawAccess.get()), got = fused.poly(i, RawAccess.get());
            for (int j = 0; j <= level; j++) assertArrayEquals(want.limb(j), got.limb(j), "poly " + i + ", limb " + j);
        }
        assertEquals(stepCounts.get(Op.CONST_MUL), fusedCounts.get(Op.CONST_MUL));
        assertEquals(stepCounts.get(Op.MOD_MULS), fusedCounts.get(Op.MOD_MULS));
    }

    @Test
    void refusesWhatItCannotComputeByName() {
        Ciphertext x = f.encrypt(ComplexVector.random(new SplittableRandom(9), f.params.slots()));
        int level = x.level();
        double s = x.scale();
        List<Ciphertext> one = List.of(x);
        assertThrows(
                IllegalArgumentException.class,
                () -> ev.linearCombination(List.of(), new double[0], new double[0], 1, s));
        assertThrows(
                IllegalArgumentException.class,
                () -> ev.linearCombination(one, new double[] {1, 2}, new double[] {1}, level, s));
        assertThrows(
                LevelMismatchException.class,
                () -> ev.linearCombination(one, new double[] {1}, new double[] {1}, level + 1, s));
        assertThrows(
                InvalidScaleException.class,
                () -> ev.linearCombination(one, new double[] {1}, new double[] {2}, level, s));
        assertThrows(
                InvalidScaleException.class,
                () -> ev.linearCombination(one, new double[] {1}, new double[] {0}, level, 0));
        assertThrows(
                EncodingOverflowException.class,
                () -> ev.linearCombination(one, new double[] {Double.NaN}, new double[] {1}, level, s));
    }
}
