package io.hoist.lt.dft;

import io.hoist.ckks.CkksParameters;
import io.hoist.lt.Algorithm;
import io.hoist.lt.Cost;
import io.hoist.lt.Objective;
import io.hoist.lt.Plan;
import io.hoist.lt.Storage;
import it.unimi.dsi.fastutil.longs.LongAVLTreeSet;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Chooses a plan for every matrix of one or several homomorphic DFTs: per matrix by an
 * {@link Objective}, Lattigo's BSGS ratio rule, or jointly over all matrices so that they share
 * rotation keys — the fewest keys in the union (conjugation included), or the fewest modular
 * multiplications with the union within a key budget.
 *
 * <p>The joint search is exact branch and bound over each matrix's non-dominated candidates (a
 * candidate is dominated when another has a subset of its keys and no more multiplications); past
 * {@link #NODE_LIMIT} nodes it keeps the best found and improves it by coordinate descent, and the
 * plan says it is not proven optimal.
 */
public final class DftPlanner {
    private DftPlanner() {}

    /** Branch-and-bound nodes before the joint search settles for coordinate descent. */
    public static final long NODE_LIMIT = 2_000_000;

    /** Each matrix on its own: {@code algorithm} (null: any) with the best split under {@code objective}. */
    public static DftPlan perMatrix(HomomorphicDft dft, CkksParameters params, Algorithm algorithm, Objective objective, int keyBudget) {
        List<Plan> plans = new ArrayList<>();
        for (int i = 0; i < dft.depth(); i++) {
            var m = dft.matrices().get(i);
            plans.add(Plan.autoForIndices(m.dimension(), m.diagonalIndices(), params, dft.levels().get(i), algorithm, objective, keyBudget));
        }
        return new DftPlan(dft, params, com.google.common.collect.ImmutableList.copyOf(plans), true);
    }

    /**
     * Lattigo's choice (spec §9.2, {@code FindBestBSGSRatio}): DH-BSGS with N1 doubled from 1 until
     * #baby/#giant nonzero rotations reaches 2^logRatio (or N1/2 once it exceeds it).
     */
    public static DftPlan lattigo(HomomorphicDft dft, CkksParameters params, int logRatio) {
        List<Plan> plans = new ArrayList<>();
        for (var m : dft.matrices()) {
            int n = m.dimension();
            int n1 = lattigoN1(m.diagonalIndices(), n, logRatio);
            plans.add(Plan.forIndices(n, m.diagonalIndices(), Algorithm.DH_BSGS, n1, n / n1));
        }
        return new DftPlan(dft, params, com.google.common.collect.ImmutableList.copyOf(plans), true);
    }

    static int lattigoN1(java.util.Collection<Integer> diags, int n, int logRatio) {
        double maxRatio = 1 << logRatio;
        for (int n1 = 1; n1 < n; n1 <<= 1) {
            LongOpenHashSet giant = new LongOpenHashSet(), baby = new LongOpenHashSet();
            for (int r : diags) { giant.add((long) (r / n1) * n1); baby.add(r % n1); }
            int nb1 = giant.size() - 1, nb2 = baby.size() - 1;
            double ratio = nb1 == 0 ? Double.POSITIVE_INFINITY : (double) nb2 / nb1;
            if (ratio == maxRatio) return n1;
            if (ratio > maxRatio) return Math.max(1, n1 / 2);
        }
        return 1;
    }

    /**
     * All matrices of all {@code dfts} together (their key sets are one union): {@link Objective#FEWEST_KEYS}
     * minimises the union's size (ties: multiplications); {@link Objective#FEWEST_MULTS_UNDER_KEY_BUDGET}
     * minimises the multiplications with the union at most {@code keyBudget}; {@link Objective#FEWEST_MULTS}
     * is per matrix (the union does not constrain it).
     */
    public static List<DftPlan> joint(List<HomomorphicDft> dfts, CkksParameters params, Algorithm algorithm, Objective objective, int keyBudget) {
        if (objective == Objective.FEWEST_MULTS) return dfts.stream().map(d -> perMatrix(d, params, algorithm, objective, keyBudget)).toList();
        List<MatrixSpec> specs = new ArrayList<>();
        boolean conj = false;
        for (HomomorphicDft d : dfts) {
            conj |= d.kind() == HomomorphicDft.Kind.COEFFS_TO_SLOTS;
            for (int i = 0; i < d.depth(); i++) specs.add(new MatrixSpec(d.matrices().get(i).dimension(), d.matrices().get(i).diagonalIndices(), d.levels().get(i)));
        }
        JointChoice jc = joint(specs, conj, params, algorithm, objective, keyBudget);
        List<DftPlan> out = new ArrayList<>();
        int k = 0;
        for (HomomorphicDft d : dfts) {
            out.add(new DftPlan(d, params, com.google.common.collect.ImmutableList.copyOf(jc.plans().subList(k, k + d.depth())), jc.exact()));
            k += d.depth();
        }
        return out;
    }

    /** One matrix to plan: its dimension, diagonal indices and level (the matrices need not be built). */
    public record MatrixSpec(int dimension, java.util.Set<Integer> indices, int level) {}

    /** Joint plans in the order of the specs, and whether the search proved them optimal. */
    public record JointChoice(List<Plan> plans, boolean exact) {
        public JointChoice { plans = List.copyOf(plans); }
    }

    /**
     * {@link #joint(List, CkksParameters, Algorithm, Objective, int)} on bare index sets, with the
     * conjugation key counted in the union when {@code conjugation}: for studies at sizes whose
     * matrices are too large to build.
     */
    public static JointChoice joint(List<MatrixSpec> specs, boolean conjugation, CkksParameters params, Algorithm algorithm, Objective objective, int keyBudget) {
        List<Slot> slots = new ArrayList<>();
        for (MatrixSpec m : specs) slots.add(new Slot(candidates(m, params, algorithm)));
        if (objective == Objective.FEWEST_MULTS) {
            List<Plan> plans = new ArrayList<>();
            for (MatrixSpec m : specs) plans.add(Plan.autoForIndices(m.dimension(), m.indices(), params, m.level(), algorithm, objective, keyBudget));
            return new JointChoice(plans, true);
        }
        long[] fixed = conjugation ? new long[] {params.galoisElementForConjugation()} : new long[0];
        Search s = new Search(slots, fixed, objective == Objective.FEWEST_KEYS ? Integer.MAX_VALUE : keyBudget, objective == Objective.FEWEST_KEYS);
        s.run();
        if (s.best == null) throw new IllegalArgumentException("no choice of splits keeps the union of rotation keys within " + keyBudget
                + " (the smallest union is " + s.smallestUnion() + ")");
        List<Plan> plans = new ArrayList<>();
        for (int k = 0; k < slots.size(); k++) plans.add(slots.get(k).cands.get(s.best[k]).plan);
        return new JointChoice(plans, s.exact);
    }

    private record Cand(Plan plan, long[] keys, double mults) {}

    private record Slot(List<Cand> cands) {}

    /** The candidates of matrix i that no other candidate dominates, fewest keys first. */
    private static List<Cand> candidates(MatrixSpec m, CkksParameters params, Algorithm algorithm) {
        List<Cand> all = new ArrayList<>();
        for (Plan p : Plan.candidates(m.dimension(), m.indices(), algorithm)) {
            Cost c = p.cost(params, m.level(), Storage.PRECOMPUTED);
            long[] keys = p.rotationKeys(params).stream().mapToLong(Long::longValue).toArray();
            all.add(new Cand(p, keys, c.modMuls()));
        }
        all.sort(Comparator.<Cand>comparingInt(c -> c.keys.length).thenComparingDouble(c -> c.mults));
        List<Cand> kept = new ArrayList<>();
        for (Cand c : all) {
            boolean dominated = false;
            for (Cand k : kept) {
                if (k.mults <= c.mults && subset(k.keys, c.keys)) { dominated = true; break; }
            }
            if (!dominated) kept.add(c);
        }
        return kept;
    }

    private static boolean subset(long[] a, long[] b) {
        for (long x : a) if (Arrays.binarySearch(b, x) < 0) return false;
        return true;
    }

    /** Depth-first branch and bound over the slots, union of keys as a multiset of counts. */
    private static final class Search {
        final List<Slot> slots;
        final long[] fixed;
        final int budget;
        final boolean keysFirst;
        final double[] minRestMults;
        final it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap count = new it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap();
        int union;
        int[] choice, best;
        int bestKeys = Integer.MAX_VALUE;
        double bestMults = Double.POSITIVE_INFINITY;
        long nodes;
        boolean exact = true;

        Search(List<Slot> slots, long[] fixed, int budget, boolean keysFirst) {
            this.slots = slots;
            this.fixed = fixed;
            this.budget = budget;
            this.keysFirst = keysFirst;
            minRestMults = new double[slots.size() + 1];
            for (int i = slots.size() - 1; i >= 0; i--) {
                double min = Double.POSITIVE_INFINITY;
                for (Cand c : slots.get(i).cands) min = Math.min(min, c.mults);
                minRestMults[i] = minRestMults[i + 1] + min;
            }
            choice = new int[slots.size()];
        }

        void run() {
            for (long g : fixed) push(g);
            int[] seed = new int[slots.size()];   // fewest keys per matrix: a good first bound
            double seedMults = 0;
            for (int k = 0; k < seed.length; k++) seedMults += slots.get(k).cands.get(0).mults;
            int seedKeys = unionSize(seed);
            if (seedKeys <= budget) { best = seed; bestKeys = seedKeys; bestMults = seedMults; }
            dfs(0, 0);
            if (nodes > NODE_LIMIT) {
                exact = false;
                if (best != null) descend();
            }
        }

        private void push(long g) { if (count.addTo(g, 1) == 0) union++; }
        private void pop(long g) { if (count.addTo(g, -1) == 1) union--; }

        private void dfs(int i, double mults) {
            if (++nodes > NODE_LIMIT && best != null) return;
            if (union > budget) return;
            if (i == slots.size()) {
                if (better(union, mults)) { bestKeys = union; bestMults = mults; best = choice.clone(); }
                return;
            }
            if (!mayBeat(union, mults + minRestMults[i])) return;
            List<Cand> cands = slots.get(i).cands;
            for (int c = 0; c < cands.size(); c++) {
                Cand x = cands.get(c);
                for (long g : x.keys) push(g);
                choice[i] = c;
                dfs(i + 1, mults + x.mults);
                for (long g : x.keys) pop(g);
            }
        }

        private boolean better(int keys, double mults) {
            if (keysFirst) return keys < bestKeys || (keys == bestKeys && mults < bestMults);
            return mults < bestMults || (mults == bestMults && keys < bestKeys);
        }

        /** The union only grows and the multiplications only add: a partial choice is a lower bound. */
        private boolean mayBeat(int keys, double mults) {
            if (keysFirst) return keys < bestKeys || (keys == bestKeys && mults < bestMults);
            return mults < bestMults;
        }

        /** Coordinate descent from the best found: re-choose one matrix at a time while that improves. */
        private void descend() {
            boolean improved = true;
            while (improved) {
                improved = false;
                for (int i = 0; i < slots.size(); i++) {
                    for (int c = 0; c < slots.get(i).cands.size(); c++) {
                        int[] trial = best.clone();
                        trial[i] = c;
                        int keys = unionSize(trial);
                        double mults = 0;
                        for (int k = 0; k < trial.length; k++) mults += slots.get(k).cands.get(trial[k]).mults;
                        if (keys <= budget && better(keys, mults)) { best = trial; bestKeys = keys; bestMults = mults; improved = true; }
                    }
                }
            }
        }

        private int unionSize(int[] ch) {
            LongAVLTreeSet s = new LongAVLTreeSet(fixed);
            for (int k = 0; k < ch.length; k++) for (long g : slots.get(k).cands.get(ch[k]).keys) s.add(g);
            return s.size();
        }

        int smallestUnion() {
            Search s = new Search(slots, fixed, Integer.MAX_VALUE, true);
            s.run();
            return s.bestKeys;
        }
    }
}
