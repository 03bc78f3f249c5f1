package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import org.junit.jupiter.api.Test;

/** The JIT warm-up drives every kernel and branch it lists on both kernel sets without failing (its results are discarded). */
class KernelWarmupTest {
    @Test
    void warmupRunsOnScalarAndVectorKernels() {
        assertDoesNotThrow(() -> KernelWarmup.run(new ScalarLimbKernels(), new ScalarNttBackend(), 16));
        assertDoesNotThrow(() -> KernelWarmup.run(LimbKernels.best(), NttBackends.defaultBackend(), 16));
    }
}
