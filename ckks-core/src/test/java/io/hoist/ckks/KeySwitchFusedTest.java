package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.random.Prng;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbPool;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The key switch fused limb by limb, out_i = φ_g(ModDown(⟨D, K_i⟩) + add_i), bit for bit against the
 * steps done one after the other (the whole inner product, two ModDowns into buffers, the ring's
 * addition and automorphism): with and without a permutation and addends, full and seeded keys, a key
 * above the digits' level (down to level 0), one and two threads; its counts against the steps', the
 * pool left as found, the operands it refuses, and the limbs it holds at once. Also the Decompose
 * before it, which prepares its digits in the limbs of its own INTT copy.
 */
class KeySwitchFusedTest {
    @ParameterizedTest(name = "logN {0}, threads {1}, rotation {2}, addends {3}/{4}, {5}, digits {6} below the key")
    @CsvSource({
        "10, 1, 3, true, false, FULL, 0",
        "10, 1, 0, true, true, SEEDED, 0",
        "10, 2, 5, false, false, FULL, 1",
        "11, 2, 0, true, false, SEEDED, 1",
        "11, 1, -1, false, true, FULL, 0",
        "11, 2, -7, true, true, SEEDED, 2",
        "10, 2, 1, true, true, FULL, 4"
    })
    void fusedSwitchEqualsTheSteps(
            int logN, int threads, int rotation, boolean withAdd0, boolean withAdd1, KeyStorage storage, int below) {
        CkksContext ctx = context(logN, threads);
        CkksParameters params = ctx.params();
        KeySwitcher ks = new KeySwitcher(ctx);
        Ring rq = ctx.ringQ();
        SplittableRandom r = new SplittableRandom(logN * 31L + threads * 7L + rotation + below);
        int keyLevel = params.maxLevel(), level = keyLevel - below;
        PolyQP[] b = new PolyQP[params.beta(keyLevel)];
        for (int t = 0; t < b.length; t++) b[t] = random(ctx, keyLevel, r);
        byte[] seed = new byte[Prng.SEED_BYTES];
        for (int i = 0; i < seed.length; i++) seed[i] = (byte) r.nextInt();
        SwitchingKey key = SwitchingKey.seeded(params, b, seed).withStorage(storage);
        PolyQP[] digits = new PolyQP[params.beta(level)];
        for (int t = 0; t < digits.length; t++) digits[t] = random(ctx, level, r);
        RnsPoly add0 = withAdd0 ? random(ctx, level, r).q() : null,
                add1 = withAdd1 ? random(ctx, level, r).q() : null;
        long g = rotation == 0 ? 1 : params.galoisElementForRotation(rotation);

        var before = ctx.counters().snapshot();
        PolyQP[] t = ks.innerProduct(digits, key);
        RnsPoly want0 = step(ks, rq, t[0], add0, g), want1 = step(ks, rq, t[1], add1, g);
        var steps = ctx.counters().since(before);

        RnsPoly got0 = rq.newPoly(level, Domain.NTT), got1 = rq.newPoly(level, Domain.NTT);
        OpCounters c = new OpCounters();
        LimbPool pool = new LimbPool(ctx.n());
        ks.keySwitch(digits, key, g, add0, add1, got0, got1, pool, c);
        for (int j = 0; j <= level; j++) {
            assertArrayEquals(want0.limb(j), got0.limb(j), "out0, limb " + j);
            assertArrayEquals(want1.limb(j), got1.limb(j), "out1, limb " + j);
        }
        for (Op op : Op.values()) { // what the steps count, but for the calls and the permutation's limbs
            if (op != Op.NTT_CALLS && op != Op.AUTOMORPHISM_LIMBS)
                assertEquals(steps.getOrDefault(op, 0L), c.get(op), op.name());
        }
        assertEquals(1, c.get(Op.KS_INNER_PRODUCT));
        assertEquals(2, c.get(Op.MOD_DOWN));
        assertEquals(2L * (level + 1), c.get(Op.NTT_LIMBS));
        assertEquals(2L * params.alpha(), c.get(Op.INTT_LIMBS));
        assertEquals(g == 1 ? 0 : 2L * (level + 1), c.get(Op.AUTOMORPHISM_LIMBS));
        assertEquals(0, pool.outstanding(), "every borrowed limb returned");
        // the inner products are never held whole: two prologues (α + 1 limbs each) and four limbs per thread
        assertTrue(
                pool.peakOutstanding() <= 2L * (params.alpha() + 1) + 4L * threads,
                "limbs held at once: " + pool.peakOutstanding());

        if (g == 1 && add0 != null) { // an unpermuted switch may add into its addend
            RnsPoly inPlace = add0.copy();
            ks.keySwitch(digits, key, g, inPlace, null, inPlace, got1, pool, new OpCounters());
            for (int j = 0; j <= level; j++) assertArrayEquals(want0.limb(j), inPlace.limb(j), "in place, limb " + j);
        }
        if (g != 1 && add0 != null) {
            assertThrows(
                    IllegalArgumentException.class,
                    () -> ks.keySwitch(digits, key, g, add0, null, add0, got1, pool, new OpCounters()));
        }
        if (level > 0) {
            RnsPoly shortAdd = rq.newPoly(level - 1, Domain.NTT);
            assertThrows(
                    LevelMismatchException.class,
                    () -> ks.keySwitch(digits, key, g, shortAdd, null, got0, got1, pool, new OpCounters()));
        }
        assertEquals(0, pool.outstanding(), "nothing borrowed by a refused switch");
    }

