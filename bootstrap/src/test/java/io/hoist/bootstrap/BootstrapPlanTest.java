package io.hoist.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.InvalidParametersException;
import io.hoist.ckks.KeySizes;
import io.hoist.ckks.poly.PolynomialEvaluator;
import io.hoist.lt.dft.DftPlan;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The design note's Lattigo constants (N16QP1546H192H32) reproduced from the boot16 preset's plan alone, without encryption. */
class BootstrapPlanTest {
    @Test
    void boot16ReproducesLattigosConstants() {
        BootstrapParameters bp = BootstrapParameters.preset("boot16");
        CkksParameters p = bp.ckks();
        assertEquals(16, p.logN());
        assertEquals(15, p.logSlots());
        assertEquals(25, p.qCount(), "60 + 40×9 + 39×3 + 60×8 + 56×4");
        assertEquals(5, p.alpha());
        assertEquals(1546, p.logQP(), 0.5, "log QP");
        assertTrue(p.secure(), p.securityLabel());
        assertEquals(192, p.secret().hammingWeight());
        assertEquals(32, bp.ephemeralWeight());
        assertEquals(0x1p40, p.defaultScale(), 0.0);
        EvalModParameters em = bp.evalMod();
        assertEquals(16, em.k());
        assertEquals(30, em.degree());
        assertEquals(3, em.doubleAngle());
        assertEquals(0, em.arcsineDegree());
        assertEquals(256, em.messageRatio(), 0.0);
        // EvalMod depth = bits.Len(max(deg, 2K − 1)) + doubleAngle + bits.Len(invDeg) = 5 + 3 + 0
        assertEquals(5, PolynomialEvaluator.plan(em.cosinePolynomial()).depth());
        assertEquals(8, em.depth());

        BootstrapPlan plan = BootstrapPlan.lattigo(bp);
        assertEquals(24, plan.ctsLevel(), "CtS on the four 56-bit primes at the top");
        assertEquals(20, plan.evalModLevel(), "EvalMod on the eight 60-bit primes");
        assertEquals(12, plan.stcLevel(), "StC on the three 39-bit primes");
        assertEquals(9, plan.outputLevel(), "residual 60 + 40×9");
        for (int l = 21; l <= 24; l++) assertEquals(56, bits(p.q(l)));
        for (int l = 13; l <= 20; l++) assertEquals(60, bits(p.q(l)));
        for (int l = 10; l <= 12; l++) assertEquals(39, bits(p.q(l)));
        assertEquals(0x1p60, plan.evalModScale(), 0.0);
        assertEquals(4096, plan.scaleUp(), "ScaleDown multiplies 2^40 by 2^12 to q_0/2^8");
        // CtS: qDiv/(K·qDiff) — the same number as our S/(q_0·K)
        assertEquals(plan.lattigoCtsScaling(), plan.coeffsToSlots().scaling(), 1e-15 * plan.lattigoCtsScaling());
        // StC: Δ/(2^60/2^8) = 2^-12 where Lattigo reads q_0 as 2^60; we use q_0 itself, so ours is qDiff times it
        assertEquals(0x1p-12, plan.lattigoStcScaling(), 0.0);
        assertEquals(
                plan.lattigoStcScaling() * plan.lattigoQDiff(),
                plan.slotsToCoeffs().scaling(),
                1e-15 * plan.slotsToCoeffs().scaling());
        assertTrue(plan.traceElements().isEmpty(), "dense packing needs no trace");
        // keys switch at level 0 (to the sparse key) and from the output's level + 1 up to the top: 1, 3, 4 and 5
        // digits
        int[] levels = plan.keySwitchLevels();
        assertEquals(1 + (24 - 10 + 1), levels.length);
        assertEquals(0, levels[0]);
        assertEquals(10, levels[1]);
        assertEquals(24, levels[levels.length - 1]);
        assertEquals(
                Set.of(1, 3, 4, 5), Arrays.stream(levels).map(p::beta).boxed().collect(Collectors.toSet()));
    }

