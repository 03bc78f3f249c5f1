package io.hoist.lt.exec;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.KeySwitcher;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.Scratch;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.LimbPool;
import io.hoist.ring.NttTables;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import io.hoist.ring.SubringPoly;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import java.util.ArrayList;
import java.util.List;

/**
 * BSGS (spec §4.2) as Halevi–Shoup run it: full baby-step rotations, products over Q, full
 * giant-step rotations, one rescale — the one algorithm that does not run through {@link LtProgram}
 * (it hoists nothing). Also the plain automorphism the facade's conjugation uses. Not for users.
 */
final class BsgsExecutor {
    private final CkksContext ctx;
    private final CkksParameters params;
    private final KeySwitcher ks;
    private final RotationKeySet keys;
    private final LimbKernels kernels;
    private final LimbPool pool;

    BsgsExecutor(CkksContext ctx, KeySwitcher ks, RotationKeySet keys, LimbPool pool) {
        this.ctx = ctx;
        this.params = ctx.params();
        this.ks = ks;
        this.keys = keys;
        this.kernels = ctx.engine().kernels();
        this.pool = pool;
    }

    /**
     * BSGS (§4.2): full baby-step rotations, products over Q, full giant-step rotations, rescale. Every
     * temporary (the babies, a group's sums and its rotation, compact diagonals expanded one limb at a time)
     * is borrowed from the pool and returned: only the result is allocated.
     */
    Ciphertext evaluateBsgs(Ciphertext ct, EncodedDiagonals et, OpCounters c) {
        Plan plan = et.plan();
        int level = ct.level();
        for (int r : plan.rotations()) key(r); // a missing key is named before any work
        Ring rq = ctx.ringQ();
        boolean compact = et.storage() == Storage.COMPACT;
        List<long[][]> borrowed = new ArrayList<>();
        try {
            Int2ObjectOpenHashMap<Ciphertext> baby = new Int2ObjectOpenHashMap<>();
            for (int i : plan.innerRotations())
                baby.put(
                        i, i == 0 ? ct : automorphism(ct, key(i), borrow(level, borrowed), borrow(level, borrowed), c));
            RnsPoly u0 = borrow(level, borrowed), u1 = borrow(level, borrowed);
            RnsPoly r0 = borrow(level, borrowed), r1 = borrow(level, borrowed);
            // the result's limbs: pooled when the rescale writes the result elsewhere
            RnsPoly acc0 = et.rescales() ? borrow(level, borrowed) : rq.newPoly(level, Domain.NTT);
            RnsPoly acc1 = et.rescales() ? borrow(level, borrowed) : rq.newPoly(level, Domain.NTT);
            int most = mostTerms(plan);
            long[][] lifted = compact ? borrowRows(most, borrowed) : null, batch = new long[most][];
            NttTables[] tables = new NttTables[most];
            RnsPoly[] f = new RnsPoly[most];
            SubringPoly[] sub = new SubringPoly[most];
            long[][] words = new long[most][];
            long[][] xs = new long[most][], ys = new long[most][], zs = new long[most][];
            boolean first = true;
            for (var g : plan.groups().entrySet()) {
                List<Integer> rs = g.getValue();
                int terms = rs.size();
                for (int t = 0; t < terms; t++) {
                    int r = rs.get(t);
                    if (compact) {
                        sub[t] = et.subring(r);
                        words[t] = et.compact(r);
                    } else f[t] = et.q(r);
                }
                for (int i = 0; i <= level; i++) {
                    NttTables ti = ctx.tablesQP(level, i);
                    int lift = 0;
                    for (int t = 0; t < terms; t++) {
                        Ciphertext b = baby.get(plan.inner(rs.get(t)));
                        if (compact) {
                            // lifted and, outside a subring, transformed below in one batch
                            DiagonalEncoder.liftLimb(ctx, sub[t], words[t], ti, c, lifted[t]);
                            if (sub[t] == null) {
                                batch[lift] = lifted[t];
                                tables[lift++] = ti;
                            }
                        }
                        xs[t] = compact ? lifted[t] : f[t].limb(i);
                        ys[t] = b.poly(0, RawAccess.get()).limb(i);
                        zs[t] = b.poly(1, RawAccess.get()).limb(i);
                    }
                    if (lift > 0) ctx.engine().forward(batch, tables, lift, c);
                    kernels.dot2Montgomery(xs, ys, zs, terms, u0.limb(i), u1.limb(i), rq.prime(i), false);
                }
                c.add(Op.PT_MUL, terms);
                c.add(Op.MOD_MULS, 2L * terms * (level + 1) * params.n());
                RnsPoly v0 = u0, v1 = u1;
                if (g.getKey() != 0) {
                    Ciphertext u = Ciphertext.wrap(RawAccess.get(), params, ct.scale() * et.scale(), u0, u1);
                    automorphism(u, key(g.getKey()), r0, r1, c);
                    v0 = r0;
                    v1 = r1;
                }
                if (first) {
                    for (int i = 0; i <= level; i++) {
                        System.arraycopy(v0.limb(i), 0, acc0.limb(i), 0, params.n());
                        System.arraycopy(v1.limb(i), 0, acc1.limb(i), 0, params.n());
                    }
                    first = false;
                } else {
                    rq.add(acc0, v0, acc0);
                    rq.add(acc1, v1, acc1);
                }
            }
            if (!et.rescales()) return Ciphertext.wrap(RawAccess.get(), params, ct.scale() * et.scale(), acc0, acc1);
            RnsPoly[] out = {
                ctx.ringQ().newPoly(level - 1, Domain.NTT), ctx.ringQ().newPoly(level - 1, Domain.NTT)
            };
            ks.rescale(new RnsPoly[] {acc0, acc1}, out, pool, c);
            return Ciphertext.wrap(RawAccess.get(), params, ct.scale() * et.scale() / params.q(level), out[0], out[1]);
        } finally {
            for (long[][] limbs : borrowed) pool.put(limbs);
        }
    }

