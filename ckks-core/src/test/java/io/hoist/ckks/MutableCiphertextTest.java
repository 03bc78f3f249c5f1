package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.ring.Domain;
import io.hoist.ring.Op;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link MutableCiphertext} against the immutable operations it replaces in the polynomial evaluator and EvalMod:
 * each chain of in-place steps gives the residues, scale and counts of the same chain of {@link Evaluator} calls, bit
 * for bit. The real constant added without a transform is checked against the constant polynomial transformed.
 */
class MutableCiphertextTest {
    private static SchemeFixture f;
    private static Evaluator ev;

    @BeforeAll
    static void setUp() {
        f = new SchemeFixture(10, new int[] {60, 45, 45, 45, 45}, new int[] {60}, 5);
        ev = f.evaluator(null);
    }

    /**
     * The polynomial evaluator's Chebyshev step, 2·T_a·T_b − T_{a−b} (or − 1) rescaled, and EvalMod's double angle, 2y²
     * − c rescaled, at random levels with random constants, the subtracted power at or above the product's level.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void chainsInPlaceEqualTheImmutableChains(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int level = 1 + r.nextInt(f.params.maxLevel());
        Ciphertext a = ev.atLevel(f.encryptRandom(r), level), b = ev.atLevel(f.encryptRandom(r), level);
        Ciphertext tc = ev.atLevel(f.encryptRandom(r), level + r.nextInt(f.params.maxLevel() - level + 1));
        long factor = 1 + r.nextInt(3);
        double constant = (r.nextDouble() * 2 - 1) * (1 + r.nextInt(100));
        boolean subtractPower = r.nextBoolean();

        List<Ciphertext> inputs = List.of(a, b, tc), copies = List.of(a.copy(), b.copy(), tc.copy());
        Map<Op, Long> before = f.ctx.counters().snapshot();
        Ciphertext prod = ev.mulInteger(ev.relinearize(ev.mul(a, b)), factor);
        if (subtractPower) {
            Ciphertext atLevel = ev.atLevel(tc, level);
            prod = ev.sub(prod, ev.mulConstant(atLevel, 1.0, prod.scale() / tc.scale()));
        }
        prod = ev.addConstant(prod, constant, 0);
        Ciphertext want = ev.rescale(prod);
        Map<Op, Long> wantCounts = f.ctx.counters().since(before);

        before = f.ctx.counters().snapshot();
        MutableCiphertext m = ev.mulRelinMutable(a, b).mulInteger(factor);
        if (subtractPower) m.addScaled(tc, -1.0, m.scale() / tc.scale());
        Ciphertext got = m.addConstant(constant, 0).rescale().freeze();
        Map<Op, Long> gotCounts = f.ctx.counters().since(before);

        SchemeFixture.assertSameBits(want, got, "seed " + seed);
        // the operands, level views of fresh ciphertexts (sharing their limbs), are left as they were
        for (int i = 0; i < inputs.size(); i++)
            SchemeFixture.assertSameBits(copies.get(i), inputs.get(i), "operand " + i);
        for (Op op : new Op[] {Op.CT_MUL, Op.RELINEARIZE, Op.RESCALE, Op.CONST_MUL, Op.MOD_MULS})
            assertEquals(wantCounts.get(op), gotCounts.get(op), op.toString());
    }

    /** A linear combination, then a complex constant and another ciphertext added, then a rescale. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13, 14})
    void linearCombinationsGoOnInPlace(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int level = 1 + r.nextInt(f.params.maxLevel());
        Ciphertext x = f.encryptRandom(r), y = f.encryptRandom(r);
        double target = f.params.defaultScale() * f.params.q(level);
        double[] c = {r.nextDouble() * 4 - 2, r.nextDouble() * 4 - 2};
        double[] cs = {target / x.scale(), target / y.scale()};
        double re = r.nextDouble() * 2 - 1, im = r.nextBoolean() ? 0 : r.nextDouble() * 2 - 1;
        Ciphertext addend = ev.withScale(ev.atLevel(f.encryptRandom(r), level), target);
        List<Ciphertext> inputs = List.of(x, y, addend), copies = List.of(x.copy(), y.copy(), addend.copy());

        Ciphertext want = ev.rescale(ev.add(
                ev.addConstant(ev.linearCombination(List.of(x, y), c, cs, level, target), re, im), addend));
        Ciphertext got = ev.linearCombinationMutable(List.of(x, y), c, cs, level, target)
                .addConstant(re, im)
                .add(addend)
                .rescale()
                .freeze();
        SchemeFixture.assertSameBits(want, got, "seed " + seed);
        SchemeFixture.assertSameBits(
                ev.mulInteger(x, -3), ev.mutableCopy(x).mulInteger(-3).freeze(), "a copy, multiplied");
        for (int i = 0; i < inputs.size(); i++)
            SchemeFixture.assertSameBits(copies.get(i), inputs.get(i), "input " + i);
        // results that share their unchanged parts with the input leave the input as it was
        Ciphertext before = x.copy();
        ev.addConstant(x, re, im);
        ev.dropLevel(x, 1);
        SchemeFixture.assertSameBits(before, x, "x after addConstant and dropLevel");
    }

    /** The real constant without a transform equals the constant polynomial transformed and added (every level). */
    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4})
    void aRealConstantNeedsNoTransform(int level) {
        SplittableRandom r = new SplittableRandom(100 + level);
        Ciphertext x = ev.atLevel(f.encryptRandom(r), level);
        double re = (r.nextDouble() * 2 - 1) * 1000;
        Ring rq = f.ctx.ringQ();
        RnsPoly c = rq.newPoly(level, Domain.COEFFICIENT);
        c.setCoefficient(0, Evaluator.scaledInteger(re, x.scale()));
        rq.ntt(c);
        RnsPoly c0 = rq.newPoly(level, Domain.NTT);
        rq.add(x.poly(0, RawAccess.get()), c, c0);
        Ciphertext want = Ciphertext.wrap(RawAccess.get(), f.params, x.scale(), c0, x.poly(1, RawAccess.get()));
        SchemeFixture.assertSameBits(want, ev.addConstant(x, re, 0), "level " + level);
        SchemeFixture.assertSameBits(want, ev.mutableCopy(x).addConstant(re, 0).freeze(), "in place, level " + level);
    }

    @Test
    void refusesWhatItCannotComputeByName() {
        SplittableRandom r = new SplittableRandom(21);
        Ciphertext x = f.encryptRandom(r), low = ev.atLevel(f.encryptRandom(r), 1);
        MutableCiphertext m = ev.mutableCopy(low);
        assertThrows(LevelMismatchException.class, () -> m.add(x));
        assertThrows(LevelMismatchException.class, () -> ev.mutableCopy(x).addScaled(low, 1, 1));
        assertThrows(ScaleMismatchException.class, () -> m.add(ev.withScale(low, low.scale() * 2)));
        assertThrows(ScaleMismatchException.class, () -> m.addScaled(x, 1, 2));
        assertThrows(WrongOperandException.class, () -> m.add(ev.mul(low, low)));
        assertThrows(EncodingOverflowException.class, () -> m.addConstant(Double.NaN, 0));
        assertThrows(ScaleMismatchException.class, () -> m.setScale(0));
        assertThrows(
                LevelMismatchException.class,
                () -> ev.mutableCopy(ev.atLevel(x, 0)).rescale());
        Ciphertext frozen = m.freeze();
        assertEquals(low, frozen, "nothing changed by the refused operations");
        assertThrows(IllegalStateException.class, m::freeze);
        assertThrows(IllegalStateException.class, () -> m.mulInteger(2));
        assertThrows(IllegalStateException.class, m::level);
    }
}
