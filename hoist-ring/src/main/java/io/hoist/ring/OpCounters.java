package io.hoist.ring;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Operation counters. Incremented once per limb or per polynomial, never per coefficient, so they
 * stay on in production; thread-safe. A counter set may have a parent that receives every
 * increment too: an evaluation counts into its own set ({@link #child()}) while the engine's set
 * stays the sum over all evaluations, so concurrent evaluations each see exactly their own counts.
 */
public final class OpCounters {
    private final LongAdder[] counts = new LongAdder[Op.values().length];
    private final OpCounters parent;

    public OpCounters() {
        this(null);
    }

    private OpCounters(OpCounters parent) {
        this.parent = parent;
        for (int i = 0; i < counts.length; i++) counts[i] = new LongAdder();
    }

    /** A fresh counter set whose increments are also added to this one. */
    public OpCounters child() {
        return new OpCounters(this);
    }

    public void add(Op op, long amount) {
        counts[op.ordinal()].add(amount);
        if (parent != null) parent.add(op, amount);
    }

    public void increment(Op op) {
        add(op, 1);
    }

    public long get(Op op) {
        return counts[op.ordinal()].sum();
    }

    /** Resets this set only (not its parent). */
    public void reset() {
        for (LongAdder c : counts) c.reset();
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
