package io.hoist.lt;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.KeySwitcher;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.Op;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.ints.IntList;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Encodes and evaluates linear transforms by a {@link Plan}. The hoisted algorithms (diagonal,
 * DH-BSGS, TH-BSGS) share one code path, Algorithm 2 of spec §5.2 with block sizes b1 | b2
 * (Algorithm 1 is the case b1 = b2): the line numbers in comments refer to that listing.
 * BSGS runs full rotations with products over Q (§4.2). Thread-safe: holds only immutable state.
 */
public final class LinearTransformEvaluator {
    private final CkksContext ctx;
    private final CkksParameters params;
    private final Encoder encoder;
    private final Evaluator ev;
    private final KeySwitcher ks;
    private final RotationKeySet keys;
    private final LimbKernels kernels;

    public LinearTransformEvaluator(CkksContext ctx, RotationKeySet keys) {
        this.ctx = ctx;
        this.params = ctx.params();
        this.encoder = new Encoder(ctx);
        this.ev = new Evaluator(ctx, null, keys);
        this.ks = ev.keySwitcher();
        this.keys = Objects.requireNonNull(keys, "keys");
        this.kernels = ctx.engine().kernels();
    }

    // ------------------------------------------------------------------ encoding

    /** Encodes the diagonals of {@code t} for {@code plan}, to be applied to ciphertexts at {@code level}. */
    public EncodedTransform encode(LinearTransform t, Plan plan, int level, Storage storage) {
        if (plan.dimension() != t.dimension() || !plan.indices().equals(t.diagonalIndices())) {
            throw new IllegalArgumentException("plan " + plan + " was made for another transform than " + t);
        }
        if (params.slots() % t.dimension() != 0) {
            throw new IllegalArgumentException("transform dimension " + t.dimension() + " does not divide the " + params.slots() + " slots");
        }
        if (level < 1 || level > params.maxLevel()) throw new LevelMismatchException("linear transforms need a ciphertext level in [1, " + params.maxLevel() + "], got " + level);
        double scale = params.q(level);
        boolean overQ = plan.algorithm() == Algorithm.BSGS;
        Int2ObjectOpenHashMap<PolyQP> qp = new Int2ObjectOpenHashMap<>();
        Int2ObjectOpenHashMap<RnsPoly> q = new Int2ObjectOpenHashMap<>();
        Int2ObjectOpenHashMap<long[]> compact = new Int2ObjectOpenHashMap<>();
        for (int r : plan.indices()) {
            int k = plan.outer(r);
            ComplexVector f = t.diagonal(r).rotate(-k);   // pre-rotation: f ⊙ Rot_{k+b}(x) = Rot_k(Rot_{−k}(f) ⊙ Rot_b(x))
            long[] coeffs = encoder.encodeToIntegers(t.replicate(f, params.slots()), scale);
            if (storage == Storage.COMPACT) compact.put(r, coeffs);
            else if (overQ) q.put(r, montgomery(encoder.liftQ(coeffs, level)));
            else qp.put(r, montgomery(encoder.liftQP(coeffs, level)));
        }
        return new EncodedTransform(params, plan, level, scale, storage,
                storage == Storage.PRECOMPUTED && !overQ ? qp : null, storage == Storage.PRECOMPUTED && overQ ? q : null,
                storage == Storage.COMPACT ? compact : null);
    }

    private PolyQP montgomery(PolyQP p) {
        ks.toMontgomery(p);
        return p;
    }

    private RnsPoly montgomery(RnsPoly p) {
        ks.toMontgomery(new PolyQP(p, ctx.ringP().newPoly(0, Domain.NTT)));
        return p;
    }

    // ------------------------------------------------------------------ evaluation

    /** M·x: the output is at level ℓ−1 with the input's scale (Δ·q_ℓ/q_ℓ). */
    public Ciphertext evaluate(Ciphertext ct, EncodedTransform et) {
        check(ct, et);
        if (et.plan().algorithm() == Algorithm.BSGS) return evaluateBsgs(ct, et);
        PolyQP[] d0 = et.plan().needsFirstDecompose() ? ev.decompose(ct) : null;
        return evaluateHoisted(ct, d0, et);
    }

