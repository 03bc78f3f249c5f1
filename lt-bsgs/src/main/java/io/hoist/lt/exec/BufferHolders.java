package io.hoist.lt.exec;

import io.hoist.ckks.PolyQP;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import java.util.ArrayDeque;

/**
 * The holders ({@link PolyQP}, its parts and their limb arrays, emptied) of pooled buffers an evaluation gave
 * back, by shape, for the next evaluation of the same engine to fill with pooled limbs again: the limbs come
 * from the pool, and without this the holders were made anew per buffer per evaluation (about 250 bytes per
 * key switch; the diagonal method's 4095 at n13). Thread-safe: chains of small steps open and release
 * buffers on several threads.
 */
final class BufferHolders {
    private final Int2ObjectOpenHashMap<ArrayDeque<PolyQP>> free = new Int2ObjectOpenHashMap<>();

    /** An emptied holder of {@code qLimbs} Q limbs (and P limbs unless {@code qOnly}), or null when none is kept. */
    synchronized PolyQP poll(boolean qOnly, int qLimbs) {
        ArrayDeque<PolyQP> d = free.get(shape(qOnly, qLimbs));
        return d == null ? null : d.pollLast();
    }

    /** Keeps {@code p}, whose limb arrays are back in their pool and its slots emptied. */
    synchronized void add(PolyQP p) {
        free.computeIfAbsent(shape(p.isQOnly(), p.q().limbCount()), k -> new ArrayDeque<>())
                .addLast(p);
    }

    private static int shape(boolean qOnly, int qLimbs) {
        return 2 * qLimbs + (qOnly ? 1 : 0);
    }
}
