package io.hoist.lt.exec;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.KeySwitcher;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.RotationKeySet;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.LimbPool;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
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

    /** BSGS (§4.2): full baby-step rotations, products over Q, full giant-step rotations, rescale. */
    Ciphertext evaluateBsgs(Ciphertext ct, EncodedDiagonals et, OpCounters c) {
        Plan plan = et.plan();
        int level = ct.level();
        for (int r : plan.rotations()) key(r); // a missing key is named before any work
        Int2ObjectOpenHashMap<Ciphertext> baby = new Int2ObjectOpenHashMap<>();
        for (int i : plan.innerRotations()) baby.put(i, i == 0 ? ct : rotate(ct, i, c));
        RnsPoly acc0 = null, acc1 = null;
        Ring rq = ctx.ringQ();
        for (var g : plan.groups().entrySet()) {
            List<Integer> rs = g.getValue();
            int terms = rs.size();
            RnsPoly u0 = rq.newPoly(level, Domain.NTT), u1 = rq.newPoly(level, Domain.NTT);
            RnsPoly[] f = new RnsPoly[terms];
            for (int t = 0; t < terms; t++) {
                int r = rs.get(t);
                f[t] = et.storage() == Storage.COMPACT
                        ? rq.wrap(DiagonalEncoder.liftMontgomery(ctx, et.compact(r), level, level + 1, c), Domain.NTT)
                        : et.q(r);
            }
            long[][] xs = new long[terms][], ys = new long[terms][], zs = new long[terms][];
            for (int i = 0; i <= level; i++) {
                for (int t = 0; t < terms; t++) {
                    Ciphertext b = baby.get(plan.inner(rs.get(t)));
                    xs[t] = f[t].limb(i);
                    ys[t] = b.poly(0, RawAccess.get()).limb(i);
                    zs[t] = b.poly(1, RawAccess.get()).limb(i);
                }
                kernels.dot2Montgomery(xs, ys, zs, terms, u0.limb(i), u1.limb(i), rq.prime(i), false);
            }
            c.add(Op.PT_MUL, terms);
            c.add(Op.MOD_MULS, 2L * terms * (level + 1) * params.n());
            Ciphertext u = Ciphertext.wrap(RawAccess.get(), params, ct.scale() * et.scale(), u0, u1);
            if (g.getKey() != 0) u = rotate(u, g.getKey(), c);
            if (acc0 == null) {
                acc0 = u.poly(0, RawAccess.get());
                acc1 = u.poly(1, RawAccess.get());
            } else {
                rq.add(acc0, u.poly(0, RawAccess.get()), acc0);
                rq.add(acc1, u.poly(1, RawAccess.get()), acc1);
            }
        }
        if (!et.rescales()) return Ciphertext.wrap(RawAccess.get(), params, ct.scale() * et.scale(), acc0, acc1);
        RnsPoly[] out = {ctx.ringQ().newPoly(level - 1, Domain.NTT), ctx.ringQ().newPoly(level - 1, Domain.NTT)};
        ks.rescale(new RnsPoly[] {acc0, acc1}, out, pool, c);
        return Ciphertext.wrap(RawAccess.get(), params, ct.scale() * et.scale() / params.q(level), out[0], out[1]);
    }

    GaloisKey key(int rotation) {
        return keys.forRotation(rotation);
    }

    /** A full rotation (Decompose, KS-IP, 2 ModDowns, φ) counted in {@code c}. */
    Ciphertext rotate(Ciphertext a, int k, OpCounters c) {
        return automorphism(a, key(k), c);
    }

    Ciphertext automorphism(Ciphertext a, GaloisKey key, OpCounters c) {
        int level = a.level();
        PolyQP[] digits = new PolyQP[params.beta(level)];
        for (int t = 0; t < digits.length; t++) digits[t] = PolyQP.borrow(ctx, pool, level, Domain.NTT);
        try {
            ks.decompose(a.poly(1, RawAccess.get()), digits, pool, c);
            Ring rq = ctx.ringQ();
            RnsPoly c0 = rq.newPoly(level, Domain.NTT), c1 = rq.newPoly(level, Domain.NTT);
            ks.keySwitch(digits, key.key(), key.galoisElement(), a.poly(0, RawAccess.get()), null, c0, c1, pool, c);
            return Ciphertext.wrap(RawAccess.get(), params, a.scale(), c0, c1);
        } finally {
            for (PolyQP d : digits) d.release(pool);
        }
    }
}
