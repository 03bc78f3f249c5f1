package io.hoist.ring;

import java.util.Objects;

/** Base of CPU backends that transform one limb at a time: validation and statistics live here once. */
abstract class LimbNttBackend implements NttBackend {
    private final NttStats stats = new NttStats();

    abstract void forwardLimb(long[] a, NttTables t);

    abstract void inverseLimb(long[] a, NttTables t);

    @Override
    public final void forward(long[][] limbs, NttTables[] tables, int count) {
        run(limbs, tables, count, true);
    }

    @Override
    public final void inverse(long[][] limbs, NttTables[] tables, int count) {
        run(limbs, tables, count, false);
    }

    private void run(long[][] limbs, NttTables[] tables, int count, boolean forward) {
        checkBatch(this, limbs, tables, count);
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            if (forward) forwardLimb(limbs[i], tables[i]);
            else inverseLimb(limbs[i], tables[i]);
        }
        if (count > 0) stats.record(count, tables[0].n(), System.nanoTime() - start);
    }

    /**
     * Limbs [from, to) of a batch already checked by the caller, without statistics: the unit of work
     * when {@link NttEngine} spreads one batch over threads (each limb is independent, so the result
     * is bit-identical to one thread).
     */
    final void runRange(long[][] limbs, NttTables[] tables, int from, int to, boolean forward) {
        for (int i = from; i < to; i++) {
            if (forward) forwardLimb(limbs[i], tables[i]);
            else inverseLimb(limbs[i], tables[i]);
        }
    }

    /** Statistics of a batch that {@link NttEngine} ran through {@link #runRange} on several threads. */
    final void recordBatch(int count, int n, long nanos) {
        stats.record(count, n, nanos);
    }

    /** Shape checks shared by every backend: a bad batch is a typed error, never a wrong answer. */
    static void checkBatch(NttBackend backend, long[][] limbs, NttTables[] tables, int count) {
        Objects.requireNonNull(limbs, "limbs");
        Objects.requireNonNull(tables, "tables");
        if (count < 0 || count > limbs.length || count > tables.length) {
            throw new IllegalArgumentException("batch of " + count + " limbs, but " + limbs.length + " limbs and "
                    + tables.length + " tables given");
        }
        for (int i = 0; i < count; i++) {
            // the messages only when thrown: concatenated eagerly, they cost every batch a string or two
            NttTables t = tables[i];
            if (t == null) throw new NullPointerException("tables[" + i + "]");
            long[] a = limbs[i];
            if (a == null) throw new NullPointerException("limbs[" + i + "]");
            if (a.length != t.n()) {
                throw new IllegalArgumentException(
                        "limb " + i + " has " + a.length + " coefficients, tables are for N=" + t.n());
            }
            if (!backend.accepts(t)) {
                throw new UnsupportedPrimeException(backend.name(), t.q(), t.logN());
            }
        }
    }

    @Override
    public final NttStats stats() {
        return stats;
    }

    @Override
    public String toString() {
        return name();
    }
}
