package io.hoist.ckks;

import io.hoist.math.ModArith;
import io.hoist.ring.BConv;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.NttTables;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;

/**
 * Hybrid key switching as explicit, separately counted steps (spec lt-algorithms §2.4–2.5):
 * {@link #decompose} (ModUp of every digit into QP), {@link #innerProduct} (⟨D, SWK⟩ over QP with
 * lazy reduction), {@link #modDown} (QP → Q, one polynomial) and {@link #modDownRescale}
 * (drop {q_ℓ} ∪ P in one step). Every NTT is one batched backend call per polynomial or digit.
 * Stateless apart from the shared context: safe to use from several threads.
 */
public final class KeySwitcher {
    private final CkksContext ctx;
    private final Ring rq;
    private final Ring rp;
    private final OpCounters counters;
    private final LimbKernels kernels;

    public KeySwitcher(CkksContext ctx) {
        this.ctx = ctx;
        this.rq = ctx.ringQ();
        this.rp = ctx.ringP();
        this.counters = ctx.counters();
        this.kernels = ctx.engine().kernels();
    }

    /**
     * Decompose(c): the β digits of c ∈ R_{Q_ℓ} (NTT), each raised to QP by BConv and returned in the
     * NTT domain. The digit's own limbs are copied from the input; the others are converted from
     * the coefficient form (one INTT of all limbs) and transformed in one batch per digit.
     */
    public PolyQP[] decompose(RnsPoly c) {
        if (c.domain() != Domain.NTT) throw new WrongOperandException("Decompose expects an NTT-domain polynomial");
        int level = c.level();
        int beta = ctx.params().beta(level);
        int alpha = ctx.alpha();
        RnsPoly coeff = c.copy();
        rq.intt(coeff);
        PolyQP[] digits = new PolyQP[beta];
        for (int t = 0; t < beta; t++) {
            int s = ctx.digitStart(t), e = ctx.digitEnd(t, level);
            PolyQP d = PolyQP.zero(ctx, level, Domain.NTT);
            int others = level + 1 - (e - s);
            long[][] out = new long[others + alpha][];
            NttTables[] tables = new NttTables[others + alpha];
            int o = 0;
            for (int j = 0; j <= level; j++) {
                if (j < s || j >= e) { out[o] = d.q().limb(j); tables[o++] = rq.tables(j); }
            }
            for (int j = 0; j < alpha; j++) { out[o] = d.p().limb(j); tables[o++] = rp.tables(j); }
            long[][] in = new long[e - s][];
            for (int j = s; j < e; j++) in[j - s] = coeff.limb(j);
            BConv conv = ctx.decomposeConv(level, t);
            conv.apply(in, out, ctx.n(), counters, kernels);
            ctx.engine().forward(out, tables, out.length);
            for (int j = s; j < e; j++) System.arraycopy(c.limb(j), 0, d.q().limb(j), 0, ctx.n());
            digits[t] = d;
        }
        counters.increment(Op.DECOMPOSE);
        counters.add(Op.LIMBS_READ, c.limbCount());
        counters.add(Op.LIMBS_WRITTEN, (long) beta * (level + 1 + alpha));
        return digits;
    }

    /**
     * (T0, T1) = (Σ_t D_t ⊙ SWK[t].b, Σ_t D_t ⊙ SWK[t].a) over Q_ℓ·P, NTT; the key may sit at a higher
     * level than the digits (its first ℓ+1 Q limbs are used).
     */
    public PolyQP[] innerProduct(PolyQP[] digits, SwitchingKey key) {
        int level = digits[0].level();
        checkKey(key, level);
        int beta = digits.length;
        PolyQP t0 = PolyQP.zero(ctx, level, Domain.NTT), t1 = PolyQP.zero(ctx, level, Domain.NTT);
        long[][] x = new long[beta][], y = new long[beta][], z = new long[beta][];
        for (int i = 0; i <= level; i++) {
            for (int t = 0; t < beta; t++) { x[t] = digits[t].q().limb(i); y[t] = key.b(t).q().limb(i); z[t] = key.a(t).q().limb(i); }
            kernels.dot2Montgomery(x, y, z, beta, t0.q().limb(i), t1.q().limb(i), rq.prime(i), false);
        }
        for (int j = 0; j < ctx.alpha(); j++) {
            for (int t = 0; t < beta; t++) { x[t] = digits[t].p().limb(j); y[t] = key.b(t).p().limb(j); z[t] = key.a(t).p().limb(j); }
            kernels.dot2Montgomery(x, y, z, beta, t0.p().limb(j), t1.p().limb(j), rp.prime(j), false);
        }
        int limbs = level + 1 + ctx.alpha();
        counters.increment(Op.KS_INNER_PRODUCT);
        counters.add(Op.MOD_MULS, 2L * beta * limbs * ctx.n());
        counters.add(Op.LIMBS_READ, 3L * beta * limbs);
        counters.add(Op.LIMBS_WRITTEN, 2L * limbs);
        return new PolyQP[] {t0, t1};
    }