    /**
     * One input under several transforms, sharing the first Decompose (Lattigo's EvaluateMany).
     * Each evaluation owns its buffers, so no result can see another's intermediate values.
     */
    public List<Ciphertext> evaluateMany(Ciphertext ct, List<EncodedTransform> transforms) {
        PolyQP[] d0 = null;
        List<Ciphertext> out = new ArrayList<>();
        for (EncodedTransform et : transforms) {
            check(ct, et);
            if (et.plan().algorithm() == Algorithm.BSGS) { out.add(evaluateBsgs(ct, et)); continue; }
            if (d0 == null && et.plan().needsFirstDecompose()) d0 = ev.decompose(ct);
            out.add(evaluateHoisted(ct, d0, et));
        }
        return out;
    }

    private void check(Ciphertext ct, EncodedTransform et) {
        if (!ct.params().equals(params) || !et.params().equals(params)) throw new ParameterMismatchException("ciphertext or transform made under other parameters");
        if (ct.degree() != 1) throw new io.hoist.ckks.WrongOperandException("linear transforms need a degree-1 ciphertext");
        if (ct.level() != et.level()) {
            throw new LevelMismatchException("transform encoded for level " + et.level() + ", ciphertext at level " + ct.level());
        }
    }

    private GaloisKey key(int rotation) {
        return keys.get(params.galoisElementForRotation(rotation), "rotation by " + rotation);
    }

    /** Algorithm 2 (and 1, and the hoisted diagonal method) with block sizes b1 | b2. */
    private Ciphertext evaluateHoisted(Ciphertext ct, PolyQP[] d0, EncodedTransform et) {
        Plan plan = et.plan();
        int level = ct.level();
        // line 1: D_0 ← Decompose(C'_1) (given); A_0 ← P·C'_0, B_0 ← P·C'_1
        PolyQP a0 = ks.timesP(ct.poly(0)), b0 = ks.timesP(ct.poly(1));
        Int2ObjectOpenHashMap<PolyQP[]> ab = new Int2ObjectOpenHashMap<>();
        ab.put(0, new PolyQP[] {a0, b0});
        // lines 2–4: inner layer, hoisted on D_0, lazy (QP)
        for (int i : plan.innerRotations()) {
            if (i != 0) ab.put(i, ks.switchAndPermute(d0, a0, key(i)));
        }
        // lines 5–7: b'_i ← ModDown(B_i), D_i ← Decompose(b'_i) for the inner indices the middle layer uses
        Int2ObjectOpenHashMap<PolyQP[]> digits = new Int2ObjectOpenHashMap<>();
        digits.put(0, d0);
        for (int i : plan.middleSources()) digits.put(i, ks.decompose(ks.modDown(ab.get(i)[1])));
        // lines 8–11: middle layer, hoisted per i: (A_{j+i}, B_{j+i}) ← φ_{g_j}(A_i + ⟨D_i, SWK_j⟩)
        for (var e : plan.middlePairs().int2ObjectEntrySet()) {
            GaloisKey kj = key(e.getIntKey());
            for (int i : e.getValue()) ab.put(e.getIntKey() + i, ks.switchAndPermute(digits.get(i), ab.get(i)[0], kj));
        }
        digits.clear();
        // lines 12–18: per outer k, U_k = Σ_b F̃_{k,b} ⊙ (A_b, B_b); then the outer rotation
        PolyQP c0 = null, c1 = null;
        for (var g : plan.groups().int2ObjectEntrySet()) {
            int k = g.getIntKey();
            PolyQP[] u = diagonalProducts(g.getValue(), ab, et, plan, level);
            PolyQP u0 = u[0], u1 = u[1];
            if (k != 0) {
                // line 15–16: u_k ← ModDown(U_{1,k}); E_k ← Decompose(u_k); lines 17–18
                PolyQP[] r = ks.switchAndPermute(ks.decompose(ks.modDown(u1)), u0, key(k));
                u0 = r[0];
                u1 = r[1];
            }
            if (c0 == null) { c0 = u0; c1 = u1; }
            else { ks.add(c0, u0, c0); ks.add(c1, u1, c1); }
        }
        // line 19: ModDown merged with rescale: ÷(P·q_ℓ)
        return new Ciphertext(params, ct.scale() * et.scale() / params.q(level), ks.modDownRescale(c0), ks.modDownRescale(c1));
    }

