package io.hoist.cli.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * With a real kernel warm-up (forced on here; the other tests run without one): no evaluation of an lt run is timed
 * beside it, on any number of processors, and on 2–3 keygen waits for it too. The warm-up runs once per JVM, so this
 * is the only test that starts one.
 */
class LtRunAfterWarmupTest {
    @Test
    void theWarmupHasEndedBeforeTheFirstEvaluation() throws InterruptedException {
        CkksParameters params = LtRunWarmupTest.PARAMS;
        String before = System.getProperty("hoist.warmup");
        System.setProperty("hoist.warmup", "true");
        CkksContext ctx = CkksContext.create(params);
        try {
            SplittableRandom r = new SplittableRandom(5);
            LinearTransform t = LtRun.randomTransform(r, 32, 0);
            LtRun run =
                    new LtRun(params, Plan.of(t, Algorithm.TH_BSGS, 2, 4, 4), Storage.PRECOMPUTED, Schedule.direct());
            run.quiet = true;
            run.run(ctx, t, r, false);
            assertTrue(run.countsMatch(), "counts match the closed forms");
            assertFalse(ctx.awaitKernelWarmup(), "the warm-up had ended when the run ended");
            if (Runtime.getRuntime().availableProcessors() <= WarmupWait.MAX_PROCESSORS)
                assertTrue(
                        run.millis.keygenWait > 0, "on 2–3 processors keygen waits for the warm-up started beside it");
        } finally {
            ctx.awaitKernelWarmup(); // the gates open again for the tests that follow in this JVM, however this ends
            if (before == null) System.clearProperty("hoist.warmup");
            else System.setProperty("hoist.warmup", before);
        }
    }
}