    /**
     * The pooled limbs {@link #evaluateBsgs} holds at once at the last giant step's rotation, a lower bound of its
     * peak: every rotated baby (two polynomials of ℓ + 1 limbs), the group's sums and their rotation, the
     * accumulator when the result is rescaled, a compact group's lifted limbs, and the rotation's digits (β
     * polynomials of ℓ + 1 + α limbs). The key switches' own scratch is left out.
     */
    static long peakLimbs(EncodedDiagonals et, CkksContext ctx) {
        Plan plan = et.plan();
        int level = et.level(), lq = level + 1;
        long babies = plan.innerRotations().stream().filter(i -> i != 0).count();
        long limbs = 2L * lq * babies + 4L * lq + (et.rescales() ? 2L * lq : 0);
        if (et.storage() == Storage.COMPACT) limbs += mostTerms(plan);
        boolean rotates = plan.groups().keySet().stream().anyMatch(k -> k != 0);
        if (rotates) limbs += (long) ctx.params().beta(level) * (lq + ctx.alpha());
        return limbs;
    }

    /** The most terms (diagonals) of one giant step's group. */
    private static int mostTerms(Plan plan) {
        int most = 0;
        for (List<Integer> rs : plan.groups().values()) most = Math.max(most, rs.size());
        return most;
    }

    /** A polynomial at {@code level} on pooled limbs, recorded in {@code borrowed}. */
    private RnsPoly borrow(int level, List<long[][]> borrowed) {
        return ctx.ringQ().wrap(borrowRows(level + 1, borrowed), Domain.NTT);
    }

    private long[][] borrowRows(int count, List<long[][]> borrowed) {
        long[][] limbs = pool.get(count);
        borrowed.add(limbs);
        return limbs;
    }

    GaloisKey key(int rotation) {
        return keys.forRotation(rotation);
    }

    /** A full rotation or conjugation (Decompose, KS-IP, 2 ModDowns, φ) counted in {@code c}, into new limbs. */
    Ciphertext automorphism(Ciphertext a, GaloisKey key, OpCounters c) {
        return automorphism(a, key, c, null);
    }

    /** {@link #automorphism(Ciphertext, GaloisKey, OpCounters)} into limbs of {@code outputs}, or new ones if null. */
    Ciphertext automorphism(Ciphertext a, GaloisKey key, OpCounters c, Scratch outputs) {
        Ring rq = ctx.ringQ();
        int level = a.level();
        // the key switch writes every coefficient of both outputs
        RnsPoly c0 = outputs == null ? rq.newPoly(level, Domain.NTT) : outputs.newPoly(level);
        RnsPoly c1 = outputs == null ? rq.newPoly(level, Domain.NTT) : outputs.newPoly(level);
        return automorphism(a, key, c0, c1, c);
    }

    /** {@link #automorphism(Ciphertext, GaloisKey, OpCounters)} into c0, c1 (at a's level), wrapped. */
    private Ciphertext automorphism(Ciphertext a, GaloisKey key, RnsPoly c0, RnsPoly c1, OpCounters c) {
        int level = a.level();
        PolyQP[] digits = new PolyQP[params.beta(level)];
        for (int t = 0; t < digits.length; t++) digits[t] = PolyQP.borrow(ctx, pool, level, Domain.NTT);
        try {
            ks.decompose(a.poly(1, RawAccess.get()), digits, pool, c);
            ks.keySwitch(digits, key.key(), key.galoisElement(), a.poly(0, RawAccess.get()), null, c0, c1, pool, c);
            return Ciphertext.wrap(RawAccess.get(), params, a.scale(), c0, c1);
        } finally {
            for (PolyQP d : digits) d.release(pool);
        }
    }
}
