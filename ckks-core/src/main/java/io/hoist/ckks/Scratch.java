package io.hoist.ckks;

import io.hoist.ring.Domain;
import io.hoist.ring.LimbPool;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import it.unimi.dsi.fastutil.objects.Reference2IntOpenHashMap;
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
 * limbs belong to someone else, so neither it nor anything that shares limbs with it may be read again: a view at a
 * lower level ({@link Evaluator#atLevel}), {@link Ciphertext#withScale}, or the result of an operation that shares a
 * polynomial with its operand ({@link Evaluator#addConstant} and the plaintext {@code add}/{@code sub} share the
 * second). Only ciphertexts nobody else has seen belong here. A {@link MutableCiphertext} made here is spent when the
 * scratch closes. The evaluator's operations in place ({@link Evaluator#sumAndDifferenceInPlace},
 * {@link Evaluator#mulByIInPlace}) take ciphertexts made here and spend them the same way: their results are new
 * ciphertexts over the same limbs. A transform's result can be made here too
 * ({@code LinearTransformEvaluator.evaluate(…, scratch)}, through {@link #newPoly}). Bootstrapping runs its
 * polynomial, EvalMod and each DFT in one.
 *
 * <p>Its bookkeeping is thread-safe, so code that runs a computation's steps on several threads may make their
 * results here (the locks are uncontended and cost nothing measurable). Which ciphertext is dead is the computation's
 * knowledge, so one computation owns a scratch; two computations running side by side (EvalMod's halves) take one
 * each. The pool behind it is shared and thread-safe.
 */
public final class Scratch implements AutoCloseable {
    private final Ring ring;
    private final LimbPool pool;
    /** The limb arrays borrowed and not yet given back or let go, by identity. */
    private final ReferenceOpenHashSet<long[]> held = new ReferenceOpenHashSet<>();
    /** Each polynomial made here, by its first limb: how many limbs it holds now (a rescale drops one). */
    private final Reference2IntOpenHashMap<long[]> sizes = new Reference2IntOpenHashMap<>();

    private boolean closed;

    Scratch(Ring ring, LimbPool pool) {
        this.ring = ring;
        this.pool = pool;
    }

    /**
     * Checks that this scratch is open and makes polynomials of {@code r} (the same degree and primes): what every
     * operation that takes a scratch checks first, before any work.
     *
     * @throws WrongOperandException if it was made for another ring
     * @throws IllegalStateException if it is closed
     */
    public synchronized void requireOpenFor(Ring r) {
        if (!ring.sameAs(r))
            throw new WrongOperandException("the scratch was made for other parameters (another ring)");
        live();
    }

    /**
     * A polynomial at {@code level} in the NTT domain, of pooled limbs with arbitrary contents: for code that makes a
     * ciphertext's polynomials itself (a transform's output) and overwrites every coefficient. The limbs are held here
     * until the ciphertext made of them is released or kept.
     *
     * @throws IllegalStateException if the scratch is closed
     */
    public synchronized RnsPoly newPoly(int level) {
        live();
        if (level < 0 || level > ring.maxLevel())
            throw new LevelMismatchException("level " + level + " outside [0, " + ring.maxLevel() + "]");
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
        sizes.put(limbs[0], level + 1);
        return ring.wrap(limbs, Domain.NTT);
    }

    /**
     * A copy of {@code c} (any ciphertext of this ring) made here: for a result computed in one scratch that must
     * outlive it in another (EvalMod's halves, each on its own thread, hand their results to the bootstrap's).
     *
     * @throws WrongOperandException if c is of another ring
     * @throws IllegalStateException if the scratch is closed
     */
    public Ciphertext copy(Ciphertext c) {
        Objects.requireNonNull(c, "c is null");
        RnsPoly[] out = new RnsPoly[c.degree() + 1];
        for (int i = 0; i < out.length; i++) {
            RnsPoly p = c.poly(i, RawAccess.get());
            if (!p.ring().sameAs(ring)) throw new WrongOperandException("a ciphertext of another ring");
            out[i] = newPoly(p.level());
            p.copyTo(out[i]);
        }
        return Ciphertext.wrap(RawAccess.get(), c.params(), c.scale(), out);
    }

    /** Gives back the top limb of {@code p}, made here, which a rescale has just dropped. */
    synchronized void dropTop(RnsPoly p) {
        live();
        long[] top = p.limb(p.level());
        if (sizes.getInt(p.limb(0)) != p.limbCount() || !held.remove(top))
            throw new IllegalStateException("a rescale dropped a limb this scratch does not hold");
        sizes.put(p.limb(0), p.limbCount() - 1);
        pool.put(top);
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /**
     * Gives back the limbs of {@code c}, made in this scratch; neither it nor anything sharing its limbs may be read
     * afterwards.
     *
     * @throws IllegalStateException if {@code c} is not a whole ciphertext alive here (given back already, let go,
     *     made elsewhere, or a view at a lower level of one made here), or the scratch is closed; nothing is given
     *     back then
     */
    public synchronized void release(Ciphertext c) {
        letGo(c, true);
    }

    /**
     * Lets {@code c}, made in this scratch, leave it: its limbs are no longer pooled and are the caller's for as
     * long as it likes (the computation's output). Returns {@code c}.
     *
     * @throws IllegalStateException as {@link #release} does
     */
    public synchronized Ciphertext keep(Ciphertext c) {
        letGo(c, false);
        return c;
    }

    /**
     * Whether {@code c} is a whole ciphertext alive here: every polynomial made in this scratch, with all the limbs
     * it holds (a view at a lower level is not).
     */
    public synchronized boolean holds(Ciphertext c) {
        Objects.requireNonNull(c, "c is null");
        for (int i = 0; i <= c.degree(); i++) {
            RnsPoly p = c.poly(i, RawAccess.get());
            if (sizes.getInt(p.limb(0)) != p.limbCount()) return false;
            for (int j = 0; j <= p.level(); j++) if (!held.contains(p.limb(j))) return false;
        }
        return true;
    }

    /** Limb arrays held (borrowed and not yet given back or let go). */
    public synchronized int heldLimbs() {
        return held.size();
    }

    /** Gives back everything still held; a second call does nothing. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        for (long[] a : held) pool.put(a);
        held.clear();
        sizes.clear();
    }

    /** Every limb {@code c} reads back to the pool, or out of it for good; checked first, so a refusal moves none. */
    private void letGo(Ciphertext c, boolean toPool) {
        live();
        if (!holds(c))
            throw new IllegalStateException("a ciphertext " + (toPool ? "released" : "kept")
                    + " from scratch must be a whole one made there and alive (not a view at a lower level)");
        for (int i = 0; i <= c.degree(); i++) {
            RnsPoly p = c.poly(i, RawAccess.get());
            sizes.removeInt(p.limb(0));
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
