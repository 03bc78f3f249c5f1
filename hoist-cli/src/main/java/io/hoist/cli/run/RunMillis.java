package io.hoist.cli.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The times (ms) of an lt or block run, filled in as it goes; the reports render them. */
public final class RunMillis {
    /**
     * How long keygen (on 2–3 processors) and the first evaluation (on any number) waited for the kernel warm-up to
     * end; 0 when they did not ({@link WarmupWait}).
     */
    public double keygenWait, evaluateWait;

    public double keygen, encode;
    /** The first evaluation, which pays for the JIT's last work, reported apart. */
    public double firstEvaluate;
    /** The median of the timed evaluations, and each of them. */
    public double evaluate;

    public double[] evaluateRuns;

    /**
     * The report lines for keygen's and the first {@code what}'s wait for the kernel warm-up, each only when it
     * waited (the lt, block, ctos and bootstrap reports share them).
     */
    public static List<String> waitLines(double keygenWait, double firstWait, String what) {
        List<String> lines = new ArrayList<>(2);
        if (keygenWait > 0)
            lines.add(String.format(
                    Locale.ROOT, "  keygen started %.0f ms later, when the kernel warm-up had ended", keygenWait));
        if (firstWait > 0)
            lines.add(String.format(
                    Locale.ROOT,
                    "  the first %s started %.0f ms later, when the kernel warm-up had ended",
                    what,
                    firstWait));
        return lines;
    }

    /** The report's millis object. */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("warmupWait", keygenWait);
        m.put("evaluateWait", evaluateWait);
        m.put("keygen", keygen);
        m.put("encode", encode);
        m.put("evaluate", evaluate);
        m.put("firstEvaluate", firstEvaluate);
        m.put("evaluateRuns", evaluateRuns);
        return m;
    }
}
