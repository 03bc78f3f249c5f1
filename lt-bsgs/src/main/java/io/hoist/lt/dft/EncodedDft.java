package io.hoist.lt.dft;

import com.google.common.collect.ImmutableList;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.plan.InvalidTransformException;
import java.util.List;
import java.util.Objects;

/**
 * A {@link DftPlan}'s matrices encoded at their levels, ready to evaluate. Immutable. Made only by {@link
 * DftEvaluator#encode}: matrices encoded from another DFT of the same shape (another scale) would pass every check an
 * evaluation can make and give a wrong answer, so they cannot be paired with a plan by hand.
 */
public final class EncodedDft {
    private final DftPlan plan;
    private final List<EncodedTransform> matrices;

    EncodedDft(DftPlan plan, List<EncodedTransform> matrices) {
        this.plan = Objects.requireNonNull(plan, "plan is null");
        this.matrices = ImmutableList.copyOf(matrices);
        if (this.matrices.size() != plan.plans().size())
            throw new InvalidTransformException(
                    plan.plans().size() + " plans but " + this.matrices.size() + " encoded matrices");
    }

    public DftPlan plan() {
        return plan;
    }

    public List<EncodedTransform> matrices() {
        return matrices;
    }

    public HomomorphicDft dft() {
        return plan.dft();
    }

    /** Bytes held by the encoded diagonals of all matrices. */
    public long memoryBytes() {
        return matrices.stream().mapToLong(EncodedTransform::memoryBytes).sum();
    }

    @Override
    public String toString() {
        return "EncodedDft[" + matrices.size() + " matrices, " + memoryBytes() + " bytes]";
    }
}
