package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.*;

import io.hoist.ckks.Progress;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.CountingInterpreter;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.planning.BudgetPlanner;
import io.hoist.lt.planning.CostModel;
import io.hoist.lt.planning.Tradeoffs;
import io.hoist.lt.schedule.LatencyModel;
import io.hoist.lt.schedule.ScheduleCompiler;
import io.hoist.lt.schedule.WorkingSetTooSmallException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;
import org.junit.jupiter.api.Test;

/** Studies from the plans: spec §6.2 and §11 numbers from the sweep's own rows, Pareto fronts, the budget planner, the model fit. */
class TradeoffsTest {
    private static final LimbLayout T2 = LimbLayout.table2();

    private static Tradeoffs.Point find(List<Tradeoffs.Point> ps, Algorithm a, Integer... split) {
        return ps.stream()
                .filter(p -> p.algorithm().equals(a.cliName()) && p.split().equals(List.of(split)))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void section62NumbersFromTheSweepAtTableII() {
        List<Tradeoffs.Point> ps =
                Tradeoffs.sweep(1 << 15, T2, List.of(Algorithm.values()), Storage.PRECOMPUTED, 0, null, Progress.NONE);
        int thMin = ps.stream()
                .filter(p -> p.algorithm().equals("th-bsgs"))
                .mapToInt(Tradeoffs.Point::rotationKeys)
                .min()
                .orElseThrow();
        int dhMin = ps.stream()
                .filter(p -> p.algorithm().equals("dh-bsgs"))
                .mapToInt(Tradeoffs.Point::rotationKeys)
                .min()
                .orElseThrow();
        assertEquals(93, thMin);
        assertEquals(382, dhMin);
        double gib = 1L << 30;
        Object[][] oracle = { // algo, split, keys, GiB, Dec, MD, KS-IP, total mults
            {Algorithm.DH_BSGS, new Integer[] {256, 128}, 382, 41.55, 128, 129, 382, 2.2017e11},
            {Algorithm.DH_BSGS, new Integer[] {512, 64}, 574, 62.43, 64, 65, 574, 2.1122e11},
            {Algorithm.TH_BSGS, new Integer[] {32, 32, 32}, 93, 10.12, 63, 64, 1054, 2.1934e11},
            {Algorithm.TH_BSGS, new Integer[] {2, 256, 64}, 319, 34.70, 65, 66, 574, 2.1142e11},
            {Algorithm.TH_BSGS, new Integer[] {8, 64, 64}, 133, 14.47, 71, 72, 574, 2.1257e11},
            {Algorithm.TH_BSGS, new Integer[] {16, 32, 64}, 109, 11.86, 79, 80, 574, 2.1410e11},
            {Algorithm.DIAGONAL, new Integer[] {1 << 15}, 32767, 3563.9, 1, 2, 32767, 7.5614e11},
            {Algorithm.BSGS, new Integer[] {256, 128}, 382, 41.55, 382, 764, 382, 2.3678e11}
        };
        for (Object[] o : oracle) {
            Tradeoffs.Point p = find(ps, (Algorithm) o[0], (Integer[]) o[1]);
            String at = o[0] + " " + p.split();
            assertEquals((int) o[2], p.rotationKeys(), at);
            assertEquals((double) o[3], p.keyBytes() / gib, (double) o[3] > 1000 ? 0.05 : 0.006, at); // the spec rounds
            assertEquals((int) o[4], p.decompose(), at);
            assertEquals((int) o[5], p.modDown(), at);
            assertEquals((int) o[6], p.keySwitchInnerProducts(), at);
            assertEquals((double) o[7], p.modMuls(), 5e-5 * (double) o[7], at);
        }
        assertEquals(116_785_152L, T2.keyBytes()); // spec §11 oracle 5
    }

    @Test
    void section11CountOraclesAndEveryPointEqualsTheCountingInterpreter() {
        LimbLayout lay = new LimbLayout(12, 5, 2, 64);
        int[][] th = {
            {16, 2, 2, 4, 5, 6, 6, 16, 5},
            {16, 4, 2, 2, 5, 6, 8, 16, 5},
            {16, 2, 4, 2, 3, 4, 8, 16, 5},
            {512, 8, 8, 8, 15, 16, 70, 512, 21}
        };
        for (int[] o : th) {
            List<Tradeoffs.Point> ps = Tradeoffs.sweep(
                    o[0],
                    new LimbLayout(11, 5, 2, 64),
                    List.of(Algorithm.TH_BSGS, Algorithm.DH_BSGS),
                    Storage.PRECOMPUTED,
                    0,
                    null,
                    Progress.NONE);
            Tradeoffs.Point p = find(ps, Algorithm.TH_BSGS, o[1], o[2], o[3]);
            assertArrayEquals(
                    new long[] {o[4], o[5], o[6], o[7], o[8]},
                    new long[] {p.decompose(), p.modDown(), p.keySwitchInnerProducts(), p.ptMuls(), p.rotationKeys()});
        }
        for (int n : new int[] {64, 1024}) {
            for (Tradeoffs.Point p :
                    Tradeoffs.sweep(n, lay, List.of(Algorithm.values()), Storage.COMPACT, 0, null, Progress.NONE)) {
                Plan plan = Plan.dense(
                        n,
                        Algorithm.parse(p.algorithm()),
                        p.split().stream().mapToInt(Integer::intValue).toArray());
                Cost c = plan.cost(lay, Storage.COMPACT);
                if (plan.algorithm() != Algorithm.BSGS)
                    assertEquals(CountingInterpreter.counts(LtProgram.compile(plan, lay), Storage.COMPACT), c);
                assertArrayEquals(
                        new long[] {
                            c.decompose(),
                            c.modDown(),
                            c.keySwitchInnerProducts(),
                            c.ptMuls(),
                            c.ntt(),
                            c.rotationKeys(),
                            c.keyBytes()
                        },
                        new long[] {
                            p.decompose(),
                            p.modDown(),
                            p.keySwitchInnerProducts(),
                            p.ptMuls(),
                            p.ntt(),
                            p.rotationKeys(),
                            p.keyBytes()
                        },
                        plan.toString());
                assertEquals(c.modMuls(), p.modMuls());
            }
        }
    }

    @Test
    void paretoFrontsHoldNoDominatedPointAndCoverTheRest() {
        List<Tradeoffs.Point> ps = Tradeoffs.sweep(
                1 << 12,
                new LimbLayout(14, 7, 2, 64),
                List.of(Algorithm.values()),
                Storage.PRECOMPUTED,
                0,
                null,
                Progress.NONE);
        List<Tradeoffs.Point> front = Tradeoffs.paretoFront(ps);
        for (Tradeoffs.Point a : front) {
            for (Tradeoffs.Point b : ps)
                assertFalse(b.algorithm().equals(a.algorithm()) && Tradeoffs.dominates(b, a), b + " dominates " + a);
        }
        for (Tradeoffs.Point b : ps) {
            assertTrue(
                    front.stream()
                            .anyMatch(a -> a.algorithm().equals(b.algorithm())
                                    && a.rotationKeys() <= b.rotationKeys()
                                    && a.modMuls() <= b.modMuls()),
                    b.toString());
        }
    }

    @Test
    void budgetPlannerIsTheFastestWithinItsBudget() {
        LimbLayout lay = new LimbLayout(14, 7, 2, 64);
        int n = 1024;
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < n; r++) all.add(r);
        for (int k : new int[] {29, 40, 100}) {
            Plan p = BudgetPlanner.fastest(
                    n,
                    all,
                    lay,
                    Algorithm.TH_BSGS,
                    new BudgetPlanner.Keys(k),
                    CostModel.MULTS_ONLY,
                    Storage.PRECOMPUTED);
            assertTrue(p.rotations().size() <= k);
            for (Plan q : Plan.candidates(n, all, Algorithm.TH_BSGS)) {
                if (q.rotations().size() <= k)
                    assertTrue(
                            p.cost(lay, Storage.PRECOMPUTED).modMuls()
                                    <= q.cost(lay, Storage.PRECOMPUTED).modMuls(),
                            q.toString());
            }
        }
        Plan m = BudgetPlanner.fastest(
                n,
                all,
                lay,
                null,
                new BudgetPlanner.KeyMemory(30 * lay.keyBytes()),
                CostModel.MULTS_ONLY,
                Storage.PRECOMPUTED);
        assertTrue(m.rotations().size() <= 30);
        // two matrices sharing keys: the union stays within the budget
        List<Plan> two = BudgetPlanner.fastest(
                List.of(n, n),
                List.of(all, all.subList(0, 200)),
                lay,
                Algorithm.TH_BSGS,
                new BudgetPlanner.Keys(40),
                CostModel.MULTS_ONLY,
                Storage.PRECOMPUTED);
        Set<Integer> union = new HashSet<>(two.get(0).rotations());
        union.addAll(two.get(1).rotations());
        assertTrue(union.size() <= 40);
        LatencyModel ws = LatencyModel.U280.withOnChip(8_000_000);
        Plan w = BudgetPlanner.fastest(
                n,
                all,
                lay,
                Algorithm.TH_BSGS,
                new BudgetPlanner.WorkingSet(ws),
                CostModel.MULTS_ONLY,
                Storage.PRECOMPUTED);
        assertTrue(ScheduleCompiler.minimalBudget(LtProgram.compile(w, lay), Storage.PRECOMPUTED) <= 8_000_000);
        assertThrows(
                WorkingSetTooSmallException.class,
                () -> BudgetPlanner.fastest(
                        n,
                        all,
                        lay,
                        Algorithm.TH_BSGS,
                        new BudgetPlanner.WorkingSet(LatencyModel.U280.withOnChip(1000)),
                        CostModel.MULTS_ONLY,
                        Storage.PRECOMPUTED));
        assertThrows(
                IllegalArgumentException.class,
                () -> BudgetPlanner.fastest(
                        n,
                        all,
                        lay,
                        Algorithm.TH_BSGS,
                        new BudgetPlanner.Keys(2),
                        CostModel.MULTS_ONLY,
                        Storage.PRECOMPUTED));
    }

