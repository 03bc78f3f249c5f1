package io.hoist.ckks;

import io.hoist.ring.Domain;
import io.hoist.ring.LimbPool;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import it.unimi.dsi.fastutil.objects.ReferenceOpenHashSet;
import java.util.Objects;

/**
 * The ciphertexts one computation makes and consumes itself (a polynomial's powers and partial sums, EvalMod's
 * double angles), in limbs borrowed from the evaluator's pool and given back as each one dies, so that a warm
 * computation allocates little more than its output. Lattigo's evaluators keep such buffers inside the evaluator;
 * SEAL passes a memory pool handle. Made by {@link Evaluator#scratch()} and filled by the evaluator's operations
 * that take it; {@link #release} gives one ciphertext back, {@link #keep} lets one leave (the computation's
 * output), {@link #close} gives back everything still held, also after a failure.
 *
 * <p>A ciphertext made in scratch is an ordinary immutable {@link Ciphertext} until it is released; after that its
 * limbs belong to someone else, so it (and every view of it at a lower level) must not be read again. Only
 * ciphertexts nobody else has seen belong here. Not thread-safe: one per computation and thread (the pool behind it
 * is shared and thread-safe).
 */
public final class Scratch implements AutoCloseable {
    private final Ring ring;
    private final LimbPool pool;
    /** The limb arrays borrowed and not yet given back or let go, by identity. */
    private final ReferenceOpenHashSet<long[]> held = new ReferenceOpenHashSet<>();

    private boolean closed;

    Scratch(Ring ring, LimbPool pool) {
        this.ring = ring;
        this.pool = pool;
    }

    /** Whether this scratch borrows from {@code p} (an evaluator checks that the scratch is its own). */
    boolean drawsFrom(LimbPool p) {
        return pool == p;
    }

    /** A polynomial of pooled limbs with arbitrary contents: the caller overwrites every coefficient. */
    RnsPoly newPoly(int level) {
        live();
        long[][] limbs = new long[level + 1][];
        try {
            for (int j = 0; j <= level; j++) {
                limbs[j] = pool.get();
                held.add(limbs[j]);
            }
        } catch (RuntimeException | Error e) {
            for (long[] a : limbs) if (a != null && held.remove(a)) pool.put(a);
            throw e;
        }
        return ring.wrap(limbs, Domain.NTT);
    }

    /** Gives one limb back early (the top limb a rescale drops). */
    void give(long[] limb) {
        if (held.remove(limb)) pool.put(limb);
    }

    /**
     * Gives back the limbs of {@code c}, made in this scratch; neither it nor any view of it may be read
     * afterwards. A view at a lower level gives back only the limbs it reads (the rest go at {@link #close}).
     *
     * @throws IllegalStateException if a limb of {@code c} is not held here (given back already, let go, or never
     *     made in this scratch); nothing is given back then
     */
    public void release(Ciphertext c) {
        letGo(c, true);
    }

    /**
     * Lets {@code c}, made in this scratch, leave it: its limbs are no longer pooled and are the caller's for as
     * long as it likes (the computation's output). Returns {@code c}.
     *
     * @throws IllegalStateException if a limb of {@code c} is not held here
     */
    public Ciphertext keep(Ciphertext c) {
        letGo(c, false);
        return c;
    }

    /** Whether every limb of {@code c} is held here (it was made in this scratch and is still alive). */
    public boolean holds(Ciphertext c) {
        Objects.requireNonNull(c, "c is null");
        for (int i = 0; i <= c.degree(); i++) {
            RnsPoly p = c.poly(i, RawAccess.get());
            for (int j = 0; j <= p.level(); j++) if (!held.contains(p.limb(j))) return false;
        }
        return true;
    }

    /** Limb arrays held (borrowed and not yet given back or let go). */
    public int heldLimbs() {
        return held.size();
    }

    /** Gives back everything still held; a second call does nothing. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        for (long[] a : held) pool.put(a);
        held.clear();
    }

    /** Every limb {@code c} reads back to the pool, or out of it for good; checked first, so a refusal moves none. */
    private void letGo(Ciphertext c, boolean toPool) {
        live();
        if (!holds(c))
            throw new IllegalStateException("a ciphertext " + (toPool ? "released" : "kept")
                    + " from scratch must have been made there and be alive: a limb of it is not held here");
        for (int i = 0; i <= c.degree(); i++) {
            RnsPoly p = c.poly(i, RawAccess.get());
            for (int j = 0; j <= p.level(); j++) {
                long[] a = p.limb(j);
                held.remove(a);
                if (toPool) pool.put(a);
                else pool.detach(a);
            }
        }
    }

    private void live() {
        if (closed) throw new IllegalStateException("this scratch is closed");
    }
}
