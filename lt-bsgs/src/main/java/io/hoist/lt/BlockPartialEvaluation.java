package io.hoist.lt;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.hoist.ring.Op;
import java.util.List;
import java.util.Map;

/** The first half of a split block product: one partial per block row touched, and this half's own counts. */
public record BlockPartialEvaluation(List<BlockRowPartial> partials, Map<Op, Long> counts) {
    public BlockPartialEvaluation {
        partials = ImmutableList.copyOf(partials);
        counts = ImmutableMap.copyOf(counts);
    }
}
