package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The basis conversions built ahead for a level ({@link CkksContext#prepareKeySwitching}) are the ones
 * its key switches then use: a rotation at that level builds none, on one and on two special primes.
 */
class PrepareKeySwitchingTest {
    @ParameterizedTest(name = "{0} special primes")
    @ValueSource(ints = {1, 2})
    void aRotationAtAPreparedLevelBuildsNoConversion(int alpha) {
        int[] logP = alpha == 1 ? new int[] {61} : new int[] {61, 61};
        SchemeFixture f = new SchemeFixture(10, new int[] {50, 40, 40, 40, 40}, logP, 11);
        Evaluator ev = f.evaluator(f.keys.rotationKeys(new int[] {3}, false));
        ComplexVector x = ComplexVector.random(new SplittableRandom(5), f.params.slots());
        for (int level = f.params.maxLevel(); level >= 1; level--) {
            Ciphertext ct = ev.dropLevel(f.encrypt(x), f.params.maxLevel() - level);
            int before = f.ctx.conversionsBuilt();
            f.ctx.prepareKeySwitching(level);
            assertEquals(
                    before + f.params.beta(level) + 2,
                    f.ctx.conversionsBuilt(),
                    "level " + level + ": a conversion per digit, ModDown's and ModDown's with the rescale");
            ev.rotate(ct, 3);
            assertEquals(before + f.params.beta(level) + 2, f.ctx.conversionsBuilt(), "level " + level);
        }
        assertThrows(IllegalArgumentException.class, () -> f.ctx.prepareKeySwitching(f.params.maxLevel() + 1));
        assertThrows(IllegalArgumentException.class, () -> f.ctx.prepareKeySwitching(-1));
        // the warm-up of the key switches' digit counts names a level outside the chain by a typed error
        int top = f.params.maxLevel();
        assertThrows(LevelMismatchException.class, () -> f.ctx.startKernelWarmup(new int[] {0, top + 1}));
        assertThrows(LevelMismatchException.class, () -> f.ctx.startKernelWarmup(new int[] {-1}));
        assertThrows(IllegalArgumentException.class, () -> f.ctx.startKernelWarmup(new int[0]));
    }
}
