package io.hoist.lt.planning;

import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.LatencyModel;
import io.hoist.lt.schedule.ScheduleCompiler;
import io.hoist.lt.schedule.WorkingSetTooSmallException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The fastest plan under a budget: a number of rotation keys, a number of key bytes, or a working
 * set (on-chip bytes of the six-phase schedule). "Fastest" is by a {@link CostModel} — the §6.2
 * count, or constants fitted to measured runs — or, under a working-set budget, by the latency
 * model of the schedule compiler. Several matrices under a key budget share their keys (one union).
 */
public final class BudgetPlanner {
    private BudgetPlanner() {}

    /** What is limited. */
    public sealed interface Budget permits Keys, KeyMemory, WorkingSet {}

    /** At most {@code max} rotation keys (in the union, for several matrices). */
    public record Keys(int max) implements Budget {}

    /** At most {@code maxBytes} of (full) rotation keys. */
    public record KeyMemory(long maxBytes) implements Budget {}

    /** The six-phase schedule within {@code model.onChipBytes()} of working set; fastest by modelled latency. */
    public record WorkingSet(LatencyModel model) implements Budget {}

    /** The fastest plan of {@code algorithm} (null: any) for one matrix with diagonal {@code indices} of dimension n. */
    public static Plan fastest(
            int n,
            Collection<Integer> indices,
            LimbLayout lay,
            Algorithm algorithm,
            Budget budget,
            CostModel model,
            Storage storage) {
        return fastest(List.of(n), List.of(indices), lay, algorithm, budget, model, storage)
                .get(0);
    }

    /**
     * The fastest plans for several matrices at one layout; under a key or key-memory budget their
     * keys are one union (rotation amounts: the matrices act on the same slots).
     */
    public static List<Plan> fastest(
            List<Integer> dims,
            List<? extends Collection<Integer>> indices,
            LimbLayout lay,
            Algorithm algorithm,
            Budget budget,
            CostModel model,
            Storage storage) {
        if (dims.size() != indices.size() || dims.isEmpty())
            throw new InvalidTransformException(dims.size() + " dimensions for " + indices.size() + " index sets");
        if (budget instanceof WorkingSet ws) {
            List<Plan> out = new ArrayList<>();
            for (int i = 0; i < dims.size(); i++)
                out.add(fastestInWorkingSet(dims.get(i), indices.get(i), lay, algorithm, ws.model(), storage));
            return out;
        }
        int maxKeys = switch (budget) {
            case Keys k -> k.max();
            case KeyMemory m -> (int) Math.min(Integer.MAX_VALUE, m.maxBytes() / lay.keyBytes());
            default -> throw new AssertionError(budget);
        };
        List<List<JointPlanner.Candidate>> cands = new ArrayList<>();
        for (int i = 0; i < dims.size(); i++) {
            List<JointPlanner.Candidate> c = new ArrayList<>();
            for (Plan p : Plan.candidates(dims.get(i), indices.get(i), algorithm)) {
                long[] keys =
                        p.rotations().stream().mapToLong(Integer::longValue).toArray();
                c.add(new JointPlanner.Candidate(p, keys, model.predictNanos(p.cost(lay, storage), lay)));
            }
            cands.add(c);
        }
        return JointPlanner.choose(cands, new long[0], maxKeys, false).plans();
    }

    private static Plan fastestInWorkingSet(
            int n,
            Collection<Integer> indices,
            LimbLayout lay,
            Algorithm algorithm,
            LatencyModel model,
            Storage storage) {
        Plan best = null;
        double bestMicros = Double.POSITIVE_INFINITY;
        long smallest = Long.MAX_VALUE;
        for (Plan p : Plan.candidates(n, indices, algorithm)) {
            if (p.algorithm() == Algorithm.BSGS) continue; // full rotations over Q: no six-phase schedule
            LtProgram prog = LtProgram.compile(p, lay);
            long min = ScheduleCompiler.minimalBudget(prog, storage);
            smallest = Math.min(smallest, min);
            if (min > model.onChipBytes()) continue;
            double micros = ScheduleCompiler.evaluate(
                            prog, storage, ScheduleCompiler.bestGrouping(prog, storage, model.onChipBytes()), model)
                    .latencyMicros();
            if (micros < bestMicros) {
                best = p;
                bestMicros = micros;
            }
        }
        if (best == null) {
            throw new WorkingSetTooSmallException(
                    "no split fits a working set of " + model.onChipBytes() + " bytes (the smallest feasible is "
                            + smallest + " bytes)",
                    model.onChipBytes(),
                    smallest);
        }
        return best;
    }
}