    @Test
    void costModelFitRecoversItsConstants() {
        LimbLayout lay = new LimbLayout(13, 5, 2, 64);
        CostModel truth = new CostModel(0.7, 0.05, 1.9);
        List<Cost> costs = new ArrayList<>();
        List<LimbLayout> rings = new ArrayList<>();
        List<Double> ns = new ArrayList<>();
        for (Cost c : sweepCosts(lay)) {
            assertTrue(CostModel.features(c, lay)[0] > 0, "pointwise multiplications stay positive: " + c);
            costs.add(c);
            rings.add(lay);
            ns.add(truth.predictNanos(c, lay));
        }
        CostModel fit = CostModel.fit(costs, rings, ns);
        assertEquals(truth.nanosPerModMul(), fit.nanosPerModMul(), 1e-6);
        assertEquals(truth.nanosPerKeyByte(), fit.nanosPerKeyByte(), 1e-6);
        assertEquals(truth.nanosPerButterfly(), fit.nanosPerButterfly(), 1e-6);
        assertThrows(
                IllegalArgumentException.class,
                () -> CostModel.fit(costs.subList(0, 2), rings.subList(0, 2), ns.subList(0, 2)));
    }

    /**
     * Times that plain least squares fits with a negative constant (the key bytes' share taken out):
     * the fit keeps every constant ≥ 0, predicts no negative time, and no non-negative triple of a
     * seeded sample fits closer.
     */
    @Test
    void costModelFitKeepsEveryConstantNonNegative() {
        LimbLayout lay = new LimbLayout(13, 5, 2, 64);
        List<Cost> costs = new ArrayList<>();
        List<LimbLayout> rings = new ArrayList<>();
        List<Double> ns = new ArrayList<>();
        List<double[]> xs = new ArrayList<>();
        for (Cost c : sweepCosts(lay)) {
            double[] f = CostModel.features(c, lay);
            double t = 0.7 * f[0] - 0.002 * f[1] + 1.9 * f[2];
            assertTrue(t > 0, "a positive time: " + c);
            costs.add(c);
            rings.add(lay);
            ns.add(t);
            xs.add(f);
        }
        OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
        ols.setNoIntercept(true);
        ols.newSampleData(ns.stream().mapToDouble(Double::doubleValue).toArray(), xs.toArray(new double[0][]));
        assertTrue(ols.estimateRegressionParameters()[1] < 0, "plain least squares gives a negative constant here");

        CostModel fit = CostModel.fit(costs, rings, ns);
        double[] b = {fit.nanosPerModMul(), fit.nanosPerKeyByte(), fit.nanosPerButterfly()};
        for (double v : b) assertTrue(v >= 0, Arrays.toString(b));
        assertEquals(0, b[1], "the key bytes' constant is held at its bound");
        for (int i = 0; i < costs.size(); i++) assertTrue(fit.predictNanos(costs.get(i), rings.get(i)) > 0);
        // optimality (Karush–Kuhn–Tucker): the residual's correlation g_f with feature f is zero where b_f > 0
        // and at most zero where b_f = 0 (raising b_f would not fit closer)
        for (int f = 0; f < 3; f++) {
            double g = 0, xx = 0, yy = 0;
            for (int i = 0; i < xs.size(); i++) {
                double e = ns.get(i);
                for (int h = 0; h < 3; h++) e -= b[h] * xs.get(i)[h];
                g += xs.get(i)[f] * e;
                xx += xs.get(i)[f] * xs.get(i)[f];
                yy += ns.get(i) * ns.get(i);
            }
            double tol = 1e-9 * Math.sqrt(xx * yy);
            if (b[f] > 0) assertEquals(0, g, tol, "feature " + f + ": " + Arrays.toString(b));
            else assertTrue(g <= tol, "feature " + f + " would fit closer above 0: " + Arrays.toString(b));
        }
    }

