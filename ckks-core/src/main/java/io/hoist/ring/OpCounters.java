package io.hoist.ring;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Operation counters of one engine. Incremented once per limb or per polynomial, never per
 * coefficient, so they stay on in production; thread-safe.
 */
public final class OpCounters {
    private final LongAdder[] counts = new LongAdder[Op.values().length];

    public OpCounters() {
        for (int i = 0; i < counts.length; i++) counts[i] = new LongAdder();
    }

    public void add(Op op, long amount) {
        counts[op.ordinal()].add(amount);
    }

    public void increment(Op op) {
        counts[op.ordinal()].increment();
    }

    public long get(Op op) {
        return counts[op.ordinal()].sum();
    }

    public void reset() {
        for (LongAdder c : counts) c.reset();
    }

    /** An immutable reading of every counter. */
    public Map<Op, Long> snapshot() {
        EnumMap<Op, Long> m = new EnumMap<>(Op.class);
        for (Op op : Op.values()) m.put(op, get(op));
        return java.util.Collections.unmodifiableMap(m);
    }

    /** Counts accumulated since {@code before} (a snapshot taken earlier). */
    public Map<Op, Long> since(Map<Op, Long> before) {
        EnumMap<Op, Long> m = new EnumMap<>(Op.class);
        for (Op op : Op.values()) m.put(op, get(op) - before.getOrDefault(op, 0L));
        return java.util.Collections.unmodifiableMap(m);
    }
}
