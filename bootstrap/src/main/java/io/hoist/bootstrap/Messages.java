package io.hoist.bootstrap;

import io.hoist.ckks.ComplexVector;
import java.util.SplittableRandom;

/** The input distribution bootstrapping is measured on (Lattigo's): seeded, for tests and reports. */
public final class Messages {
    private Messages() {}

    /**
     * Uniform [−1, 1] + i[−1, 1] in each of the 2^logSlots message slots; with sparse packing the n
     * values repeat over the ciphertext's 2n slots (a message of period n is what such a ciphertext holds).
     */
    public static ComplexVector uniform(BootstrapParameters bp, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 1 << bp.logSlots(), slots = bp.ckks().slots();
        double[] re = new double[slots], im = new double[slots];
        for (int i = 0; i < n; i++) {
            re[i] = 2 * r.nextDouble() - 1;
            im[i] = 2 * r.nextDouble() - 1;
        }
        for (int i = n; i < slots; i++) {
            re[i] = re[i % n];
            im[i] = im[i % n];
        }
        return new ComplexVector(re, im);
    }
}
