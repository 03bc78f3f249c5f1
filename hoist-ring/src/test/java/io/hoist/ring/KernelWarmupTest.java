package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The JIT warm-up drives every kernel and branch it lists on both kernel sets without failing (its results are discarded). */
class KernelWarmupTest {
    @Test
    void warmupRunsOnScalarAndVectorKernels() {
        assertDoesNotThrow(() -> KernelWarmup.run(new ScalarLimbKernels(), new ScalarNttBackend(), 16));
        assertDoesNotThrow(() -> KernelWarmup.run(LimbKernels.best(), NttBackends.defaultBackend(), 16));
    }

    @Test
    void autoWarmsUpFromFourProcessorsAndTheSettingOverrides() {
        assertFalse(KernelWarmup.enabled("auto", 2));
        assertTrue(KernelWarmup.enabled("auto", 4));
        assertTrue(KernelWarmup.enabled(" TRUE ", 1));
        assertFalse(KernelWarmup.enabled("false", 64));
        assertTrue(KernelWarmup.enabled("", 8));
        assertFalse(KernelWarmup.enabled("AUTO", 3));
        assertTrue(KernelWarmup.enabled("on", 1));
        assertFalse(KernelWarmup.enabled("off", 64));
    }
}
