package io.hoist.ring;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Operation counters. Incremented once per limb or per polynomial, never per coefficient, so they
 * stay on in production; thread-safe. A counter set may have a parent that receives every
 * increment too: an evaluation counts into its own set ({@link #child()}) while the engine's set
 * stays the sum over all evaluations, so concurrent evaluations each see exactly their own counts.
 */
public final class OpCounters {
    private static final int OPS = Op.values().length;
    // one atomic add per call rather than LongAdders: counts move once per limb, so two threads rarely
    // meet on them, and LongAdder's fast path branches on whether a fresh (per-evaluation) set has met
    // contention yet: callers compiled before one had were deoptimized at their first contended add
    // (docs/benchmarks.md, "Counters without LongAdder")
    private final AtomicLongArray counts = new AtomicLongArray(OPS);
    private final OpCounters parent;

    public OpCounters() {
        this(null);
    }

    private OpCounters(OpCounters parent) {
        this.parent = parent;
    }

    /** A fresh counter set whose increments are also added to this one. */
    public OpCounters child() {
        return new OpCounters(this);
    }

    public void add(Op op, long amount) {
        int i = op.ordinal();
        for (OpCounters c = this; c != null; c = c.parent) c.counts.getAndAdd(i, amount);
    }

    public void increment(Op op) {
        add(op, 1);
    }

    public long get(Op op) {
        return counts.get(op.ordinal());
    }

    /** Resets this set only (not its parent). */
    public void reset() {
        for (int i = 0; i < OPS; i++) counts.set(i, 0);
    }

    /** An immutable reading of every counter. */
    public Map<Op, Long> snapshot() {
        EnumMap<Op, Long> m = new EnumMap<>(Op.class);
        for (Op op : Op.values()) m.put(op, get(op));
        return Collections.unmodifiableMap(m);
    }

    /** Counts accumulated since {@code before} (a snapshot taken earlier). */
    public Map<Op, Long> since(Map<Op, Long> before) {
        EnumMap<Op, Long> m = new EnumMap<>(Op.class);
        for (Op op : Op.values()) m.put(op, get(op) - before.getOrDefault(op, 0L));
        return Collections.unmodifiableMap(m);
    }
}
