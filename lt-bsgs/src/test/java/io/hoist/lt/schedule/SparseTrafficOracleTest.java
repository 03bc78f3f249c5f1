package io.hoist.lt.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hoist.ckks.CkksParameters;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An independent oracle for the six-phase walk on sparse plans: the traffic of three small plans
 * worked out by hand from spec §7 (docs/schedule.md), not from the walk's code. The layout is Q =
 * 3 primes at the top level (ℓ = 2, Lq = 3), P = 1 prime (α = 1, so β = 3 digits), D = 4 QP limbs;
 * the grouping holds everything at once (one limb group of all D limbs, every polynomial in one
 * group), so each object moves at most once per phase and the numbers below are limb counts:
 *
 * <ul>
 *   <li>a key: 2 parts × β digits × D limbs = 24;
 *   <li>digits of one Decompose: β × D = 12;
 *   <li>A_0, B_0 = P·(C'_0, C'_1) and the inputs: Q limbs only, 3 each; every other polynomial D = 4;
 *   <li>a precomputed diagonal: 3 limbs with baby step 0 (it multiplies A_0, B_0), else 4;
 *   <li>twiddles: a table per limb transformed — phase 1 reads the inverse tables of C'_1's 3 limbs
 *       one at a time, then the forward tables of all 4 limbs for the digits (and the inverse ones of
 *       all 4 again when the inner layer feeds INTTs); phase 6 reads the inverse tables of the 2
 *       dropped limbs (q_2 and p_0) and the forward tables of the 2 kept ones.
 * </ul>
 */
class SparseTrafficOracleTest {
    private static final CkksParameters PARAMS = CkksParameters.builder()
            .logN(10)
            .logQ(40, 30, 30)
            .logP(40)
            .scale(0x1p30)
            .allowInsecure()
            .build();
    private static final LimbLayout LAY = LimbLayout.of(PARAMS, 2);
    private static final Grouping ALL = Grouping.uniform(4, 64);

    /** {kind → limbs} read and written per phase 1…6. */
    private record Phase(Map<LedgerKind, Long> reads, Map<LedgerKind, Long> writes) {}

    private static Map<LedgerKind, Long> of(Object... kindAndLimbs) {
        Map<LedgerKind, Long> m = new EnumMap<>(LedgerKind.class);
        for (int i = 0; i < kindAndLimbs.length; i += 2)
            m.put((LedgerKind) kindAndLimbs[i], ((Integer) kindAndLimbs[i + 1]).longValue());
        return m;
    }

    private static final LedgerKind CT = LedgerKind.CIPHERTEXT,
            DIG = LedgerKind.DIGITS,
            KEYS = LedgerKind.KEYS,
            DIAG = LedgerKind.DIAGONALS,
            TW = LedgerKind.TWIDDLES;

    /** Phase 6 of every plan here: C's dropped limbs (2 each) and kept limbs (2 each) in, the output's 2 limbs each out. */
    private static final Phase RESCALE = new Phase(of(CT, 2 * 2 + 2 * 2, TW, 2 + 2), of(CT, 2 * 2));

    private static void check(Plan plan, List<Phase> want) {
        assertEquals(LAY.lq(), 3);
        assertEquals(LAY.d(), 4);
        assertEquals(LAY.beta(), 3);
        TrafficLedger got = SixPhaseWalk.dry(LtProgram.compile(plan, LAY), Storage.PRECOMPUTED, ALL);
        for (int p = 1; p <= 6; p++) {
            TrafficLedger.PhaseTraffic t = got.phase(p);
            for (LedgerKind k : LedgerKind.values()) {
                long r = want.get(p - 1).reads().getOrDefault(k, 0L) * LAY.limbBytes();
                long w = want.get(p - 1).writes().getOrDefault(k, 0L) * LAY.limbBytes();
                assertEquals(r, t.readBytes().getOrDefault(k, 0L), plan.describe() + ": phase " + p + " reads of " + k);
                assertEquals(
                        w, t.writeBytes().getOrDefault(k, 0L), plan.describe() + ": phase " + p + " writes of " + k);
            }
        }
    }

