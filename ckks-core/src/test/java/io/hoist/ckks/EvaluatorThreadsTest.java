package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ring.Ring;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The element-wise steps of a product and of the polynomial evaluator's chains (the tensor product, linear
 * combinations, integer and constant additions in place) spread their limbs over the engine's threads at N = 2^14
 * ({@link Ring#PARALLEL_WORDS}): on two threads every result equals one thread's, bit for bit, with the same scale.
 */
class EvaluatorThreadsTest {
    private static SchemeFixture f;
    private static Evaluator one, two;

    @BeforeAll
    static void setUp() {
        f = new SchemeFixture(14, new int[] {60, 45, 45, 45, 45}, new int[] {61}, 14);
        one = new Evaluator(CkksContext.create(f.params, null, 1), f.rlk, null);
        two = new Evaluator(CkksContext.create(f.params, null, 2), f.rlk, null);
        assertTrue(4L * f.params.n() >= Ring.PARALLEL_WORDS, "four limbs run in parallel");
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void chainsOnTwoThreadsEqualOneThread(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int top = f.params.maxLevel();
        Ciphertext a = f.encryptRandom(r);
        Ciphertext b = f.encryptRandom(r);
        Ciphertext c = one.atLevel(f.encryptRandom(r), top - 1);
        long k = r.nextLong(-1000, 1000);
        double re = r.nextDouble() * 2 - 1, im = r.nextDouble() * 2 - 1, w = (r.nextDouble() * 2 - 1) * 100;
        Ciphertext[][] got = new Ciphertext[2][];
        for (int t = 0; t < 2; t++) {
            Evaluator ev = t == 0 ? one : two;
            Ciphertext tensor = ev.mul(a, b);
            double target = a.scale() * b.scale();
            Ciphertext comb = ev.linearCombinationMutable(
                            List.of(tensor, a, b),
                            new double[] {1, w, -w},
                            new double[] {1, b.scale(), a.scale()},
                            top,
                            target)
                    .mulInteger(k)
                    .addConstant(re, im)
                    .rescale()
                    .freeze();
            Ciphertext product = ev.rescale(ev.mulRelin(a, b));
            Ciphertext chain = ev.mutableCopy(product)
                    .mulInteger(k)
                    .addConstant(re, im)
                    .addScaled(c, w, product.scale() / c.scale())
                    .add(ev.rescale(ev.mulRelin(b, a)))
                    .freeze();
            got[t] = new Ciphertext[] {tensor, comb, product, chain};
        }
        String[] what = {"the tensor product", "the linear combination's chain", "mulRelin", "the in-place chain"};
        for (int i = 0; i < what.length; i++) {
            assertEquals(got[0][i], got[1][i], what[i]);
            assertEquals(got[0][i].scale(), got[1][i].scale(), what[i]);
        }
        assertEquals(2, got[0][0].degree());
        assertEquals(top - 1, got[0][3].level());
    }

    /**
     * Key switching with α = 2 over primes of 40 bits (FMA forms) and 55–61 bits (integer forms) side by side:
     * Decompose prepares its digits on both threads, converts one range of limbs per thread and transforms limb
     * by limb in turn, so a limb's thread depends on timing; mulRelin, a rotation and hoisted rotations still
     * equal one thread's bit for bit.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {4, 5})
    void keySwitchingOverMixedPrimesOnTwoThreadsEqualsOneThread(long seed) {
        SchemeFixture m = new SchemeFixture(14, new int[] {60, 40, 40, 55, 55, 40}, new int[] {61, 61}, seed);
        RotationKeySet rot = m.keys.rotationKeys(new int[] {1, 5}, false);
        Evaluator e1 = new Evaluator(CkksContext.create(m.params, null, 1), m.rlk, rot);
        Evaluator e2 = new Evaluator(CkksContext.create(m.params, null, 2), m.rlk, rot);
        SplittableRandom r = new SplittableRandom(seed);
        Ciphertext a = m.encrypt(ComplexVector.random(r, m.params.slots()));
        Ciphertext b = m.encrypt(ComplexVector.random(r, m.params.slots()));
        Ciphertext[][] got = new Ciphertext[2][];
        for (int t = 0; t < 2; t++) {
            Evaluator ev = t == 0 ? e1 : e2;
            var hoisted = ev.rotateHoisted(a, 1, 5);
            got[t] = new Ciphertext[] {ev.mulRelin(a, b), ev.rotate(b, 5), hoisted.get(1), hoisted.get(5)};
        }
        String[] what = {"mulRelin", "rotate", "hoisted by 1", "hoisted by 5"};
        for (int i = 0; i < what.length; i++) assertEquals(got[0][i], got[1][i], what[i]);
        assertEquals(2, m.params.alpha());
    }
}
