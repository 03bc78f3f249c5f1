package io.hoist.lt.dft;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.KeySizes;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import java.util.Collection;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A plan for every matrix of a {@link HomomorphicDft} and the exact Galois keys they need, the
 * conjugation of CoeffsToSlots included. Known before anything is encoded. Immutable.
 *
 * @param exact whether the planner proved the choice optimal for its objective (joint search within its node limit)
 */
public record DftPlan(HomomorphicDft dft, CkksParameters params, List<Plan> plans, boolean exact) {
    public DftPlan {
        plans = ImmutableList.copyOf(plans);
        if (plans.size() != dft.depth())
            throw new InvalidTransformException(dft.depth() + " matrices but " + plans.size() + " plans");
        if (params.slots() != dft.ciphertextSlots() || params.logN() != dft.logN()) {
            throw new InvalidTransformException(dft + " needs logN " + dft.logN() + " and " + dft.ciphertextSlots()
                    + " slots; the parameters have logN " + params.logN() + " and " + params.slots() + " slots");
        }
        if (dft.levels().get(0) > params.maxLevel()) {
            throw new LevelMismatchException(dft + " starts at level "
                    + dft.levels().get(0) + "; the parameters' top level is " + params.maxLevel());
        }
        for (int i = 0; i < plans.size(); i++) {
            Plan p = plans.get(i);
            var m = dft.matrices().get(i);
            if (p.dimension() != m.dimension() || !p.indices().equals(m.diagonalIndices())) {
                throw new InvalidTransformException("plan " + i + " (" + p + ") was made for another matrix than " + m);
            }
        }
    }

    /** Whether the output needs a conjugation key (CoeffsToSlots splits real and imaginary parts by conjugation). */
    public boolean needsConjugation() {
        return dft.kind() == HomomorphicDft.Kind.COEFFS_TO_SLOTS;
    }

    /** The Galois elements of matrix i's plan. */
    public SortedSet<Long> galoisElements(int i) {
        return plans.get(i).rotationKeys(params);
    }

    /** The union of every matrix's keys, plus the conjugation where needed. */
    public SortedSet<Long> galoisElements() {
        TreeSet<Long> all = new TreeSet<>();
        for (Plan p : plans) all.addAll(p.rotationKeys(params));
        if (needsConjugation()) all.add(params.galoisElementForConjugation());
        return ImmutableSortedSet.copyOf(all);
    }

    /** The closed-form counts of matrix i at its level. */
    public Cost cost(int i, Storage storage) {
        return plans.get(i).cost(params, dft.levels().get(i), storage);
    }

    /** Bytes of the union's switching keys, each generated at the DFT's top level (full and seeded). */
    public KeySizes keySizes() {
        return keySizes(params, galoisElements().size(), dft.levels().get(0));
    }

    static KeySizes keySizes(CkksParameters params, int keys, int level) {
        KeySizes one = KeySizes.switchingKey(params.beta(level), level + 1 + params.alpha(), params.n());
        return new KeySizes(one.fullBytes() * keys, one.seededBytes() * keys);
    }

    /** The union of the keys of several plans (e.g. CoeffsToSlots and SlotsToCoeffs sharing one key set). */
    public static SortedSet<Long> union(Collection<DftPlan> plans) {
        TreeSet<Long> all = new TreeSet<>();
        for (DftPlan p : plans) all.addAll(p.galoisElements());
        return ImmutableSortedSet.copyOf(all);
    }
}
