package io.hoist.lt.schedule;

import io.hoist.ckks.Progress;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.PlanSearch;
import io.hoist.lt.plan.Storage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The schedule compiler (spec §7.2, "searches every feasible setting under the on-chip limit"):
 * for a program and a working-set budget it picks the grouping with the least off-chip traffic;
 * over the splits of a dense n×n matrix it picks the split and grouping with the least traffic or
 * the least modelled latency ({@link LatencyModel}); and it traces the Pareto front budget →
 * traffic. A phase's traffic and working set depend only on its own group sizes, so each phase is
 * optimised on its own: the search is a few hundred closed-form evaluations per split
 * ({@link PhaseModel}) for dense matrices, and dry walks of one phase for sparse ones.
 */
public final class ScheduleCompiler {
    private ScheduleCompiler() {}

    /** What the split search minimises. */
    public enum Goal {
        TRAFFIC,
        LATENCY
    }

    /** A scheduled plan: its grouping, ledger and modelled latency (total and per phase, µs). */
    public record Result(
            Plan plan,
            LimbLayout layout,
            Storage storage,
            Grouping grouping,
            TrafficLedger ledger,
            double latencyMicros,
            List<Double> phaseMicros) {
        public Result {
            phaseMicros = List.copyOf(phaseMicros);
        }

        public long offchipBytes() {
            return ledger.offchipBytes();
        }
    }

    /** One point of the budget → traffic front. */
    public record FrontPoint(long budgetBytes, Result best) {}

    // ---------------------------------------------------------------- one program

    /** The ledger of {@code program} under {@code g}: closed forms for dense plans, the dry walk otherwise. */
    public static TrafficLedger ledger(LtProgram program, Storage storage, Grouping g) {
        Plan plan = program.plan();
        if (plan.indices().size() == plan.dimension())
            return PhaseModel.of(plan, program.layout(), storage).ledger(g);
        return SixPhaseWalk.dry(program, storage, g);
    }

    /** The smallest working set any grouping of {@code program} needs (every group of size 1). */
    public static long minimalBudget(LtProgram program, Storage storage) {
        return ledger(program, storage, Grouping.minimal()).peakResidentBytes();
    }

    /** The least-traffic grouping of {@code program} within {@code budgetBytes}. */
    public static Grouping bestGrouping(LtProgram program, Storage storage, long budgetBytes) {
        long min = minimalBudget(program, storage);
        if (budgetBytes < min) {
            throw new WorkingSetTooSmallException(
                    String.format(
                            Locale.ROOT,
                            "working-set budget of %d bytes is below the smallest feasible one, %d bytes, for %s at level %d",
                            budgetBytes,
                            min,
                            program.plan().describe(),
                            program.layout().level()),
                    budgetBytes,
                    min);
        }
        Plan plan = program.plan();
        boolean dense = plan.indices().size() == plan.dimension();
        PhaseModel model = dense ? PhaseModel.of(plan, program.layout(), storage) : null;
        int d = program.layout().d();
        int inner = plan.innerRotations().size() - (plan.innerRotations().contains(0) ? 1 : 0),
                sources = plan.middleSources().size(),
                middle = plan.middleRotations().size() - 1;
        int outer = plan.outerRotations().size();
        int b1 = Math.max(1, plan.innerRotations().size());
        Grouping g = Grouping.minimal();
        int[][] counts = {{inner}, {sources}, {middle, b1}, {outer}, {Math.max(0, outer - 1)}, {1}};
        for (int p = 1; p <= 6; p++) {
            Grouping best = g;
            long bestT = Long.MAX_VALUE, bestIt = Long.MAX_VALUE;
            for (int l : sizes(d)) {
                for (int m : sizes(counts[p - 1][0])) {
                    for (int m2 : p == 3 ? sizes(counts[2][1]) : new int[] {1}) {
                        Grouping c = g.withPhase(p, l, m, m2);
                        TrafficLedger.PhaseTraffic pt = dense
                                ? phaseOf(model, p, c)
                                : SixPhaseWalk.dry(program, storage, c).phase(p);
                        if (pt.peakResidentBytes() > budgetBytes) continue;
                        if (pt.total() < bestT || (pt.total() == bestT && pt.iterations() < bestIt)) {
                            best = c;
                            bestT = pt.total();
                            bestIt = pt.iterations();
                        }
                    }
                }
            }
            g = best;
        }
        return g;
    }

    private static TrafficLedger.PhaseTraffic phaseOf(PhaseModel m, int p, Grouping g) {
        TrafficLedger.Builder b = new TrafficLedger.Builder();
        m.phase(p, g, b);
        return b.build().phase(p);
    }

