package io.hoist.ring;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;

/**
 * Operation counters. Incremented once per limb or per polynomial, never per coefficient, so they
 * stay on in production; thread-safe. A counter set may have a parent that receives every
 * increment too: an evaluation counts into its own set ({@link #child()}) while the engine's set
 * stays the sum over all evaluations, so concurrent evaluations each see exactly their own counts.
 *
 * <p>Code that counts into the engine's set through many layers (the evaluator's operations, the ring's
 * transforms) gets its own counts with {@link #count}: every increment made while it runs, on its thread and on the
 * engine's workers running its parallel sections, is added to a fresh set too (a {@link ScopedValue}, re-bound in
 * each worker), so a polynomial evaluation or a bootstrap reports its own work even while others run on the same
 * context. Scopes nest: an inner one's counts reach the outer one's set as well.
 */
public final class OpCounters {
    /** The set of the innermost {@link #count} running on this thread; its parents are the enclosing scopes' sets. */
    static final ScopedValue<OpCounters> SCOPE = ScopedValue.newInstance();

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
        // a scope's sets are made by count() alone, never an engine's or an evaluation's: no increment lands twice
        if (SCOPE.isBound()) for (OpCounters c = SCOPE.get(); c != null; c = c.parent) c.counts.getAndAdd(i, amount);
    }

    /** A value and the counts made while computing it. */
    public record Counted<T>(T value, Map<Op, Long> counts) {}

    /**
     * Runs {@code work} and returns its result with every count made meanwhile on this thread and by the engine
     * workers that run its parallel sections, into whichever counter sets (see the class comment).
     */
    public static <T> Counted<T> count(Supplier<T> work) {
        OpCounters sink = new OpCounters(scope());
        T value = ScopedValue.where(SCOPE, sink).call(work::get);
        return new Counted<>(value, sink.snapshot());
    }

    /** The innermost scope's set on this thread, or null (for a worker to re-bind). */
    static OpCounters scope() {
        return SCOPE.isBound() ? SCOPE.get() : null; // orElse refuses a null default
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
