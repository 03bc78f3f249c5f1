package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.random.Prng;
import org.junit.jupiter.api.Test;

class SamplerTest {
    @Test
    void sparseTernaryHasExactlyTheRequestedWeight() {
        for (int h : new int[] {1, 64, 1024}) {
            long[] s = Sampler.ternary(Prng.fresh(), 1024, SecretDistribution.sparseTernary(h));
            int weight = 0;
            for (long c : s) {
                assertTrue(c >= -1 && c <= 1);
                if (c != 0) weight++;
            }
            assertEquals(h, weight);
        }
    }
}