    /** 1, 2, 4, … below {@code count}, and {@code count} itself. */
    private static int[] sizes(int count) {
        List<Integer> s = new ArrayList<>();
        for (int v = 1; v < count; v <<= 1) s.add(v);
        s.add(Math.max(1, count));
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Ledger and modelled latency of {@code program} under {@code g}. */
    public static Result evaluate(LtProgram program, Storage storage, Grouping g, LatencyModel model) {
        return result(program, storage, g, ledger(program, storage, g), model, false);
    }

    /** The straightforward execution of {@code program} (the baseline) with its serial latency. */
    public static Result baseline(LtProgram program, Storage storage, LatencyModel model) {
        return result(program, storage, null, StraightforwardTraffic.of(program, storage), model, true);
    }

    /** Per phase: compute and memory overlapped, or (the baseline) one after the other. */
    private static Result result(
            LtProgram program, Storage storage, Grouping g, TrafficLedger led, LatencyModel model, boolean serial) {
        double[] mults = LatencyModel.phaseMults(program, storage);
        List<Double> per = new ArrayList<>(6);
        double total = 0;
        for (int p = 1; p <= 6; p++) {
            long bytes = led.phase(p).total();
            double us = serial ? model.serialMicros(bytes, mults[p]) : model.phaseMicros(bytes, mults[p]);
            per.add(us);
            total += us;
        }
        return new Result(program.plan(), program.layout(), storage, g, led, total, per);
    }

    // ---------------------------------------------------------------- splits of a dense matrix

    /** A compiled split with its smallest feasible budget. */
    private record Candidate(LtProgram program, long minimalBudget) {}

    private static List<Candidate> candidates(int n, Algorithm algorithm, LimbLayout layout, Storage storage) {
        List<Candidate> out = new ArrayList<>();
        for (int[] s : PlanSearch.powerOfTwoSplits(n, algorithm.splitParts())) {
            if (algorithm == Algorithm.TH_BSGS && n >= 8 && Arrays.stream(s).anyMatch(f -> f < 2)) continue;
            LtProgram prog = LtProgram.compile(Plan.dense(n, algorithm, s), layout);
            out.add(new Candidate(prog, minimalBudget(prog, storage)));
        }
        return out;
    }

    private static List<Result> search(
            List<Candidate> cs, Storage storage, long budgetBytes, LatencyModel model, Goal goal) {
        List<Result> out = new ArrayList<>();
        for (Candidate c : cs) {
            if (c.minimalBudget() > budgetBytes) continue;
            out.add(evaluate(c.program(), storage, bestGrouping(c.program(), storage, budgetBytes), model));
        }
        out.sort(
                goal == Goal.TRAFFIC
                        ? Comparator.comparingLong(Result::offchipBytes).thenComparingDouble(Result::latencyMicros)
                        : Comparator.comparingDouble(Result::latencyMicros).thenComparingLong(Result::offchipBytes));
        return out;
    }

    /**
     * Every power-of-two split of {@code algorithm} for a dense n×n matrix, each with its best grouping
     * under {@code budgetBytes}, sorted by {@code goal}; splits that cannot fit the budget are left out.
     * TH-BSGS splits keep every factor ≥ 2 (a factor 1 is DH-BSGS).
     */
    public static List<Result> searchSplits(
            int n,
            Algorithm algorithm,
            LimbLayout layout,
            Storage storage,
            long budgetBytes,
            LatencyModel model,
            Goal goal) {
        return search(candidates(n, algorithm, layout, storage), storage, budgetBytes, model, goal);
    }

    /** The best split and grouping under {@code budgetBytes}; refused with the smallest feasible budget named. */
    public static Result best(
            int n,
            Algorithm algorithm,
            LimbLayout layout,
            Storage storage,
            long budgetBytes,
            LatencyModel model,
            Goal goal) {
        List<Candidate> cs = candidates(n, algorithm, layout, storage);
        List<Result> r = search(cs, storage, budgetBytes, model, goal);
        if (r.isEmpty()) {
            long min = cs.stream().mapToLong(Candidate::minimalBudget).min().orElse(Long.MAX_VALUE);
            throw new WorkingSetTooSmallException(
                    "working-set budget of " + budgetBytes + " bytes is below the smallest feasible one, " + min
                            + " bytes, for any " + algorithm.cliName() + " split of n = " + n,
                    budgetBytes,
                    min);
        }
        return r.get(0);
    }

    /** The least traffic reachable at each budget (budgets ascending; infeasible and non-improving ones are skipped). */
    public static List<FrontPoint> paretoFront(
            int n, Algorithm algorithm, LimbLayout layout, Storage storage, LatencyModel model, long[] budgets) {
        return paretoFront(n, algorithm, layout, storage, model, budgets, Progress.NONE);
    }

    /** {@link #paretoFront(int, Algorithm, LimbLayout, Storage, LatencyModel, long[])}, reporting each budget done. */
    public static List<FrontPoint> paretoFront(
            int n,
            Algorithm algorithm,
            LimbLayout layout,
            Storage storage,
            LatencyModel model,
            long[] budgets,
            Progress progress) {
        List<Candidate> cs = candidates(n, algorithm, layout, storage);
        List<FrontPoint> out = new ArrayList<>();
        long last = Long.MAX_VALUE;
        int done = 0;
        for (long b : budgets) {
            progress.step(++done, budgets.length);
            List<Result> r = search(cs, storage, b, model, Goal.TRAFFIC);
            if (r.isEmpty()) continue;
            Result best = r.get(0);
            if (best.offchipBytes() < last) {
                out.add(new FrontPoint(b, best));
                last = best.offchipBytes();
            }
        }
        return out;
    }

    /** The straightforward DH-BSGS baseline with the least traffic over its splits. */
    public static Result dhBaseline(int n, LimbLayout layout, Storage storage, LatencyModel model) {
        Result best = null;
        for (int[] s : PlanSearch.powerOfTwoSplits(n, 2)) {
            Result r = baseline(LtProgram.compile(Plan.dense(n, Algorithm.DH_BSGS, s), layout), storage, model);
            if (best == null || r.offchipBytes() < best.offchipBytes()) best = r;
        }
        return best;
    }
}
