package io.hoist.lt;

import com.google.common.collect.ImmutableMap;
import io.hoist.ckks.Ciphertext;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.TrafficLedger;
import io.hoist.ring.Op;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of one linear-transform evaluation with its own statistics: the output ciphertext,
 * the operation counts of this evaluation alone (exact even when other evaluations run at the same
 * time on the same evaluator), and, for the phased schedule, the grouping used and the traffic
 * ledger measured while it ran.
 */
public record Evaluation(
        Ciphertext result, Map<Op, Long> counts, Optional<Grouping> grouping, Optional<TrafficLedger> traffic) {
    public Evaluation {
        Objects.requireNonNull(result, "result");
        counts = ImmutableMap.copyOf(Objects.requireNonNull(counts, "counts"));
        Objects.requireNonNull(grouping, "grouping");
        Objects.requireNonNull(traffic, "traffic");
    }

    public long count(Op op) {
        return counts.getOrDefault(op, 0L);
    }
}
