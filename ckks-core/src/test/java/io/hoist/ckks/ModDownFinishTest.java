package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.ring.Automorphism;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbPool;
import io.hoist.ring.NttPermutation;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The key switch's fused tail, out = φ(ModDown(x) + add), limb for limb against the steps done one
 * after the other (ModDown into a buffer, the ring's addition, the ring's automorphism), with and
 * without a permutation and an addend, on one and two threads; its counts; a wrong addend refused.
 */
class ModDownFinishTest {
    @ParameterizedTest(name = "logN {0}, threads {1}, rotation {2}, addend {3}")
    @CsvSource({"10, 1, 3, true", "10, 1, 0, true", "10, 2, 5, false", "11, 2, 0, true", "11, 1, -1, false"})
    void fusedTailEqualsTheSteps(int logN, int threads, int rotation, boolean withAdd) {
        CkksParameters params = CkksParameters.builder()
                .logN(logN)
                .logQ(50, 40, 40, 40)
                .logP(55, 55)
                .scale(0x1p40)
                .allowInsecure()
                .build();
        CkksContext ctx = CkksContext.create(params, null, threads);
        KeySwitcher ks = new KeySwitcher(ctx);
        Ring rq = ctx.ringQ();
        int level = params.maxLevel();
        SplittableRandom r = new SplittableRandom(logN * 31L + threads * 7L + rotation);
        PolyQP x = PolyQP.zero(ctx, level, Domain.NTT);
        for (int j = 0; j < x.limbCount(); j++) {
            long q = ctx.primeQP(level, j);
            long[] l = x.limb(j);
            for (int k = 0; k < l.length; k++) l[k] = r.nextLong(q);
        }
        RnsPoly add = null;
        if (withAdd) {
            add = rq.newPoly(level, Domain.NTT);
            for (int j = 0; j <= level; j++) {
                long[] l = add.limb(j);
                for (int k = 0; k < l.length; k++) l[k] = r.nextLong(rq.prime(j));
            }
        }
        long g = rotation == 0 ? 1 : params.galoisElementForRotation(rotation);
        NttPermutation perm = g == 1 ? null : Automorphism.nttPermutation(logN, g);

        RnsPoly want = rq.newPoly(level, Domain.NTT), step = rq.newPoly(level, Domain.NTT);
        ks.modDown(x, step, new LimbPool(ctx.n()), new OpCounters());
        if (add != null) rq.add(step, add, step);
        if (perm == null) want = step;
        else rq.automorphism(step, g, want);

        RnsPoly got = rq.newPoly(level, Domain.NTT);
        OpCounters c = new OpCounters();
        LimbPool pool = new LimbPool(ctx.n());
        ks.modDownFinish(x, perm, add, got, pool, c);
        for (int j = 0; j <= level; j++) assertArrayEquals(want.limb(j), got.limb(j), "limb " + j);
        assertEquals(1, c.get(Op.MOD_DOWN));
        assertEquals(0, pool.outstanding(), "every borrowed limb returned");

        RnsPoly shortAdd = rq.newPoly(level - 1, Domain.NTT);
        assertThrows(LevelMismatchException.class, () -> ks.modDownFinish(x, perm, shortAdd, got, pool, c));
    }
}