    void checkKey(SwitchingKey key, int level) {
        if (!key.params().equals(ctx.params())) throw new ParameterMismatchException("switching key made under other parameters");
        if (key.level() < level) {
            throw new LevelMismatchException("switching key generated at level " + key.level() + " cannot switch a ciphertext at level " + level);
        }
    }

    /** ModDown: x ∈ R_{Q_ℓ·P} (NTT) → (x − BConv_{P→Q}([x]_P))·P^-1 ∈ R_{Q_ℓ} (NTT). */
    public RnsPoly modDown(PolyQP x) {
        int level = x.level();
        RnsPoly pc = x.p().copy();
        rp.intt(pc);
        RnsPoly conv = rq.newPoly(level, Domain.COEFFICIENT);
        ctx.modDownConv(level).apply(pc.limbs(), conv.limbs(), ctx.n(), counters, kernels);
        rq.ntt(conv);
        RnsPoly out = conv;   // (x − conv)·P^-1 written over conv: element-wise, so in place is safe
        for (int j = 0; j <= level; j++) {
            kernels.subMulShoup(x.q().limb(j), conv.limb(j), out.limb(j), ctx.pInvModQ[j], ctx.pInvModQShoup[j], rq.prime(j));
        }
        counters.increment(Op.MOD_DOWN);
        counters.add(Op.MOD_MULS, (long) (level + 1) * ctx.n());
        counters.add(Op.LIMBS_READ, x.limbCount());
        counters.add(Op.LIMBS_WRITTEN, level + 1);
        return out;
    }

    /**
     * ModDown merged with rescale (spec §2.5): x ∈ R_{Q_ℓ·P} (NTT) →
     * (x − BConv_{{q_ℓ}∪P → Q_{ℓ−1}}([x]_{q_ℓ·P}))·(q_ℓ·P)^-1 ∈ R_{Q_{ℓ−1}}: one BConv and D limb
     * transforms instead of D + (ℓ+1).
     */
    public RnsPoly modDownRescale(PolyQP x) {
        int level = x.level();
        if (level == 0) throw new LevelMismatchException("cannot rescale a level-0 polynomial");
        int alpha = ctx.alpha();
        long[][] src = new long[1 + alpha][];
        NttTables[] srcT = new NttTables[1 + alpha];
        src[0] = x.q().limb(level).clone();
        srcT[0] = rq.tables(level);
        for (int j = 0; j < alpha; j++) { src[1 + j] = x.p().limb(j).clone(); srcT[1 + j] = rp.tables(j); }
        ctx.engine().inverse(src, srcT, src.length);
        RnsPoly conv = rq.newPoly(level - 1, Domain.COEFFICIENT);
        ctx.modDownRescaleConv(level).apply(src, conv.limbs(), ctx.n(), counters, kernels);
        rq.ntt(conv);
        RnsPoly out = conv;
        for (int j = 0; j < level; j++) {
            kernels.subMulShoup(x.q().limb(j), conv.limb(j), out.limb(j), ctx.qpLastInv[level][j], ctx.qpLastInvShoup[level][j], rq.prime(j));
        }
        counters.increment(Op.MOD_DOWN);
        counters.add(Op.MOD_MULS, (long) level * ctx.n());
        counters.add(Op.LIMBS_READ, x.limbCount());
        counters.add(Op.LIMBS_WRITTEN, level);
        return out;
    }

