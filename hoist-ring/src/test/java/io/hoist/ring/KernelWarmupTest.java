package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.math.Primes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JIT warm-up drives every kernel and branch it lists on both kernel sets without failing (its results are discarded). */
class KernelWarmupTest {
    @Test
    void warmupRunsOnScalarAndVectorKernels() {
        assertDoesNotThrow(() -> KernelWarmup.run(new ScalarLimbKernels(), new ScalarNttBackend(), 16));
        assertDoesNotThrow(() -> KernelWarmup.run(LimbKernels.best(), NttBackends.defaultBackend(), 16));
    }

    @Test
    void warmsOnePrimeOfEachSizeClassTheModuliHave() {
        long q30 = Primes.nttPrimes(13, 30, 1).get(0);
        List<Long> q40 = Primes.nttPrimes(13, 40, 2), q60 = Primes.nttPrimes(13, 60, 1);
        assertArrayEquals(
                new long[] {q40.get(0), q30, q60.get(0)},
                KernelWarmup.representatives(q40.get(0), q30, q40.get(1), q60.get(0)));
        // 17 is no NTT prime of degree 2^10: a prime of the same class that is stands in for it
        long[] small = KernelWarmup.representatives(17);
        assertEquals(1, small.length);
        assertTrue(small[0] < 1L << 31 && small[0] % 2048 == 1, "stand-in " + small[0]);
        assertEquals(3, KernelWarmup.representatives().length);
        assertDoesNotThrow(() -> KernelWarmup.run(LimbKernels.best(), NttBackends.defaultBackend(), 4, small));
    }

    @Test
    void autoWarmsUpFromTwoProcessorsAndTheSettingOverrides() {
        assertFalse(KernelWarmup.enabled("auto", 1));
        assertTrue(KernelWarmup.enabled("auto", 2));
        assertTrue(KernelWarmup.enabled("auto", 4));
        assertTrue(KernelWarmup.enabled(" TRUE ", 1));
        assertFalse(KernelWarmup.enabled("false", 64));
        assertTrue(KernelWarmup.enabled("", 8));
        assertTrue(KernelWarmup.enabled("AUTO", 3));
        assertTrue(KernelWarmup.enabled("on", 1));
        assertFalse(KernelWarmup.enabled("off", 64));
    }
}