    /** As many runs as constants: the fit is exact (a least-squares solver that wants more runs skipped it). */
    @Test
    void costModelFitFromThreeRunsIsExact() {
        LimbLayout lay = new LimbLayout(13, 5, 2, 64);
        CostModel truth = new CostModel(0.7, 0.05, 1.9);
        List<Cost> all = sweepCosts(lay);
        for (int i = 0; i < all.size(); i++)
            for (int j = i + 1; j < all.size(); j++)
                for (int k = j + 1; k < all.size(); k++) {
                    List<Cost> three = List.of(all.get(i), all.get(j), all.get(k));
                    double[][] m =
                            three.stream().map(c -> CostModel.features(c, lay)).toArray(double[][]::new);
                    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
                    double scale = 1;
                    for (double[] row : m) scale *= Math.sqrt(row[0] * row[0] + row[1] * row[1] + row[2] * row[2]);
                    if (Math.abs(det) < 1e-3 * scale) continue; // nearly dependent runs: try the next three
                    List<Double> ns =
                            three.stream().map(c -> truth.predictNanos(c, lay)).toList();
                    CostModel fit = CostModel.fit(three, List.of(lay, lay, lay), ns);
                    assertEquals(truth.nanosPerModMul(), fit.nanosPerModMul(), 1e-6);
                    assertEquals(truth.nanosPerKeyByte(), fit.nanosPerKeyByte(), 1e-6);
                    assertEquals(truth.nanosPerButterfly(), fit.nanosPerButterfly(), 1e-6);
                    return;
                }
        fail("no three independent runs in the sweep");
    }

    /** The costs of the sweep's Pareto points of n = 256 at {@code lay}, every algorithm. */
    private static List<Cost> sweepCosts(LimbLayout lay) {
        List<Cost> out = new ArrayList<>();
        for (Tradeoffs.Point p : Tradeoffs.sweep(
                256,
                lay,
                List.of(Algorithm.TH_BSGS, Algorithm.DH_BSGS, Algorithm.DIAGONAL, Algorithm.BSGS),
                Storage.PRECOMPUTED,
                0,
                null,
                Progress.NONE))
            out.add(Plan.dense(
                            256,
                            Algorithm.parse(p.algorithm()),
                            p.split().stream().mapToInt(Integer::intValue).toArray())
                    .cost(lay, Storage.PRECOMPUTED));
        return out;
    }
}