    /** Rescale of one Q polynomial (NTT): divide by q_ℓ with rounding, drop the last limb. */
    public RnsPoly rescale(RnsPoly x) {
        int level = x.level();
        if (level == 0) throw new LevelMismatchException("cannot rescale a level-0 ciphertext");
        if (x.domain() != Domain.NTT) throw new WrongOperandException("rescale expects an NTT-domain polynomial");
        long ql = rq.prime(level);
        long[][] last = {x.limb(level).clone()};
        ctx.engine().inverse(last, new NttTables[] {rq.tables(level)}, 1);
        // centered residue of the last limb modulo every other prime: (v + h mod q_ℓ) mod q_j − h, h = ⌊q_ℓ/2⌋,
        // which rounds the division instead of flooring it; branch-free and vectorized
        long half = ql >>> 1;
        long[] shifted = last[0];
        for (int k = 0; k < shifted.length; k++) {
            long v = shifted[k] + half;
            shifted[k] = v >= ql ? v - ql : v;
        }
        RnsPoly conv = rq.newPoly(level - 1, Domain.COEFFICIENT);
        for (int j = 0; j < level; j++) {
            long q = rq.prime(j);
            long ws = ModArith.shoupQuotient(1, q);   // v mod q as the Shoup product v·1
            long h = ModArith.mulShoup(half, 1, ws, q);
            long[] dst = conv.limb(j);
            kernels.mulShoup(shifted, 1, ws, q, dst, 0, dst.length);
            for (int k = 0; k < dst.length; k++) {
                long d = dst[k] - h;
                dst[k] = d < 0 ? d + q : d;
            }
        }
        rq.ntt(conv);
        RnsPoly out = conv;
        for (int j = 0; j < level; j++) {
            kernels.subMulShoup(x.limb(j), conv.limb(j), out.limb(j), ctx.qLastInv[level][j], ctx.qLastInvShoup[level][j], rq.prime(j));
        }
        counters.add(Op.MOD_MULS, (long) level * ctx.n());
        return out;
    }

    /** In place: every residue x → x·2^64 mod q (Montgomery form, as switching keys and encoded diagonals are held). */
    public void toMontgomery(PolyQP x) {
        toMontgomery(x.q(), rq);
        toMontgomery(x.p(), rp);
    }

    private void toMontgomery(RnsPoly p, Ring ring) {
        for (int i = 0; i < p.limbCount(); i++) {
            long q = ring.prime(i), r = ModArith.montgomeryR(q);
            kernels.mulShoup(p.limb(i), r, ModArith.shoupQuotient(r, q), q, p.limb(i), 0, p.n());
        }
    }

    /** out = a + b over QP (out may alias a or b). */
    public void add(PolyQP a, PolyQP b, PolyQP out) {
        rq.add(a.q(), b.q(), out.q());
        rp.add(a.p(), b.p(), out.p());
    }

    /** φ_g over QP into a new polynomial (NTT domain: an index permutation, no arithmetic). */
    public PolyQP automorphism(PolyQP x, long g) {
        PolyQP out = PolyQP.zero(ctx, x.level(), x.q().domain());
        rq.automorphism(x.q(), g, out.q());
        rp.automorphism(x.p(), g, out.p());
        return out;
    }

    /**
     * Lazy key switch then permutation (spec §2.4): (φ_g(a + ⟨D, SWK.b⟩), φ_g(⟨D, SWK.a⟩)) over QP —
     * a hoisted rotation without ModDown when a = P·c_0, and the middle/outer steps of
     * Algorithms 1–2 otherwise.
     */
    public PolyQP[] switchAndPermute(PolyQP[] digits, PolyQP a, GaloisKey key) {
        PolyQP[] t = innerProduct(digits, key.key());
        if (a != null) add(t[0], a, t[0]);
        return new PolyQP[] {automorphism(t[0], key.galoisElement()), automorphism(t[1], key.galoisElement())};
    }

    /** P·c over QP: c's limbs times [P]_{q_j}; the P limbs are zero. */
    public PolyQP timesP(RnsPoly c) {
        PolyQP out = PolyQP.zero(ctx, c.level(), c.domain());
        for (int j = 0; j <= c.level(); j++) {
            long w = ctx.pModQ[j], q = rq.prime(j), ws = ModArith.shoupQuotient(w, q);
            long[] src = c.limb(j), dst = out.q().limb(j);
            for (int k = 0; k < src.length; k++) dst[k] = ModArith.mulShoup(src[k], w, ws, q);
        }
        counters.add(Op.MOD_MULS, (long) c.limbCount() * ctx.n());
        return out;
    }
}
