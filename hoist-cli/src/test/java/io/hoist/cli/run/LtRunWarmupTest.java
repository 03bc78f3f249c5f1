package io.hoist.cli.run;

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
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The demo's wait for the kernel warm-up before keygen: taken only when asked, and reported. */
class LtRunWarmupTest {
    private static final CkksParameters PARAMS = CkksParameters.builder()
            .logN(10)
            .logSlots(9)
            .logQ(50, 40, 40)
            .logP(60, 60)
            .scale(0x1p40)
            .allowInsecure()
            .build();

    private static String json(boolean await) {
        SplittableRandom r = new SplittableRandom(3);
        LinearTransform t = LtRun.randomTransform(r, 32, 0);
        LtRun run = new LtRun(PARAMS, Plan.of(t, Algorithm.TH_BSGS, 2, 4, 4), Storage.PRECOMPUTED, Schedule.direct());
        run.quiet = true;
        run.awaitWarmup = await;
        run.run(CkksContext.create(PARAMS), t, r, false);
        assertTrue(run.countsMatch(), "counts match the closed forms");
        return LtReport.toJson(run, t).toString();
    }

    @Test
    void theWaitIsReportedOnlyWhenTaken() {
        Matcher m = Pattern.compile("\"warmupWait\":([0-9.Ee+-]+)").matcher(json(true));
        assertTrue(m.find(), "millis.warmupWait is reported when keygen waits");
        assertTrue(Double.parseDouble(m.group(1)) >= 0, "a wait is not negative: " + m.group(1));
        assertFalse(json(false).contains("warmupWait"), "no wait, no warmupWait");
    }
}
