package io.hoist.cli.run;

import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.KeyStorage;
import io.hoist.lt.dft.DftPlan;
import io.hoist.lt.dft.DftPlanner;
import io.hoist.lt.dft.HomomorphicDft;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Storage;
import java.util.ArrayList;
import java.util.List;

/** The parsed options: parameters, DFT sizes and levels, planning choices. */
public record CtosSetup(
        CkksParameters params,
        String backend,
        int logSlots,
        int depth,
        int topLevel,
        Integer stocDepth,
        int stocTop,
        Algorithm algorithm,
        String objectiveName,
        Objective objective,
        int keyBudget,
        boolean joint,
        Storage storage,
        int runs,
        long seed,
        int[] perLevel,
        int[] stocPerLevel,
        int threads,
        KeyStorage keyStorage) {

    /** CoeffsToSlots of depth d: one matrix per level, or the --matrices-per-level layout when d is its sum. */
    public HomomorphicDft cts(int d) {
        if (perLevel != null && d == depth)
            return HomomorphicDft.coeffsToSlots(params.logN(), logSlots, perLevel, topLevel);
        return HomomorphicDft.coeffsToSlots(params.logN(), logSlots, d, topLevel);
    }

    public HomomorphicDft stc() {
        if (stocPerLevel != null) return HomomorphicDft.slotsToCoeffs(params.logN(), logSlots, stocPerLevel, stocTop);
        return HomomorphicDft.slotsToCoeffs(params.logN(), logSlots, stocDepth, stocTop);
    }

    /** Plans for CtS (and StoC when asked) by the chosen objective, jointly or per matrix. */
    public List<DftPlan> plan(List<HomomorphicDft> dfts, Algorithm a) {
        if (objectiveName.equals("lattigo"))
            return dfts.stream().map(d -> DftPlanner.lattigo(d, params, 1)).toList();
        if (joint) return DftPlanner.joint(dfts, params, a, objective, keyBudget);
        return dfts.stream()
                .map(d -> DftPlanner.perMatrix(d, params, a, objective, keyBudget))
                .toList();
    }

    /** Σ over the matrices of the closed-form modular multiplications. */
    public static double modMuls(List<DftPlan> plans, Storage st) {
        double m = 0;
        for (DftPlan p : plans)
            for (int i = 0; i < p.plans().size(); i++) m += p.cost(i, st).modMuls();
        return m;
    }

    public static List<Cost> costs(DftPlan p, Storage st) {
        List<Cost> out = new ArrayList<>();
        for (int i = 0; i < p.plans().size(); i++) out.add(p.cost(i, st));
        return out;
    }
}
