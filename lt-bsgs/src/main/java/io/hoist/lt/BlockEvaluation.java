package io.hoist.lt;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.hoist.ckks.Ciphertext;
import io.hoist.ring.Op;

/** A block product's output ciphertexts (one per block row) and this evaluation's own counts. */
public record BlockEvaluation(ImmutableList<Ciphertext> outputs, ImmutableMap<Op, Long> counts) {}
