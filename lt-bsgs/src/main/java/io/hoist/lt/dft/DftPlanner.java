package io.hoist.lt.dft;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.planning.JointPlanner;
import it.unimi.dsi.fastutil.longs.LongOpenHashSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Chooses a plan for every matrix of one or several homomorphic DFTs: per matrix by an
 * {@link Objective}, Lattigo's BSGS ratio rule, or jointly over all matrices so that they share
 * rotation keys — the fewest keys in the union (conjugation included), or the fewest modular
 * multiplications with the union within a key budget.
 *
 * <p>The joint search is {@link io.hoist.lt.planning.JointPlanner}'s branch and bound over each matrix's
 * non-dominated splits, with Galois elements as keys and the §6.2 multiplications as cost.
 */
public final class DftPlanner {
    private DftPlanner() {}

    /** Each matrix on its own: {@code algorithm} (null: any) with the best split under {@code objective}. */
    public static DftPlan perMatrix(
            HomomorphicDft dft, CkksParameters params, Algorithm algorithm, Objective objective, int keyBudget) {
        List<Plan> plans = new ArrayList<>();
        for (int i = 0; i < dft.depth(); i++) {
            var m = dft.matrices().get(i);
            plans.add(Plan.autoForIndices(
                    m.dimension(), m.diagonalIndices(), params, dft.levels().get(i), algorithm, objective, keyBudget));
        }
        return new DftPlan(dft, params, ImmutableList.copyOf(plans), true);
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
        return new DftPlan(dft, params, ImmutableList.copyOf(plans), true);
    }

    /** Lattigo's N1 for a diagonal index set of dimension n (spec §9.2). */
    public static int lattigoN1(Collection<Integer> diags, int n, int logRatio) {
        if (logRatio < 0 || logRatio > 30) // 1 << 32 would wrap to 1
        throw new InvalidTransformException("logRatio must be in [0, 30], got " + logRatio);
        double maxRatio = 1 << logRatio;
        for (int n1 = 1; n1 < n; n1 <<= 1) {
            LongOpenHashSet giant = new LongOpenHashSet(), baby = new LongOpenHashSet();
            for (int r : diags) {
                giant.add((long) (r / n1) * n1);
                baby.add(r % n1);
            }
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
    public static List<DftPlan> joint(
            List<HomomorphicDft> dfts, CkksParameters params, Algorithm algorithm, Objective objective, int keyBudget) {
        if (objective == Objective.FEWEST_MULTS)
            return dfts.stream()
                    .map(d -> perMatrix(d, params, algorithm, objective, keyBudget))
                    .toList();
        List<MatrixSpec> specs = new ArrayList<>();
        boolean conj = false;
        for (HomomorphicDft d : dfts) {
            conj |= d.kind() == HomomorphicDft.Kind.COEFFS_TO_SLOTS;
            for (int i = 0; i < d.depth(); i++)
                specs.add(new MatrixSpec(
                        d.matrices().get(i).dimension(),
                        d.matrices().get(i).diagonalIndices(),
                        d.levels().get(i)));
        }
        JointChoice jc = joint(specs, conj, params, algorithm, objective, keyBudget);
        List<DftPlan> out = new ArrayList<>();
        int k = 0;
        for (HomomorphicDft d : dfts) {
            out.add(new DftPlan(d, params, ImmutableList.copyOf(jc.plans().subList(k, k + d.depth())), jc.exact()));
            k += d.depth();
        }
        return out;
    }

    /** One matrix to plan: its dimension, diagonal indices and level (the matrices need not be built). */
    public record MatrixSpec(int dimension, Set<Integer> indices, int level) {
        public MatrixSpec {
            indices = ImmutableSortedSet.copyOf(indices);
        }
    }

    /** Joint plans in the order of the specs, and whether the search proved them optimal. */
    public record JointChoice(List<Plan> plans, boolean exact) {
        public JointChoice {
            plans = List.copyOf(plans);
        }
    }

    /**
     * {@link #joint(List, CkksParameters, Algorithm, Objective, int)} on bare index sets, with the
     * conjugation key counted in the union when {@code conjugation}: for studies at sizes whose
     * matrices are too large to build.
     */
    public static JointChoice joint(
            List<MatrixSpec> specs,
            boolean conjugation,
            CkksParameters params,
            Algorithm algorithm,
            Objective objective,
            int keyBudget) {
        for (MatrixSpec m : specs) {
            if (m.level() < 1 || m.level() > params.maxLevel())
                throw new LevelMismatchException(
                        "a matrix at level " + m.level() + " is outside [1, " + params.maxLevel() + "]");
        }
        if (objective == Objective.FEWEST_MULTS) {
            List<Plan> plans = new ArrayList<>();
            for (MatrixSpec m : specs)
                plans.add(Plan.autoForIndices(
                        m.dimension(), m.indices(), params, m.level(), algorithm, objective, keyBudget));
            return new JointChoice(plans, true);
        }
        List<List<JointPlanner.Candidate>> cands = new ArrayList<>();
        for (MatrixSpec m : specs) {
            List<JointPlanner.Candidate> c = new ArrayList<>();
            for (Plan p : Plan.candidates(m.dimension(), m.indices(), algorithm)) {
                c.add(new JointPlanner.Candidate(
                        p,
                        p.rotationKeys(params).stream()
                                .mapToLong(Long::longValue)
                                .toArray(),
                        p.cost(params, m.level(), Storage.PRECOMPUTED).modMuls()));
            }
            cands.add(c);
        }
        long[] fixed = conjugation ? new long[] {params.galoisElementForConjugation()} : new long[0];
        JointPlanner.Choice ch = JointPlanner.choose(
                cands,
                fixed,
                objective == Objective.FEWEST_KEYS ? Integer.MAX_VALUE : keyBudget,
                objective == Objective.FEWEST_KEYS);
        return new JointChoice(ch.plans(), ch.exact());
    }
}
