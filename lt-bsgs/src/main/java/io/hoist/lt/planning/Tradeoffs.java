package io.hoist.lt.planning;

import com.google.common.collect.ImmutableList;
import io.hoist.ckks.Progress;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.CountingInterpreter;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.LatencyModel;
import io.hoist.lt.schedule.ScheduleCompiler;
import io.hoist.lt.schedule.WorkingSetTooSmallException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Key-size versus complexity studies (spec §6): every split of every algorithm for a dense n×n
 * matrix at a limb layout, with the counting interpreter's counts, the key bytes, and — under a
 * working-set budget — the schedule compiler's off-chip traffic and modelled latency. Nothing is
 * encrypted; the numbers are those the executors would produce (they walk the same program).
 */
public final class Tradeoffs {
    private Tradeoffs() {}

    /**
     * One point of a study. {@code offchipBytes} and {@code latencyMicros} are null when no budget was
     * given or the plan does not fit it.
     */
    public record Point(
            int logN,
            int levels,
            int alpha,
            int beta,
            int wordBits,
            int n,
            String algorithm,
            List<Integer> split,
            int rotationKeys,
            long keyBytes,
            long seededKeyBytes,
            long decompose,
            long modDown,
            long keySwitchInnerProducts,
            long ptMuls,
            long ntt,
            double modMuls,
            Long offchipBytes,
            Double latencyMicros) {
        public Point {
            split = List.copyOf(split);
        }

        /** Key-switching-key words streamed by the evaluation (one key per KS-IP). */
        public long keyBytesStreamed() {
            return rotationKeys == 0 ? 0 : keySwitchInnerProducts * (keyBytes / rotationKeys);
        }
    }

    /** The point of one plan (dense n×n) at {@code lay}; traffic only when {@code budgetBytes} &gt; 0. */
    public static Point point(Plan plan, LimbLayout lay, Storage storage, long budgetBytes, LatencyModel model) {
        LtProgram prog = plan.algorithm() == Algorithm.BSGS ? null : LtProgram.compile(plan, lay);
        Cost c = prog == null ? plan.cost(lay, storage) : CountingInterpreter.counts(prog, storage);
        Long traffic = null;
        Double latency = null;
        if (budgetBytes > 0 && prog != null) {
            try {
                ScheduleCompiler.Result r = ScheduleCompiler.evaluate(
                        prog, storage, ScheduleCompiler.bestGrouping(prog, storage, budgetBytes), model);
                traffic = r.offchipBytes();
                latency = r.latencyMicros();
            } catch (WorkingSetTooSmallException e) {
                // reported as null: the plan does not fit the budget
            }
        }
        int keys = plan.rotations().size();
        return new Point(
                lay.logN(),
                lay.level(),
                lay.alpha(),
                lay.beta(),
                lay.wordBits(),
                plan.dimension(),
                plan.algorithm().cliName(),
                Arrays.stream(plan.split()).boxed().toList(),
                keys,
                c.keyBytes(),
                c.seededKeyBytes(),
                c.decompose(),
                c.modDown(),
                c.keySwitchInnerProducts(),
                c.ptMuls(),
                c.ntt(),
                c.modMuls(),
                traffic,
                latency);
    }

    /**
     * Every power-of-two split of each algorithm for a dense n×n matrix (TH-BSGS factors ≥ 2 when
     * n ≥ 8, as {@link Plan#candidates}), as points in that order.
     */
    public static List<Point> sweep(
            int n,
            LimbLayout lay,
            List<Algorithm> algorithms,
            Storage storage,
            long budgetBytes,
            LatencyModel model,
            Progress progress) {
        if (n < 2 || Integer.bitCount(n) != 1 || n > lay.n() / 2) {
            throw new InvalidTransformException("n must be a power of two in [2, N/2 = " + lay.n() / 2 + "], got " + n);
        }
        List<Plan> plans = new ArrayList<>();
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < n; r++) all.add(r);
        for (Algorithm a : algorithms) plans.addAll(Plan.candidates(n, all, a));
        ImmutableList.Builder<Point> out = ImmutableList.builder();
        for (int i = 0; i < plans.size(); i++) {
            out.add(point(plans.get(i), lay, storage, budgetBytes, model));
            progress.step(i + 1, plans.size());
        }
        return out.build();
    }

    /**
     * The points no other point of the same algorithm beats in both keys and multiplications (ties
     * kept once), sorted by keys: the keys–multiplications Pareto front per algorithm.
     */
    public static List<Point> paretoFront(List<Point> points) {
        List<Point> sorted = new ArrayList<>(points);
        sorted.sort(Comparator.comparing(Point::algorithm)
                .thenComparingInt(Point::rotationKeys)
                .thenComparingDouble(Point::modMuls));
        ImmutableList.Builder<Point> out = ImmutableList.builder();
        String algo = null;
        double best = Double.POSITIVE_INFINITY;
        for (Point p : sorted) {
            if (!p.algorithm().equals(algo)) {
                algo = p.algorithm();
                best = Double.POSITIVE_INFINITY;
            }
            if (p.modMuls() < best) {
                out.add(p);
                best = p.modMuls();
            }
        }
        return out.build();
    }

    /** Whether {@code a} is at least as good as {@code b} in keys and multiplications and better in one. */
    public static boolean dominates(Point a, Point b) {
        return a.rotationKeys() <= b.rotationKeys()
                && a.modMuls() <= b.modMuls()
                && (a.rotationKeys() < b.rotationKeys() || a.modMuls() < b.modMuls());
    }
}
