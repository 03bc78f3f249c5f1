package io.hoist.lt;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.hoist.ring.Op;

/** The first half of a split block product: one partial per block row touched, and this half's own counts. */
public record BlockPartialEvaluation(ImmutableList<BlockRowPartial> partials, ImmutableMap<Op, Long> counts) {}
