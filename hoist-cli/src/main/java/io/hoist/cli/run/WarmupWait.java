package io.hoist.cli.run;

import io.hoist.ckks.CkksContext;
import java.util.concurrent.CancellationException;

/**
 * Keygen after the kernel warm-up: on few processors, keygen beside the warm-up ran on the scalar twins and shared
 * the processors with it and C2, and took longer than waiting did (docs/throughput.md, "Keygen after the warm-up"
 * and "Bootstrapping's keygen").
 */
final class WarmupWait {
    private WarmupWait() {}

    /** Waits for the warm-up started in this JVM to end; returns how long it waited (ms, 0 when none runs). */
    static double millis(CkksContext ctx) {
        long t0 = System.nanoTime();
        try {
            ctx.awaitKernelWarmup();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for the kernel warm-up");
        }
        return (System.nanoTime() - t0) / 1e6;
    }
}
