package io.hoist.lt.dft;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.hoist.ckks.Ciphertext;
import io.hoist.ring.Op;
import java.util.List;
import java.util.Map;

/**
 * The output of a homomorphic DFT with this evaluation's counts: per matrix, and for the final
 * real/imaginary split (one conjugation for CoeffsToSlots, nothing keyed for SlotsToCoeffs).
 * CoeffsToSlots outputs [Re, Im] (dense) or one ciphertext [Re | Im] (sparse); SlotsToCoeffs one.
 */
public record DftResult(List<Ciphertext> outputs, List<Map<Op, Long>> matrixCounts, Map<Op, Long> splitCounts) {
    public DftResult {
        outputs = ImmutableList.copyOf(outputs);
        matrixCounts =
                matrixCounts.stream().<Map<Op, Long>>map(ImmutableMap::copyOf).collect(ImmutableList.toImmutableList());
        splitCounts = ImmutableMap.copyOf(splitCounts);
    }

    /** The sum over the matrices and the split. */
    public long total(Op op) {
        long s = splitCounts.getOrDefault(op, 0L);
        for (var m : matrixCounts) s += m.getOrDefault(op, 0L);
        return s;
    }
}
