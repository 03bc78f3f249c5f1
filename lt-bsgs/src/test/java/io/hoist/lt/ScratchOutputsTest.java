package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.Scratch;
import io.hoist.ckks.WrongOperandException;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.RnsPoly;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A transform's or a conjugation's result made in a {@link Scratch}, in pooled limbs full of garbage from earlier
 * borrowers, equals the one made in fresh memory bit for bit, for every algorithm, storage and schedule; BSGS makes
 * its result in fresh memory (the scratch does not hold it).
 */
class ScratchOutputsTest {
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(Algorithm.DIAGONAL, new int[] {}),
                Arguments.of(Algorithm.BSGS, new int[] {8, 4}),
                Arguments.of(Algorithm.DH_BSGS, new int[] {8, 4}),
                Arguments.of(Algorithm.TH_BSGS, new int[] {4, 2, 4}));
    }

    static void assertSameBits(Ciphertext want, Ciphertext got, String what) {
        assertEquals(want.level(), got.level(), what);
        assertEquals(want.scale(), got.scale(), what);
        for (int i = 0; i <= want.degree(); i++)
            for (int j = 0; j <= want.level(); j++)
                assertArrayEquals(
                        want.poly(i, RawAccess.get()).limb(j),
                        got.poly(i, RawAccess.get()).limb(j),
                        what + ": poly " + i + ", limb " + j);
    }

    /** Fills {@code count} polynomials' worth of pooled limbs with random words and gives them back. */
    static void dirty(Evaluator ev, SplittableRandom r, int count, int level) {
        try (Scratch s = ev.scratch()) {
            for (int k = 0; k < count; k++) {
                RnsPoly p = s.newPoly(level);
                for (int j = 0; j <= level; j++) {
                    long[] a = p.limb(j);
                    for (int i = 0; i < a.length; i++) a[i] = r.nextLong();
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void resultsInScratchEqualFreshResults(Algorithm algo, int[] split) {
        LtFixture f = LtFixture.byBeta(2);
        SplittableRandom r = new SplittableRandom(algo.ordinal() + 40);
        LinearTransform t = LtFixture.randomDense(r, 32);
        Plan plan = Plan.of(t, algo, split);
        TreeSet<Long> galois = new TreeSet<>(plan.rotationKeys(f.params));
        galois.add(f.params.galoisElementForConjugation());
        RotationKeySet keys = f.kg.genRotationKeys(f.sk, f.params.maxLevel(), galois);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, keys);
        Evaluator ev = new Evaluator(f.ctx);
        Ciphertext ct = f.encrypt(t, ComplexVector.random(r, 32));
        int level = f.params.maxLevel();
        for (Storage storage : Storage.values()) {
            EncodedTransform et = lte.encode(t, plan, level, storage);
            List<Schedule> schedules = algo == Algorithm.BSGS
                    ? List.of(Schedule.direct())
                    : List.of(Schedule.direct(), Schedule.phased(Grouping.uniform(2, 2), Long.MAX_VALUE));
            for (Schedule sc : schedules) {
                String what = plan.describe() + " " + storage + " " + sc;
                Ciphertext want = lte.evaluate(ct, et, sc).result();
                dirty(ev, r, 8, level);
                try (Scratch s = ev.scratch()) {
                    Ciphertext got = lte.evaluate(ct, et, sc, s).result();
                    assertSameBits(want, got, what);
                    assertEquals(algo != Algorithm.BSGS, s.holds(got), what + ": made in the scratch");
                }
            }
        }
        // a transform that keeps its level (a plain ModDown writes the output): pooled garbage there too
        EncodedTransform keep = lte.encode(t, plan, level, Storage.PRECOMPUTED, 0x1p20, false, Progress.NONE);
        Ciphertext wantKept = lte.evaluate(ct, keep, Schedule.direct()).result();
        dirty(ev, r, 8, level);
        try (Scratch s = ev.scratch()) {
            Ciphertext got = lte.evaluate(ct, keep, Schedule.direct(), s).result();
            assertEquals(level, got.level(), "no rescale");
            assertSameBits(wantKept, got, plan.describe() + " without a rescale");
        }
        // a closed scratch, or one for other parameters, is refused before any work
        Scratch closed = ev.scratch();
        closed.close();
        EncodedTransform et = lte.encode(t, plan, level, Storage.PRECOMPUTED);
        assertThrows(IllegalStateException.class, () -> lte.evaluate(ct, et, Schedule.direct(), closed));
        assertThrows(IllegalStateException.class, () -> lte.conjugate(ct, closed));
        LtFixture other = LtFixture.byBeta(3);
        try (Scratch foreign = new Evaluator(other.ctx).scratch()) {
            assertThrows(WrongOperandException.class, () -> lte.evaluate(ct, et, Schedule.direct(), foreign));
            assertEquals(0, foreign.heldLimbs());
        }
        Ciphertext want = lte.conjugate(ct).result();
        dirty(ev, r, 8, level);
        try (Scratch s = ev.scratch()) {
            Ciphertext got = lte.conjugate(ct, s).result();
            assertSameBits(want, got, "conjugation");
            assertTrue(s.holds(got));
        }
    }
}
