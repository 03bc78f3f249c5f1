package io.hoist.lt.plan;

import io.hoist.ckks.CkksParameters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The search for a plan: every power-of-two split of an algorithm for an index set, and the best of
 * them under an {@link Objective} by the closed-form {@link Cost} (the search space of joint
 * planning over several transforms too).
 */
public final class PlanSearch {
    private PlanSearch() {}

    /**
     * The best plan of {@code algorithm} (or of every algorithm, if null) under {@code objective},
     * searching the power-of-two splits; costs are evaluated at {@code level} of {@code params}.
     * TH-BSGS splits keep every factor ≥ 2 when n ≥ 8 (a factor 1 degenerates to DH-BSGS).
     */
    public static Plan auto(
            Diagonals t, CkksParameters params, int level, Algorithm algorithm, Objective objective, int keyBudget) {
        Objects.requireNonNull(t, "t is null");
        Objects.requireNonNull(params, "params is null");
        Objects.requireNonNull(objective, "objective is null");
        return autoForIndices(t.dimension(), t.diagonalIndices(), params, level, algorithm, objective, keyBudget);
    }

    public static Plan autoForIndices(
            int n,
            Collection<Integer> indices,
            CkksParameters params,
            int level,
            Algorithm algorithm,
            Objective objective,
            int keyBudget) {
        List<Plan> candidates = candidates(n, indices, algorithm);
        Plan best = null;
        Cost bestCost = null;
        for (Plan p : candidates) {
            Cost c = p.cost(params, level, Storage.PRECOMPUTED);
            if (objective == Objective.FEWEST_MULTS_UNDER_KEY_BUDGET && c.rotationKeys() > keyBudget) continue;
            if (best == null || better(c, bestCost, objective)) {
                best = p;
                bestCost = c;
            }
        }
        if (best == null)
            throw new InvalidTransformException(
                    "no split of " + n + " fits a budget of " + keyBudget + " rotation keys");
        return best;
    }

    /**
     * Every power-of-two split of {@code algorithm} (or of every algorithm, if null) for the index set:
     * the search space of {@link #autoForIndices} and of joint planning over several transforms.
     * TH-BSGS splits keep every factor ≥ 2 when n ≥ 8 (a factor 1 degenerates to DH-BSGS).
     */
    public static List<Plan> candidates(int n, Collection<Integer> indices, Algorithm algorithm) {
        Objects.requireNonNull(indices, "indices is null");
        List<Plan> candidates = new ArrayList<>();
        for (Algorithm a : algorithm == null ? Algorithm.values() : new Algorithm[] {algorithm}) {
            for (int[] s : powerOfTwoSplits(n, a.splitParts())) {
                if (a == Algorithm.TH_BSGS && n >= 8 && Arrays.stream(s).anyMatch(f -> f < 2)) continue;
                candidates.add(Plan.forIndices(n, indices, a, s));
            }
        }
        return candidates;
    }

    public static boolean better(Cost a, Cost b, Objective o) {
        if (o == Objective.FEWEST_KEYS) {
            return a.rotationKeys() != b.rotationKeys()
                    ? a.rotationKeys() < b.rotationKeys()
                    : a.modMuls() < b.modMuls();
        }
        return a.modMuls() != b.modMuls() ? a.modMuls() < b.modMuls() : a.rotationKeys() < b.rotationKeys();
    }

    public static List<int[]> powerOfTwoSplits(int n, int parts) {
        if (n < 1 || Integer.bitCount(n) != 1)
            throw new InvalidTransformException("power-of-two splits of " + n + ", not a power of two");
        if (parts < 1 || parts > 3) throw new InvalidTransformException("splits of 1 to 3 factors, not " + parts);
        int e = Integer.numberOfTrailingZeros(n);
        List<int[]> out = new ArrayList<>();
        if (parts == 1) {
            out.add(new int[] {n});
            return out;
        }
        for (int a = 0; a <= e; a++) {
            if (parts == 2) {
                out.add(new int[] {1 << a, 1 << (e - a)});
                continue;
            }
            for (int b = 0; a + b <= e; b++) out.add(new int[] {1 << a, 1 << b, 1 << (e - a - b)});
        }
        return out;
    }
}
