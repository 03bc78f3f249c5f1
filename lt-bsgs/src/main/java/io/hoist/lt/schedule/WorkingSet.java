package io.hoist.lt.schedule;

import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;

/**
 * The resident working set of the phased executor: which limbs of which objects (buffers, digits,
 * keys, diagonals, twiddle tables, scratch) are held hot, against a budget in bytes. Every limb that
 * enters from the backing store ({@link #load}) or leaves for it ({@link #evict} of a limb computed
 * or changed here) is recorded in the traffic ledger under the current phase; a limb already
 * resident is not read again. On a CPU the data never leave the heap: this is the account of what a
 * scratchpad of {@code budget} bytes would move under the executor's loop order (docs/schedule.md).
 */
final class WorkingSet {
    static final int BUF = 1, KEY = 2, DIAG = 3, TWF = 4, TWI = 5;

    /** One tracked object: its limbs' residency and dirtiness. */
    static final class Obj {
        final LedgerKind kind;
        final long unit;
        final int limbs;
        final long[] resident;
        final long[] dirty;

        Obj(LedgerKind kind, long unit, int limbs) {
            this.kind = kind;
            this.unit = unit;
            this.limbs = limbs;
            this.resident = new long[(limbs + 63) >>> 6];
            this.dirty = new long[(limbs + 63) >>> 6];
        }

        boolean isResident(int j) {
            return (resident[j >>> 6] & (1L << j)) != 0;
        }
    }

    private final long budget;
    private final TrafficLedger.Builder ledger = new TrafficLedger.Builder();
    private final Long2ObjectOpenHashMap<Obj> objs = new Long2ObjectOpenHashMap<>();
    private long resident;
    private int phase;

    WorkingSet(long budget) {
        this.budget = budget;
    }

    static long key(int type, int id, int poly) {
        return ((long) type << 56) | ((long) (id & 0xFFFFFFFFL) << 16) | (poly & 0xFFFF);
    }

    /** The tracked object for {@code key}, created on first use with {@code limbs} limbs of {@code unit} bytes. */
    Obj obj(long key, LedgerKind kind, long unit, int limbs) {
        Obj o = objs.get(key);
        if (o == null) {
            o = new Obj(kind, unit, limbs);
            objs.put(key, o);
        }
        return o;
    }

    /** An on-chip-only object nobody looks up again: tracked while resident, never kept in the map (a product walks millions). */
    Obj scratch(LedgerKind kind, long unit, int limbs) {
        return new Obj(kind, unit, limbs);
    }

    void beginPhase(int p) {
        if (resident != 0) throw new IllegalStateException("phase " + phase + " left " + resident + " bytes resident");
        phase = p;
    }

    void endPhase() {
        if (resident != 0) throw new IllegalStateException("phase " + phase + " left " + resident + " bytes resident");
    }

    void iteration() {
        ledger.iterations(phase, 1);
    }

    /** Brings limbs [from, to) in; those not resident are read from the backing store. */
    void load(Obj o, int from, int to) {
        to = Math.min(to, o.limbs);
        for (int j = from; j < to; j++) {
            if (o.isResident(j)) continue;
            o.resident[j >>> 6] |= 1L << j;
            resident += o.unit;
            ledger.read(phase, o.kind, o.unit);
        }
        check();
    }

    /** Limbs [from, to) computed here: resident and dirty, nothing read. */
    void produce(Obj o, int from, int to) {
        to = Math.min(to, o.limbs);
        for (int j = from; j < to; j++) {
            if (!o.isResident(j)) {
                o.resident[j >>> 6] |= 1L << j;
                resident += o.unit;
            }
            o.dirty[j >>> 6] |= 1L << j;
        }
        check();
    }

    /** Sends limbs [from, to) out: dirty ones are written to the backing store. */
    void evict(Obj o, int from, int to) {
        to = Math.min(to, o.limbs);
        for (int j = from; j < to; j++) {
            if (!o.isResident(j)) continue;
            if ((o.dirty[j >>> 6] & (1L << j)) != 0) ledger.write(phase, o.kind, o.unit);
            clear(o, j);
        }
    }

    /** Forgets limbs [from, to) without writing them (inputs used up, scratch). */
    void drop(Obj o, int from, int to) {
        to = Math.min(to, o.limbs);
        for (int j = from; j < to; j++) if (o.isResident(j)) clear(o, j);
    }

    private void clear(Obj o, int j) {
        o.resident[j >>> 6] &= ~(1L << j);
        o.dirty[j >>> 6] &= ~(1L << j);
        resident -= o.unit;
    }

    private void check() {
        ledger.peak(phase, resident);
        if (resident > budget) { // a grouping too large for the caller's budget: the caller's to fix, so typed
            throw new WorkingSetTooSmallException(
                    "the schedule holds " + resident + " bytes in phase " + phase + ", over its budget of " + budget
                            + " bytes",
                    budget,
                    resident);
        }
    }

    TrafficLedger ledger() {
        return ledger.build();
    }
}