    /**
     * Decompose of an NTT-domain polynomial prepares its digits in its INTT copy's limbs: the same digits
     * as from the coefficient form (prepared in borrowed limbs), holding only the copy and a centring
     * row per digit, every limb given back once.
     */
    @ParameterizedTest(name = "logN {0}, threads {1}, {2} levels down")
    @CsvSource({"10, 1, 0", "11, 2, 1", "10, 2, 4"})
    void decomposePreparesInItsCopy(int logN, int threads, int below) {
        CkksContext ctx = context(logN, threads);
        CkksParameters params = ctx.params();
        KeySwitcher ks = new KeySwitcher(ctx);
        int level = params.maxLevel() - below;
        RnsPoly c = random(ctx, level, new SplittableRandom(logN + 17L * below)).q();
        RnsPoly coeff = c.copy();
        ctx.ringQ().intt(coeff);
        int beta = params.beta(level);
        PolyQP[] fromNtt = new PolyQP[beta], fromCoeff = new PolyQP[beta];
        for (int t = 0; t < beta; t++) {
            fromNtt[t] = PolyQP.zero(ctx, level, Domain.NTT);
            fromCoeff[t] = PolyQP.zero(ctx, level, Domain.NTT);
        }
        LimbPool pool = new LimbPool(ctx.n());
        ks.decompose(c, fromNtt, pool, new OpCounters());
        assertEquals(0, pool.outstanding(), "every borrowed limb returned");
        assertTrue(pool.peakOutstanding() <= level + 1 + beta, "limbs held at once: " + pool.peakOutstanding());
        ks.decompose(coeff, fromCoeff, new LimbPool(ctx.n()), new OpCounters());
        for (int t = 0; t < beta; t++)
            for (int j = 0; j < fromNtt[t].limbCount(); j++)
                assertArrayEquals(fromCoeff[t].limb(j), fromNtt[t].limb(j), "digit " + t + ", limb " + j);
    }

    /** Five Q primes and two P primes at N = 2^logN. */
    private static CkksContext context(int logN, int threads) {
        CkksParameters params = CkksParameters.builder()
                .logN(logN)
                .logQ(50, 40, 40, 40, 40)
                .logP(55, 55)
                .scale(0x1p40)
                .allowInsecure()
                .build();
        return CkksContext.create(params, null, threads);
    }

    /** φ_g(ModDown(x) + add), one step after the other. */
    private static RnsPoly step(KeySwitcher ks, Ring rq, PolyQP x, RnsPoly add, long g) {
        RnsPoly m = ks.modDown(x);
        if (add != null) rq.add(m, add, m);
        if (g == 1) return m;
        RnsPoly out = rq.newPoly(x.level(), Domain.NTT);
        rq.automorphism(m, g, out);
        return out;
    }

    private static PolyQP random(CkksContext ctx, int level, SplittableRandom r) {
        PolyQP x = PolyQP.zero(ctx, level, Domain.NTT);
        for (int j = 0; j < x.limbCount(); j++) {
            long q = ctx.primeQP(level, j);
            long[] l = x.limb(j);
            for (int k = 0; k < l.length; k++) l[k] = r.nextLong(q);
        }
        return x;
    }
}
