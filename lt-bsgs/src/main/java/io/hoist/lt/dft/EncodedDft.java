package io.hoist.lt.dft;

import com.google.common.collect.ImmutableList;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.plan.InvalidTransformException;
import java.util.List;

/** A {@link DftPlan}'s matrices encoded at their levels, ready to evaluate. Immutable. */
public record EncodedDft(DftPlan plan, List<EncodedTransform> matrices) {
    public EncodedDft {
        matrices = ImmutableList.copyOf(matrices);
        if (matrices.size() != plan.plans().size())
            throw new InvalidTransformException(
                    plan.plans().size() + " plans but " + matrices.size() + " encoded matrices");
    }

    public HomomorphicDft dft() {
        return plan.dft();
    }

    /** Bytes held by the encoded diagonals of all matrices. */
    public long memoryBytes() {
        return matrices.stream().mapToLong(EncodedTransform::memoryBytes).sum();
    }
}