    @Test
    void fewestKeysOnBoot16() {
        BootstrapPlan plan = BootstrapPlan.fewestKeys(BootstrapParameters.preset("boot16"));
        int all = plan.galoisElements().size();
        assertTrue(all <= 30, "TH-BSGS jointly: " + all + " Galois keys (Lattigo 48)");
        assertTrue(BootstrapPlan.lattigo(BootstrapParameters.preset("boot16"))
                        .galoisElements()
                        .size()
                > all);
    }

    /**
     * Each Galois key at the highest level it switches at: CoeffsToSlots' keys at their matrices' levels (24 to 21),
     * the conjugation at EvalMod's level, SlotsToCoeffs' own at 12 or below; the sizes are the keys' at those levels,
     * below the same keys all at the top (boot16, both plans; a sparse preset's trace at the top).
     */
    @Test
    void galoisKeysAtTheLevelsTheyAreUsedAt() {
        for (BootstrapPlan plan : List.of(
                BootstrapPlan.lattigo(BootstrapParameters.preset("boot16")),
                BootstrapPlan.fewestKeys(BootstrapParameters.preset("boot16")),
                BootstrapPlan.fewestKeys(BootstrapParameters.preset("boot14")))) {
            CkksParameters p = plan.ckks();
            SortedMap<Long, Integer> at = plan.galoisKeyLevels();
            assertEquals(plan.galoisElements(), at.keySet());
            Map<Long, Integer> want = new TreeMap<>();
            for (DftPlan d : List.of(plan.coeffsToSlotsPlan(), plan.slotsToCoeffsPlan()))
                for (int i = 0; i < d.plans().size(); i++)
                    for (long g : d.galoisElements(i))
                        want.merge(g, d.dft().levels().get(i), Math::max);
            want.merge(p.galoisElementForConjugation(), plan.evalModLevel(), Math::max);
            for (long g : plan.traceElements()) want.put(g, plan.ctsLevel());
            assertEquals(want, at, p.name());
            // and the levels themselves, read off the chain: CoeffsToSlots' four, EvalMod's input, SlotsToCoeffs' own
            assertEquals(plan.evalModLevel(), at.get(p.galoisElementForConjugation()), "the conjugation");
            for (int level : at.values())
                assertTrue(
                        level == plan.evalModLevel()
                                || (level > plan.evalModLevel() && level <= plan.ctsLevel())
                                || (level <= plan.stcLevel() && level > plan.outputLevel()),
                        p.name() + ": a key at level " + level);
            long low = at.values().stream().filter(l -> l <= plan.stcLevel()).count();
            assertTrue(low > 0, p.name() + ": some keys serve SlotsToCoeffs only");
            long perKey = 0;
            for (int level : at.values())
                perKey += KeySizes.switchingKey(p.beta(level), level + 1 + p.alpha(), p.n())
                        .fullBytes();
            assertEquals(perKey, plan.galoisKeySizes().fullBytes());
            long top = KeySizes.switchingKey(p.beta(plan.ctsLevel()), plan.ctsLevel() + 1 + p.alpha(), p.n())
                    .fullBytes();
            assertTrue(perKey < top * at.size(), p.name() + ": " + perKey + " against " + top * at.size());
        }
    }

    @Test
    void invalidParametersAreTyped() {
        assertThrows(InvalidParametersException.class, () -> new EvalModParameters(16, 29, 3, 8, 0, 60));
        assertThrows(InvalidParametersException.class, () -> new EvalModParameters(16, 30, 3, 8, 4, 60));
        assertThrows(InvalidParametersException.class, () -> BootstrapParameters.preset("boot99"));
        assertThrows(
                InvalidParametersException.class, () -> new EvalModParameters(8, 31, 3, 8, 0, 60), "degree > 4K − 2");
        // K = 16 covers a weight-32 ephemeral secret, not ModRaise under the weight-192 secret itself
        InvalidParametersException e = assertThrows(
                InvalidParametersException.class,
                () -> BootstrapFixture.small(12, 11, 3, 2, EvalModParameters.lattigoDefault(), 0));
        assertTrue(e.getMessage().contains("too small"), e.getMessage());
        assertThrows(
                InvalidParametersException.class,
                () -> BootstrapFixture.small(12, 12, 3, 2, EvalModParameters.lattigoDefault(), 32));
    }

    private static int bits(long q) {
        return 64 - Long.numberOfLeadingZeros(q);
    }
}