    /**
     * Phase 1 with one inner rotation and no INTT: C'_1 (3) and C'_0 (3) in; B_0 (3), A_0 (3) and the
     * rotation's A_i, B_i (4 + 4) out; its key (24) in; D_0's digits (12) out.
     */
    private static final Phase ONE_INNER = new Phase(of(CT, 3 + 3, TW, 3 + 4, KEYS, 24), of(CT, 3 + 3 + 8, DIG, 12));

    @Test
    void diagonalMethodOnTwoDiagonals() {
        // n = 8, diagonals {0, 3}: inner rotations {0, 3}, one giant step (k = 0) with babies 0 and 3
        Plan plan = Plan.forIndices(8, List.of(0, 3), Algorithm.DIAGONAL);
        check(
                plan,
                List.of(
                        ONE_INNER,
                        new Phase(of(), of()),
                        new Phase(of(), of()),
                        // A_0, B_0 (3 + 3) with F_0 (3); A_3, B_3 (4 + 4) with F_3 (4); U_{0,0}, U_{1,0} (4 + 4) out
                        new Phase(of(CT, 14, DIAG, 7), of(CT, 8)),
                        new Phase(of(), of()), // only the MOVE: C takes over U_{·,0}
                        RESCALE));
    }

    /** Phase 5 with one outer rotation k ≠ 0: U_{1,k} (4) in with 4 inverse tables, C (4 + 4) and U_{0,k} (4) in, its key, C out. */
    private static final Phase ONE_OUTER =
            new Phase(of(CT, 4 + 4 + 4 + 4, TW, 4 + 4, KEYS, 24), of(CT, 4 + 4)); // E_k's digits never leave the chip

    @Test
    void dhBsgsOnThreeDiagonals() {
        // n = 8, split 2·4, diagonals {0, 1, 5}: inner {0, 1}, outer {0, 4}; k = 0 has babies 0, 1 and k = 4 baby 1
        Plan plan = Plan.forIndices(8, List.of(0, 1, 5), Algorithm.DH_BSGS, 2, 4);
        check(
                plan,
                List.of(
                        ONE_INNER,
                        new Phase(of(), of()),
                        new Phase(of(), of()),
                        // A_0, B_0 (6) with F_0 (3); A_1, B_1 (8) with F_1 and F_5 (4 + 4); four U buffers (16) out
                        new Phase(of(CT, 14, DIAG, 11), of(CT, 16)),
                        ONE_OUTER,
                        RESCALE));
    }

    @Test
    void thBsgsOnThreeDiagonals() {
        // n = 8, split 2·2·2, diagonals {0, 3, 6}: r = 3 is (i, j, k) = (1, 2, 0), r = 6 is (0, 2, 4);
        // inner {0, 1}, middle {0, 2} applied to i = 0 and i = 1, outer {0, 4}; babies 0, 3 (k = 0) and 2 (k = 4)
        Plan plan = Plan.forIndices(8, List.of(0, 3, 6), Algorithm.TH_BSGS, 2, 2, 2);
        check(
                plan,
                List.of(
                        // as ONE_INNER, plus b_1 = INTT(B_1) (4) out and the 4 inverse tables read again for it
                        new Phase(of(CT, 6, TW, 3 + 4 + 4, KEYS, 24), of(CT, 14 + 4, DIG, 12)),
                        // b_1 (4) in, ModDown on chip, D_1's digits (12) out with 4 forward tables
                        new Phase(of(CT, 4, TW, 4), of(DIG, 12)),
                        // key of rotation 2 (24); sources (A_0, D_0) = 3 + 12 and (A_1, D_1) = 4 + 12; A_2, B_2, A_3,
                        // B_3 out
                        new Phase(of(CT, 3 + 4, DIG, 24, KEYS, 24), of(CT, 16)),
                        // A_0, B_0 (6) with F_0 (3); A_2, B_2 (8) with F_6 (4); A_3, B_3 (8) with F_3 (4); four U out
                        new Phase(of(CT, 22, DIAG, 11), of(CT, 16)),
                        ONE_OUTER,
                        RESCALE));
    }
}
