package io.hoist.cli.run;

import io.hoist.ckks.CkksContext;
import java.util.concurrent.CancellationException;

/**
 * Keygen after the kernel warm-up: on 2 processors, keygen beside the warm-up ran on the scalar twins and shared the
 * processors with it and C2's threads, and took longer than waiting did (docs/throughput.md, "Keygen after the
 * warm-up" and "Bootstrapping's keygen"). And no evaluation timed beside it: a small transform's "warm" evaluation
 * took 5× its time there (docs/throughput.md, "No evaluation timed beside the warm-up").
 */
public final class WarmupWait {
    /**
     * Processors up to which {@link #onFewProcessors} waits: the warm-up and C2's threads fill 2 or 3 (the launcher's
     * CICompilerCount bound); beyond, keygen beside them keeps processors of its own. Measured on 2 only.
     */
    static final int MAX_PROCESSORS = 3;

    private WarmupWait() {}

    /** Waits for the warm-up started in this JVM to end; returns how long it waited (ms; 0 when none was running). */
    static double millis(CkksContext ctx) {
        long t0 = System.nanoTime();
        boolean waited;
        try {
            waited = ctx.awaitKernelWarmup();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for the kernel warm-up");
        }
        return waited ? (System.nanoTime() - t0) / 1e6 : 0;
    }

    /**
     * Before the first timed evaluation, on any number of processors: while the warm-up runs, the other threads call
     * the scalar twins and share the processors with it, so what was timed would be neither first nor warm.
     */
    public static double beforeTiming(CkksContext ctx) {
        return millis(ctx);
    }

    /** {@link #millis} on at most {@link #MAX_PROCESSORS} processors; 0 without waiting on more. */
    public static double onFewProcessors(CkksContext ctx) {
        return Runtime.getRuntime().availableProcessors() <= MAX_PROCESSORS ? millis(ctx) : 0;
    }
}
