package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ring.Domain;
import io.hoist.ring.LimbPool;
import io.hoist.ring.OpCounters;
import io.hoist.ring.RnsPoly;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The exact parts of rescale and mulRelin against slow obvious references: rescale is ⌊(X + ⌊q_ℓ/2⌋)
 * / q_ℓ⌋ of the CRT-reconstructed coefficient X, for every coefficient and every remaining prime;
 * mulRelin is relinearize(mul(a, b)) bit for bit (it writes into its result in place).
 */
class RescaleAndMulRelinExactTest {
    /** A 61-bit prime last (the largest the vector kernels take) and 30-bit ones below it. */
    static final SchemeFixture F = new SchemeFixture(11, new int[] {50, 30, 40, 61}, new int[] {61}, 20261202L);

    @ParameterizedTest
    @ValueSource(ints = {3, 2, 1})
    void rescaleIsTheRoundedDivisionByTheLastPrime(int level) {
        SplittableRandom r = new SplittableRandom(level);
        Evaluator ev = F.evaluator(null);
        Ciphertext c = ev.atLevel(F.encrypt(ComplexVector.random(r, F.params.slots())), level);
        Ciphertext out = ev.rescale(c);
        assertEquals(level - 1, out.level());
        for (int i = 0; i < 2; i++) {
            RnsPoly in = coefficients(c.poly(i)), got = coefficients(out.poly(i));
            BigInteger ql = BigInteger.valueOf(F.params.q(level)), half = ql.shiftRight(1);
            for (int k = 0; k < F.params.n(); k++) {
                BigInteger want = in.coefficient(k).add(half).divide(ql);
                for (int j = 0; j < level; j++) {
                    long qj = F.params.q(j);
                    assertEquals(
                            want.mod(BigInteger.valueOf(qj)).longValue(),
                            got.limb(j)[k],
                            "poly " + i + ", coefficient " + k + ", limb " + j + " at level " + level);
                }
            }
        }
    }

    /** The limbs spread over threads give the same rescale; an output of the wrong size is named. */
    @Test
    void rescaleOnThreadsIsTheSameAndChecksItsOutput() {
        Evaluator ev = F.evaluator(null);
        Ciphertext c = F.encrypt(ComplexVector.random(new SplittableRandom(9), F.params.slots()));
        RnsPoly x = c.poly(0);
        RnsPoly one = new KeySwitcher(CkksContext.create(F.params, null, 1)).rescale(x);
        RnsPoly three = new KeySwitcher(CkksContext.create(F.params, null, 3)).rescale(x);
        assertEquals(one, three);
        assertEquals(one, ev.rescale(c).poly(0));
        RnsPoly wrong = F.ctx.ringQ().newPoly(x.level(), Domain.NTT);
        LevelMismatchException e = assertThrows(
                LevelMismatchException.class,
                () -> ev.keySwitcher().rescale(x, wrong, new LimbPool(F.params.n()), F.ctx.counters()));
        assertTrue(e.getMessage().contains("out has"), e.getMessage());
        // the parts of one call: at one level, as many outputs, at least one
        KeySwitcher ks = ev.keySwitcher();
        LimbPool pool = new LimbPool(F.params.n());
        RnsPoly lower = ev.atLevel(c, x.level() - 1).poly(1);
        RnsPoly[] outs = {
            F.ctx.ringQ().newPoly(x.level() - 1, Domain.NTT), F.ctx.ringQ().newPoly(x.level() - 1, Domain.NTT)
        };
        e = assertThrows(
                LevelMismatchException.class, () -> ks.rescale(new RnsPoly[] {x, lower}, outs, pool, F.ctx.counters()));
        assertTrue(e.getMessage().contains("levels"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ks.rescale(new RnsPoly[] {x}, outs, pool, F.ctx.counters()));
        assertThrows(
                IllegalArgumentException.class,
                () -> ks.rescale(new RnsPoly[0], new RnsPoly[0], pool, F.ctx.counters()));
    }

    /** Both parts in one call on three threads (N = 2^12 spreads limbs and transforms) equal each part alone. */
    @Test
    void rescaleOfBothPartsOnThreadsIsEachPartAlone() {
        SchemeFixture g = new SchemeFixture(12, new int[] {50, 30, 40, 61}, new int[] {61}, 20261206L);
        Ciphertext c = g.encrypt(ComplexVector.random(new SplittableRandom(11), g.params.slots()));
        RnsPoly[] xs = {c.poly(0), c.poly(1)};
        int level = c.level();
        RnsPoly[] outs = {
            g.ctx.ringQ().newPoly(level - 1, Domain.NTT), g.ctx.ringQ().newPoly(level - 1, Domain.NTT)
        };
        KeySwitcher one = new KeySwitcher(CkksContext.create(g.params, null, 1));
        KeySwitcher three = new KeySwitcher(CkksContext.create(g.params, null, 3));
        three.rescale(xs, outs, new LimbPool(g.params.n()), new OpCounters());
        assertEquals(one.rescale(xs[0]), outs[0]);
        assertEquals(one.rescale(xs[1]), outs[1]);
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 2})
    void mulRelinIsRelinearizeOfMul(int level) {
        SplittableRandom r = new SplittableRandom(40 + level);
        Evaluator ev = F.evaluator(null);
        Ciphertext a = ev.atLevel(F.encrypt(ComplexVector.random(r, F.params.slots())), level);
        Ciphertext b = ev.atLevel(F.encrypt(ComplexVector.random(r, F.params.slots())), level);
        Ciphertext fused = ev.mulRelin(a, b);
        assertEquals(ev.relinearize(ev.mul(a, b)), fused);
        assertEquals(fused, ev.mulRelin(a, b), "a second product on the warm pool");
        assertEquals(fused, ev.mulRelin(b, a), "commuted");
    }

    @Test
    void aPermutedKeySwitchCannotAddInPlace() {
        Evaluator ev = F.evaluator(F.keys.rotationKeys(new int[] {1}, false));
        Ciphertext c = F.encrypt(ComplexVector.random(new SplittableRandom(5), F.params.slots()));
        RnsPoly c0 = c.poly(0), c1 = c.poly(1);
        long g = F.params.galoisElementForRotation(1);
        var digits = ev.decompose(c);
        var key = ev.rotationKeys().get(g, "rotation by 1").key();
        assertThrows(
                IllegalArgumentException.class,
                () -> ev.keySwitcher().keySwitch(digits, key, g, c0, null, c0, c1, null, F.ctx.counters()));
        // the permuted inner product needs its scratch limbs; without a permutation it takes none
        int level = c.level(), limbs = level + 1 + F.params.alpha();
        PolyQP a = PolyQP.zero(F.ctx, level, Domain.NTT), b = PolyQP.zero(F.ctx, level, Domain.NTT);
        assertThrows(
                IllegalArgumentException.class,
                () -> ev.keySwitcher()
                        .switchAndPermute(digits, key, g, null, a, b, false, 0, limbs, null, null, F.ctx.counters()));
        ev.keySwitcher().switchAndPermute(digits, key, 1, null, a, b, false, 0, limbs, null, null, F.ctx.counters());
        PolyQP[] t = ev.keySwitcher().innerProduct(digits, key);
        assertEquals(t[0].q(), a.q());
        assertEquals(t[1].p(), b.p());
    }

    private static RnsPoly coefficients(RnsPoly p) {
        RnsPoly c = p.copy();
        F.ctx.ringQ().intt(c);
        assertEquals(Domain.COEFFICIENT, c.domain());
        return c;
    }
}
