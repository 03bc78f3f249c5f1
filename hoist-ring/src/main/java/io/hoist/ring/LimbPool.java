package io.hoist.ring;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * A pool of limb arrays ({@code long[N]}), in the spirit of Lattigo's {@code ring/ringqp} buffer
 * pool: kernels write into arrays the caller borrowed here and gave back when done, so a warm
 * evaluation allocates (almost) nothing and touches no fresh pages. Thread-safe; arrays come back
 * with arbitrary contents unless {@link #getZeroed()} is used.
 *
 * <p>{@link #outstanding()} counts arrays handed out and not yet returned or {@link #detach detached}: a leak
 * test checks it returns to its starting value after an evaluation, even one that failed. The pool knows every
 * array it has handed out (by identity), so a second return of the same array, or one it never
 * handed out, throws instead of letting two borrowers share one array later.
 */
public final class LimbPool {
    private final int n;
    private final ArrayDeque<long[]> free = new ArrayDeque<>();
    /** Arrays out, by identity; an IdentityHashMap never shrinks, so a warm evaluation's returns allocate nothing. */
    private final Set<long[]> borrowed = Collections.newSetFromMap(new IdentityHashMap<>());

    private long created;
    private long outstanding;
    private long peakOutstanding;

    public LimbPool(int n) {
        if (n <= 0) throw new IllegalArgumentException("limb length must be positive: " + n);
        this.n = n;
    }

    /** Coefficients per limb. */
    public int n() {
        return n;
    }

    /** A limb array with arbitrary contents. */
    public synchronized long[] get() {
        long[] a = free.pollLast();
        if (a == null) {
            a = new long[n];
            created++;
        }
        borrowed.add(a);
        outstanding++;
        peakOutstanding = Math.max(peakOutstanding, outstanding);
        return a;
    }

    /** A limb array of zeros. */
    public long[] getZeroed() {
        long[] a = get();
        Arrays.fill(a, 0L);
        return a;
    }

    /** {@code count} arrays with arbitrary contents. */
    public long[][] get(int count) {
        long[][] out = new long[count][];
        for (int i = 0; i < count; i++) out[i] = get();
        return out;
    }

    /**
     * Takes an array back; null is ignored. The caller must not use it afterwards.
     *
     * @throws IllegalStateException if the array is not out of this pool (returned twice, or never borrowed here)
     */
    public synchronized void put(long[] a) {
        if (a == null) return;
        if (a.length != n)
            throw new IllegalArgumentException("limb of length " + a.length + " returned to a pool of length " + n);
        if (!borrowed.remove(a)) {
            throw new IllegalStateException(
                    "a limb array was returned to the pool twice, or was never borrowed from it (it would be handed to two borrowers)");
        }
        outstanding--;
        free.addLast(a);
    }

    /**
     * Lets a borrowed array go for good: the pool forgets it and will not take it back (a result built in pooled
     * limbs that leaves for a caller, who keeps it as long as it likes). The garbage collector reclaims it later.
     *
     * @throws IllegalArgumentException if the array is null or not a limb of this pool's length
     * @throws IllegalStateException if the array is not out of this pool
     */
    public synchronized void detach(long[] a) {
        if (a == null || a.length != n)
            throw new IllegalArgumentException("only a limb of length " + n + " can be detached from this pool");
        if (!borrowed.remove(a))
            throw new IllegalStateException("a limb array that is not out of this pool cannot be detached from it");
        outstanding--;
    }

    public void put(long[][] limbs) {
        if (limbs == null) return;
        for (long[] a : limbs) put(a);
    }

    /**
     * Grows the pool to hold at least {@code count} arrays (idle and lent), allocating the difference;
     * never shrinks it (two concurrent reservations may both allocate: the pool then holds more). A
     * caller that knows its live set ahead (an encoded transform's program) pays the allocation here,
     * so its first run borrows instead of allocating, as later runs do.
     *
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public void reserve(long count) {
        if (count < 0) throw new IllegalArgumentException("cannot reserve a negative number of limbs: " + count);
        long missing;
        synchronized (this) {
            missing = count - free.size() - outstanding;
        }
        if (missing <= 0) return;
        // allocated (and zeroed) outside the lock: hundreds of limbs of 512 KB would stall every borrower
        long[][] fresh = new long[Math.toIntExact(missing)][];
        for (int i = 0; i < fresh.length; i++) fresh[i] = new long[n];
        synchronized (this) {
            for (long[] a : fresh) free.addLast(a);
            created += fresh.length;
        }
    }

    /** Arrays handed out and not yet returned. */
    public synchronized long outstanding() {
        return outstanding;
    }

    /** Largest number of arrays out at once since creation (or the last {@link #trim}). */
    public synchronized long peakOutstanding() {
        return peakOutstanding;
    }

    /** Arrays ever allocated by this pool. */
    public synchronized long created() {
        return created;
    }

    /** Arrays idle in the pool. */
    public synchronized int idle() {
        return free.size();
    }

    /** Bytes held by the pool (idle and outstanding). */
    public synchronized long retainedBytes() {
        return 8L * n * (free.size() + outstanding);
    }

    /** Drops the idle arrays (the garbage collector may then reclaim them). */
    public synchronized void trim() {
        free.clear();
        peakOutstanding = outstanding;
    }
}
