package io.hoist.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.cli.report.LtReport;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The waits of keygen and the first evaluation for the kernel warm-up (lt's, the demo's, bootstrap's, ctos's). */
class LtRunWarmupTest {
    static final CkksParameters PARAMS = CkksParameters.builder()
            .logN(10)
            .logSlots(9)
            .logQ(50, 40, 40)
            .logP(60, 60)
            .scale(0x1p40)
            .allowInsecure()
            .build();

    private static String json() {
        SplittableRandom r = new SplittableRandom(3);
        LinearTransform t = LtRun.randomTransform(r, 32, 0);
        LtRun run = new LtRun(PARAMS, Plan.of(t, Algorithm.TH_BSGS, 2, 4, 4), Storage.PRECOMPUTED, Schedule.direct());
        run.quiet = true;
        run.run(CkksContext.create(PARAMS), t, r, false);
        assertTrue(run.countsMatch(), "counts match the closed forms");
        return LtReport.toJson(run, t).toString();
    }

    @Test
    void bothWaitsAreReported() {
        String json = json();
        for (String k : new String[] {"warmupWait", "evaluateWait"}) {
            Matcher m = Pattern.compile("\"" + k + "\":([0-9.Ee+-]+)").matcher(json);
            assertTrue(m.find(), "millis." + k + " is reported");
            assertEquals(
                    0, Double.parseDouble(m.group(1)), "no warm-up runs in the tests (hoist.warmup=false): no wait");
        }
    }

    /** The text reports name each wait only when it happened. */
    @Test
    void waitLinesOnlyForWaitsTaken() {
        assertEquals(List.of(), RunMillis.waitLines(0, 0, "bootstrap"));
        assertEquals(
                List.of("  keygen started 1700 ms later, when the kernel warm-up had ended"),
                RunMillis.waitLines(1700.2, 0, "evaluation"));
        assertEquals(
                List.of("  the first CoeffsToSlots started 12 ms later, when the kernel warm-up had ended"),
                RunMillis.waitLines(0, 12.4, "CoeffsToSlots"));
    }

    /** Without a warm-up running, WarmupWait returns at once and says it waited 0 ms; bootstrap and ctos share it. */
    @Test
    void noWarmupMeansNoWait() throws InterruptedException {
        CkksContext ctx = CkksContext.create(PARAMS);
        assertFalse(ctx.awaitKernelWarmup(), "the tests run without the warm-up (hoist.warmup=false)");
        assertEquals(0, WarmupWait.millis(ctx));
        assertEquals(0, WarmupWait.onFewProcessors(ctx));
        assertEquals(0, WarmupWait.beforeTiming(ctx));
    }
}
