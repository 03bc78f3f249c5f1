package io.hoist.cli.run;

import io.hoist.lt.planning.Tradeoffs;
import java.util.List;
import java.util.Map;

/** What the command computes; rendered as a table, CSV, JSON and plots. */
/** The result of a tradeoff study: its points, the fewest keys per algorithm, the files written, the measured points. */
public record TradeoffResult(
        List<Tradeoffs.Point> points,
        Map<String, Integer> minKeys,
        long budgetBytes,
        String storage,
        List<String> files,
        TradeoffMeasure.Result measured) {}
