package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.CkksParameters;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Spec §11 items 1–3 and 5–6, literally: closed-form counts, key sizes and the §6.2 cost model. */
class PlanOracleTest {
    /** Table-II setting: N = 2^16, L = 31, α = 12 (β = 3, D = 44); primes of 30 bits only to size the model. */
    static final CkksParameters TABLE2 = tableTwo();

    static CkksParameters tableTwo() {
        int[] q = new int[32], p = new int[12];
        Arrays.fill(q, 54);
        Arrays.fill(p, 54);
        return CkksParameters.builder().logN(16).logQ(q).logP(p).allowInsecure().build();
    }

    static void check(Plan p, long dec, long md, long ks, long pt, int keys) {
        Cost c = p.cost(TABLE2, 31, Storage.PRECOMPUTED);
        String what = p.describe();
        assertEquals(dec, c.decompose(), what + " Decompose");
        assertEquals(md, c.modDown(), what + " ModDown");
        assertEquals(ks, c.keySwitchInnerProducts(), what + " KS-IP");
        assertEquals(pt, c.ptMuls(), what + " PtMul");
        assertEquals(keys, c.rotationKeys(), what + " keys");
    }

    @Test
    void item1() {
        check(Plan.dense(16, Algorithm.TH_BSGS, 2, 2, 4), 5, 6, 6, 16, 5);
        check(Plan.dense(16, Algorithm.TH_BSGS, 4, 2, 2), 5, 6, 8, 16, 5);
        check(Plan.dense(16, Algorithm.TH_BSGS, 2, 4, 2), 3, 4, 8, 16, 5);
    }

    @Test
    void item2() {
        check(Plan.dense(512, Algorithm.TH_BSGS, 8, 8, 8), 15, 16, 70, 512, 21);
        check(Plan.dense(32768, Algorithm.TH_BSGS, 32, 32, 32), 63, 64, 1054, 32768, 93);
        check(Plan.dense(32768, Algorithm.TH_BSGS, 16, 32, 64), 79, 80, 574, 32768, 109);
        check(Plan.dense(32768, Algorithm.TH_BSGS, 64, 32, 16), 79, 80, 2062, 32768, 109);
    }

    @Test
    void item3() {
        check(Plan.dense(16, Algorithm.DH_BSGS, 4, 4), 4, 5, 6, 16, 6);
        check(Plan.dense(32768, Algorithm.DH_BSGS, 128, 256), 256, 257, 382, 32768, 382);
        check(Plan.dense(32768, Algorithm.DH_BSGS, 256, 128), 128, 129, 382, 32768, 382);
        check(Plan.dense(32768, Algorithm.DH_BSGS, 1024, 32), 32, 33, 1054, 32768, 1054);
    }

    /** Item 5 with 54-bit storage words (our keys store 64-bit words: × 64/54). */
    @Test
    void item5KeySizes() {
        assertEquals(3, TABLE2.beta());
        Cost c = Plan.dense(32768, Algorithm.TH_BSGS, 32, 32, 32).cost(TABLE2, 31, Storage.PRECOMPUTED);
        long perKey64 = 2L * 3 * 44 * 65536 * 8;
        assertEquals(93 * perKey64, c.keyBytes());
        assertEquals(116_785_152L, perKey64 * 54 / 64, "one key = 264 limbs of 54-bit words");
    }

    /** Item 6: totals of the §6.2 model. */
    @Test
    void item6CostModel() {
        assertClose(2.2017e11, Plan.dense(32768, Algorithm.DH_BSGS, 256, 128));
        assertClose(2.1122e11, Plan.dense(32768, Algorithm.DH_BSGS, 512, 64));
        assertClose(2.1934e11, Plan.dense(32768, Algorithm.TH_BSGS, 32, 32, 32));
        assertClose(7.5614e11, Plan.dense(32768, Algorithm.DIAGONAL));
        assertClose(2.3678e11, Plan.dense(32768, Algorithm.BSGS, 256, 128));
    }

    static void assertClose(double want, Plan p) {
        double got = p.cost(TABLE2, 31, Storage.PRECOMPUTED).modMuls();
        assertTrue(Math.abs(got / want - 1) < 5e-4, p.describe() + ": " + got + " vs " + want);
    }

    @Test
    void autoPlansByObjective() {
        Plan fewestKeys = Plan.autoForIndices(
                32768,
                Plan.dense(32768, Algorithm.TH_BSGS, 32, 32, 32).indices(),
                TABLE2,
                31,
                Algorithm.TH_BSGS,
                Objective.FEWEST_KEYS,
                0);
        assertEquals(93, fewestKeys.cost(TABLE2, 31, Storage.PRECOMPUTED).rotationKeys());
        Plan dhMults = Plan.autoForIndices(
                32768, fewestKeys.indices(), TABLE2, 31, Algorithm.DH_BSGS, Objective.FEWEST_MULTS, 0);
        assertEquals("dh-bsgs 512·64", dhMults.describe());
        Plan budget = Plan.autoForIndices(
                32768,
                fewestKeys.indices(),
                TABLE2,
                31,
                Algorithm.TH_BSGS,
                Objective.FEWEST_MULTS_UNDER_KEY_BUDGET,
                140);
        assertTrue(budget.cost(TABLE2, 31, Storage.PRECOMPUTED).rotationKeys() <= 140);
    }
}
