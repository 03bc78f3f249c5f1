package io.hoist.lt;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.hoist.ckks.Ciphertext;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.TrafficLedger;
import io.hoist.ring.Op;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A block product's output ciphertexts (one per block row) and this evaluation's own counts; on the
 * six-phase schedule also the grouping it ran with and its traffic ledger (summed over the blocks).
 */
public record BlockEvaluation(
        List<Ciphertext> outputs, Map<Op, Long> counts, Optional<Grouping> grouping, Optional<TrafficLedger> traffic) {

    public BlockEvaluation {
        outputs = ImmutableList.copyOf(Objects.requireNonNull(outputs, "outputs"));
        counts = ImmutableMap.copyOf(Objects.requireNonNull(counts, "counts"));
        Objects.requireNonNull(grouping, "grouping");
        Objects.requireNonNull(traffic, "traffic");
    }

    /** The direct schedule's result: no grouping, no ledger. */
    public BlockEvaluation(List<Ciphertext> outputs, Map<Op, Long> counts) {
        this(outputs, counts, Optional.empty(), Optional.empty());
    }
}