    /** Σ_r F̃_r ⊙ (A_{b(r)}, B_{b(r)}) over QP with lazy Montgomery accumulation (lines 13–14). */
    private PolyQP[] diagonalProducts(IntList rs, Int2ObjectOpenHashMap<PolyQP[]> ab, EncodedTransform et, Plan plan, int level) {
        int terms = rs.size();
        PolyQP[] f = new PolyQP[terms];
        PolyQP[] a = new PolyQP[terms], b = new PolyQP[terms];
        for (int t = 0; t < terms; t++) {
            int r = rs.getInt(t);
            f[t] = et.storage() == Storage.COMPACT ? montgomery(encoder.liftQP(et.compact(r), level)) : et.qp(r);
            PolyQP[] x = ab.get(plan.baby(r));
            a[t] = x[0];
            b[t] = x[1];
        }
        PolyQP u0 = PolyQP.zero(ctx, level, Domain.NTT), u1 = PolyQP.zero(ctx, level, Domain.NTT);
        long[][] xs = new long[terms][], ys = new long[terms][], zs = new long[terms][];
        Ring rq = ctx.ringQ(), rp = ctx.ringP();
        for (int i = 0; i <= level; i++) {
            for (int t = 0; t < terms; t++) { xs[t] = f[t].q().limb(i); ys[t] = a[t].q().limb(i); zs[t] = b[t].q().limb(i); }
            kernels.dot2Montgomery(xs, ys, zs, terms, u0.q().limb(i), u1.q().limb(i), rq.prime(i), false);
        }
        for (int j = 0; j < params.alpha(); j++) {
            for (int t = 0; t < terms; t++) { xs[t] = f[t].p().limb(j); ys[t] = a[t].p().limb(j); zs[t] = b[t].p().limb(j); }
            kernels.dot2Montgomery(xs, ys, zs, terms, u0.p().limb(j), u1.p().limb(j), rp.prime(j), false);
        }
        long limbs = level + 1 + params.alpha();
        ctx.counters().add(Op.PT_MUL, terms);
        ctx.counters().add(Op.MOD_MULS, 2L * terms * limbs * params.n());
        return new PolyQP[] {u0, u1};
    }

    /** BSGS (§4.2): full baby-step rotations, products over Q, full giant-step rotations, rescale. */
    private Ciphertext evaluateBsgs(Ciphertext ct, EncodedTransform et) {
        Plan plan = et.plan();
        int level = ct.level();
        Int2ObjectOpenHashMap<Ciphertext> baby = new Int2ObjectOpenHashMap<>();
        for (int i : plan.innerRotations()) baby.put(i, i == 0 ? ct : ev.rotate(ct, i));
        Ciphertext acc = null;
        Ring rq = ctx.ringQ();
        for (var g : plan.groups().int2ObjectEntrySet()) {
            IntList rs = g.getValue();
            int terms = rs.size();
            RnsPoly u0 = rq.newPoly(level, Domain.NTT), u1 = rq.newPoly(level, Domain.NTT);
            RnsPoly[] f = new RnsPoly[terms];
            for (int t = 0; t < terms; t++) {
                int r = rs.getInt(t);
                f[t] = et.storage() == Storage.COMPACT ? montgomery(encoder.liftQ(et.compact(r), level)) : et.q(r);
            }
            long[][] xs = new long[terms][], ys = new long[terms][], zs = new long[terms][];
            for (int i = 0; i <= level; i++) {
                for (int t = 0; t < terms; t++) {
                    Ciphertext c = baby.get(plan.inner(rs.getInt(t)));
                    xs[t] = f[t].limb(i);
                    ys[t] = c.poly(0).limb(i);
                    zs[t] = c.poly(1).limb(i);
                }
                kernels.dot2Montgomery(xs, ys, zs, terms, u0.limb(i), u1.limb(i), rq.prime(i), false);
            }
            ctx.counters().add(Op.PT_MUL, terms);
            ctx.counters().add(Op.MOD_MULS, 2L * terms * (level + 1) * params.n());
            Ciphertext u = new Ciphertext(params, ct.scale() * et.scale(), u0, u1);
            if (g.getIntKey() != 0) u = ev.rotate(u, g.getIntKey());
            acc = acc == null ? u : ev.add(acc, u);
        }
        return ev.rescale(acc);
    }
}
