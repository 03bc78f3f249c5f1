package io.hoist.lt.planning;

import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.Plan;
import it.unimi.dsi.fastutil.longs.Long2IntOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongAVLTreeSet;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Chooses one plan per matrix so that the matrices share keys: the fewest keys in the union (ties:
 * least cost), or the least total cost with the union within a budget. Exact branch and bound over
 * each matrix's non-dominated candidates (dominated: another candidate has a subset of its keys and
 * no more cost), seeded with the per-matrix fewest-keys choice; past {@link #NODE_LIMIT} nodes it
 * improves the best found by coordinate descent and reports the choice as not proven optimal.
 * Keys are opaque numbers (Galois elements, or rotation amounts), cost any additive measure.
 */
public final class JointPlanner {
    private JointPlanner() {}

    /** Branch-and-bound nodes before the search settles for coordinate descent. */
    public static final long NODE_LIMIT = 2_000_000;

    /** A plan with its sorted keys and its cost. */
    public record Candidate(Plan plan, long[] keys, double cost) {
        public Candidate {
            keys = keys.clone();
            Arrays.sort(keys);
        }

        /** The sorted keys (a copy). */
        @Override
        public long[] keys() {
            return keys.clone();
        }
    }

    /** The chosen plans in matrix order, whether the search proved them optimal, the union's size and the total cost. */
    public record Choice(List<Plan> plans, boolean exact, int unionSize, double cost) {
        public Choice {
            plans = List.copyOf(plans);
        }
    }

    /**
     * One candidate per matrix, with {@code fixed} keys always in the union: fewest keys first when
     * {@code keysFirst}, else least cost with the union at most {@code budget}.
     */
    public static Choice choose(List<List<Candidate>> perMatrix, long[] fixed, int budget, boolean keysFirst) {
        List<Slot> slots = new ArrayList<>();
        for (List<Candidate> c : perMatrix) {
            if (c.isEmpty()) throw new InvalidTransformException("a matrix has no candidate plan");
            slots.add(new Slot(nonDominated(c)));
        }
        // every matrix needs at least its own fewest keys besides the fixed ones: the size of their union, since a key
        // in both (or twice in a candidate) counts once
        LongOpenHashSet fixedSet = new LongOpenHashSet(fixed);
        int floor = fixedSet.size();
        for (Slot sl : slots) {
            int least = Integer.MAX_VALUE;
            for (Candidate c : sl.cands) {
                LongOpenHashSet u = new LongOpenHashSet(fixedSet);
                for (long k : c.keys) u.add(k);
                least = Math.min(least, u.size());
            }
            floor = Math.max(floor, least);
        }
        if (floor > budget) {
            throw new InvalidTransformException("no choice of splits keeps the union of rotation keys within " + budget
                    + " (at least " + floor + " are needed)");
        }
        Search s = new Search(slots, fixed, budget, keysFirst);
        s.run();
        if (s.best == null) {
            Search least = s.smallestUnion();
            throw new InvalidTransformException("no choice of splits keeps the union of rotation keys within " + budget
                    + (s.exact ? "" : " found within the search limit") + " (the smallest union "
                    + (least.exact ? "is " : "found is ") + least.bestKeys + ")");
        }
        List<Plan> plans = new ArrayList<>();
        for (int k = 0; k < slots.size(); k++) plans.add(slots.get(k).cands.get(s.best[k]).plan);
        return new Choice(plans, s.exact, s.bestKeys, s.bestCost);
    }

    private record Slot(List<Candidate> cands) {}

    /** The candidates no other candidate dominates (a subset of its keys and no more cost), fewest keys first. */
    private static List<Candidate> nonDominated(List<Candidate> given) {
        List<Candidate> all = new ArrayList<>(given);
        all.sort(Comparator.<Candidate>comparingInt(c -> c.keys.length).thenComparingDouble(c -> c.cost));
        List<Candidate> kept = new ArrayList<>();
        for (Candidate c : all) {
            boolean dominated = false;
            for (Candidate k : kept) {
                if (k.cost <= c.cost && subset(k.keys, c.keys)) {
                    dominated = true;
                    break;
                }
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
        final double[] minRestCost;
        final Long2IntOpenHashMap count = new Long2IntOpenHashMap();
        int union;
        int[] choice, best;
        int bestKeys = Integer.MAX_VALUE;
        double bestCost = Double.POSITIVE_INFINITY;
        long nodes;
        boolean exact = true;

        Search(List<Slot> slots, long[] fixed, int budget, boolean keysFirst) {
            this.slots = slots;
            this.fixed = fixed;
            this.budget = budget;
            this.keysFirst = keysFirst;
            minRestCost = new double[slots.size() + 1];
            for (int i = slots.size() - 1; i >= 0; i--) {
                double min = Double.POSITIVE_INFINITY;
                for (Candidate c : slots.get(i).cands) min = Math.min(min, c.cost);
                minRestCost[i] = minRestCost[i + 1] + min;
            }
            choice = new int[slots.size()];
        }

        void run() {
            for (long g : fixed) push(g);
            int[] seed = new int[slots.size()]; // fewest keys per matrix: a good first bound
            double seedCost = 0;
            for (int k = 0; k < seed.length; k++) seedCost += slots.get(k).cands.get(0).cost;
            int seedKeys = unionSize(seed);
            if (seedKeys <= budget) {
                best = seed;
                bestKeys = seedKeys;
                bestCost = seedCost;
            }
            dfs(0, 0);
            if (nodes > NODE_LIMIT) {
                exact = false;
                if (best != null) descend();
            }
        }

        private void push(long g) {
            if (count.addTo(g, 1) == 0) union++;
        }

        private void pop(long g) {
            if (count.addTo(g, -1) == 1) union--;
        }

        private void dfs(int i, double mults) {
            if (++nodes > NODE_LIMIT) return;
            if (union > budget) return;
            if (i == slots.size()) {
                if (better(union, mults)) {
                    bestKeys = union;
                    bestCost = mults;
                    best = choice.clone();
                }
                return;
            }
            if (!mayBeat(union, mults + minRestCost[i])) return;
            List<Candidate> cands = slots.get(i).cands;
            for (int c = 0; c < cands.size(); c++) {
                Candidate x = cands.get(c);
                for (long g : x.keys) push(g);
                choice[i] = c;
                dfs(i + 1, mults + x.cost);
                for (long g : x.keys) pop(g);
            }
        }

        private boolean better(int keys, double mults) {
            if (keysFirst) return keys < bestKeys || (keys == bestKeys && mults < bestCost);
            return mults < bestCost || (mults == bestCost && keys < bestKeys);
        }

        /** The union only grows and the multiplications only add: a partial choice is a lower bound. */
        private boolean mayBeat(int keys, double mults) {
            if (keysFirst) return keys < bestKeys || (keys == bestKeys && mults < bestCost);
            return mults < bestCost || (mults == bestCost && keys < bestKeys);
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
                        for (int k = 0; k < trial.length; k++)
                            mults += slots.get(k).cands.get(trial[k]).cost;
                        if (keys <= budget && better(keys, mults)) {
                            best = trial;
                            bestKeys = keys;
                            bestCost = mults;
                            improved = true;
                        }
                    }
                }
            }
        }

        private int unionSize(int[] ch) {
            LongAVLTreeSet s = new LongAVLTreeSet(fixed);
            for (int k = 0; k < ch.length; k++) for (long g : slots.get(k).cands.get(ch[k]).keys) s.add(g);
            return s.size();
        }

        Search smallestUnion() {
            Search s = new Search(slots, fixed, Integer.MAX_VALUE, true);
            s.run();
            return s;
        }
    }
}
