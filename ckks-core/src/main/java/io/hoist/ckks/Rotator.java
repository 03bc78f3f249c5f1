package io.hoist.ckks;

import io.hoist.ring.Domain;
import io.hoist.ring.LimbPool;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import it.unimi.dsi.fastutil.ints.IntOpenHashSet;
import it.unimi.dsi.fastutil.ints.IntSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ObjIntConsumer;

/**
 * The rotations of {@link Evaluator} (operands checked there): one automorphism with its key switch,
 * or several sharing one Decompose (hoisting), the temporaries borrowed from the evaluator's pool.
 */
final class Rotator {
    private final CkksContext ctx;
    private final CkksParameters params;
    private final Ring rq;
    private final KeySwitcher ks;
    private final RotationKeySet rotations;
    private final LimbPool pool;

    Rotator(CkksContext ctx, KeySwitcher ks, RotationKeySet rotations, LimbPool pool) {
        this.ctx = ctx;
        this.params = ctx.params();
        this.rq = ctx.ringQ();
        this.ks = ks;
        this.rotations = rotations;
        this.pool = pool;
    }

    /** Left rotation of the slots by k (negative k rotates right). */
    Ciphertext rotate(Ciphertext a, int k) {
        if (Math.floorMod(k, params.slots()) == 0) return a.copy();
        return automorphismPooled(a, rotations.forRotation(k));
    }

    /** The automorphism X → X^g (its key looked up by g). */
    Ciphertext automorphism(Ciphertext a, long g) {
        return automorphismPooled(a, rotations.get(g, "Galois element " + g));
    }

    /** Complex conjugation of every slot. */
    Ciphertext conjugate(Ciphertext a) {
        return automorphismPooled(a, rotations.get(params.galoisElementForConjugation(), "conjugation"));
    }

    /** Rotations by every k in {@code ks}, sharing one Decompose (hoisting). */
    Map<Integer, Ciphertext> rotateHoisted(Ciphertext a, int... steps) {
        Map<Integer, Ciphertext> out = new LinkedHashMap<>();
        rotateHoisted(a, steps, (ct, k) -> out.put(k, ct));
        return out;
    }

    /** Each distinct step's rotation handed to {@code each} as soon as it is made, in the order of {@code steps}. */
    void rotateHoisted(Ciphertext a, int[] steps, ObjIntConsumer<Ciphertext> each) {
        for (int k : steps) { // every key first, so a missing one is named before any work
            if (Math.floorMod(k, params.slots()) != 0) rotations.forRotation(k);
        }
        IntSet done = new IntOpenHashSet();
        PolyQP[] digits = null;
        try {
            for (int k : steps) {
                if (!done.add(k)) continue;
                if (Math.floorMod(k, params.slots()) == 0) {
                    each.accept(a.copy(), k);
                    continue;
                }
                if (digits == null) digits = decomposePooled(a.poly(1, RawAccess.get()));
                each.accept(automorphism(a, digits, rotations.forRotation(k)), k);
            }
        } finally {
            release(digits);
        }
    }

    PolyQP[] decomposePooled(RnsPoly c) {
        PolyQP[] d = new PolyQP[params.beta(c.level())];
        try {
            for (int t = 0; t < d.length; t++) d[t] = PolyQP.borrow(ctx, pool, c.level(), Domain.NTT);
            ks.decompose(c, d, pool, ctx.counters());
        } catch (RuntimeException | Error e) { // e.g. an interrupted parallel NTT: the digits go back
            for (PolyQP x : d) if (x != null) x.release(pool);
            throw e;
        }
        return d;
    }

    void release(PolyQP[] digits) {
        if (digits != null) for (PolyQP d : digits) d.release(pool);
    }

    private Ciphertext automorphismPooled(Ciphertext a, GaloisKey key) {
        PolyQP[] digits = decomposePooled(a.poly(1, RawAccess.get()));
        try {
            return automorphism(a, digits, key);
        } finally {
            release(digits);
        }
    }

    /**
     * φ_g(c_0 + ModDown(⟨D, SWK.b⟩)), φ_g(ModDown(⟨D, SWK.a⟩)) from the digits of c_1, g the key's:
     * one key switch, limb by limb, into two new polynomials (temporaries from the pool).
     */
    private Ciphertext automorphism(Ciphertext a, PolyQP[] digits, GaloisKey key) {
        RnsPoly c0 = rq.newPoly(a.level(), Domain.NTT), c1 = rq.newPoly(a.level(), Domain.NTT);
        ks.keySwitch(
                digits, key.key(), key.galoisElement(), a.poly(0, RawAccess.get()), null, c0, c1, pool, ctx.counters());
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), c0, c1);
    }
}
