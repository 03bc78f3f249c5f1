package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.MissingRotationKeyException;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.RotationKeySet;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import io.hoist.random.Prng;
import io.hoist.ring.Op;
import io.hoist.ring.SubringPoly;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * All four algorithms against plaintext M·x at N = 2^10 and 2^11, dense and sparse, several splits,
 * β ∈ {1, 2, 3}; the measured counts must equal {@link Plan#cost}.
 *
 * <p>Threshold: with entries of M in [−1, 1]/n and x in the unit square the outputs are O(1).
 * A fresh symmetric encryption at Δ = 2^40 and N = 2^10 is good to ≈ 30 bits; every lazy key
 * switch adds a ModDown-rounding term of ≈ √N·α/Δ·‖s‖ per rotation, weighted by diagonals of size
 * 1/n and summed over n terms, and the merged ModDown+rescale adds one rounding of ≈ √N/Δ. The
 * result stays ≥ 22 bits in the worst slot; 18 leaves room for tail variance and BSGS's extra
 * full rotations.
 */
class LinearTransformTest {
    static final double MIN_BITS = 18;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        // beta, dimension d, algorithm, split
        out.add(Arguments.of(2, 512, Algorithm.DIAGONAL, new int[] {}));
        out.add(Arguments.of(2, 512, Algorithm.BSGS, new int[] {16, 32}));
        out.add(Arguments.of(2, 512, Algorithm.DH_BSGS, new int[] {32, 16}));
        out.add(Arguments.of(2, 512, Algorithm.TH_BSGS, new int[] {8, 8, 8}));
        out.add(Arguments.of(1, 512, Algorithm.TH_BSGS, new int[] {4, 8, 16}));
        out.add(Arguments.of(1, 512, Algorithm.DH_BSGS, new int[] {8, 64}));
        out.add(Arguments.of(3, 1024, Algorithm.TH_BSGS, new int[] {16, 8, 8}));
        out.add(Arguments.of(3, 1024, Algorithm.DH_BSGS, new int[] {32, 32}));
        out.add(Arguments.of(3, 1024, Algorithm.BSGS, new int[] {32, 32}));
        out.add(Arguments.of(2, 64, Algorithm.TH_BSGS, new int[] {2, 4, 8})); // n < slots: replicated input
        out.add(Arguments.of(2, 100, Algorithm.TH_BSGS, new int[] {4, 4, 8})); // d = 100 padded to 128
        out.add(Arguments.of(2, 64, Algorithm.TH_BSGS, new int[] {1, 8, 8})); // factor 1: inner loop only rotation 0
        out.add(Arguments.of(2, 64, Algorithm.TH_BSGS, new int[] {8, 1, 8})); // factor 1 in the middle
        out.add(Arguments.of(2, 64, Algorithm.TH_BSGS, new int[] {8, 8, 1})); // no giant step
        out.add(Arguments.of(2, 64, Algorithm.DH_BSGS, new int[] {64, 1}));
        return out.stream();
    }

    @ParameterizedTest(name = "β={0} d={1} {2} {3}")
    @MethodSource("cases")
    void denseMatricesAgainstPlaintext(int beta, int d, Algorithm algo, int[] split) {
        LtFixture f = LtFixture.byBeta(beta);
        assertEquals(beta, f.params.beta());
        SplittableRandom r = new SplittableRandom(d * 31L + algo.ordinal());
        LinearTransform t = LtFixture.randomDense(r, d);
        runAndCheck(f, t, Plan.of(t, algo, split), Storage.PRECOMPUTED, r);
    }

    /**
     * Issue 11 item 1: no slot carries a structured (biased) error, so the worst slot stays near the
     * average. Keys and encryption come from fixed seeds: with fresh keys the gap has a heavy tail
     * (products of the key's slot values and the rounding errors; BSGS: median 2.3 bits, 5 of 300
     * key sets above 3, once 4.25 in CI), so the test would fail by chance now and then.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Algorithm.class)
    void worstSlotStaysNearTheAverage(Algorithm algo) throws Exception {
        try (AutoCloseable seeds = Prng.insecureDeterministicSeedsForTesting(1011 + algo.ordinal())) {
            worstSlotStaysNearTheAverage(algo, new LtFixture(10, 9, new int[] {50, 40, 40}, new int[] {60, 60}));
        }
    }

    private static void worstSlotStaysNearTheAverage(Algorithm algo, LtFixture f) {
        SplittableRandom r = new SplittableRandom(101 + algo.ordinal());
        LinearTransform t = LtFixture.randomDense(r, 512);
        int[] split = switch (algo) {
            case DIAGONAL -> new int[] {};
            case BSGS, DH_BSGS -> new int[] {16, 32};
            case TH_BSGS -> new int[] {8, 8, 8};
        };
        Plan plan = Plan.of(t, algo, split);
        ComplexVector x = ComplexVector.random(r, 512);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, f.keysFor(plan));
        Ciphertext y = lte.evaluate(f.encrypt(t, x), lte.encode(t, plan, f.params.maxLevel(), Storage.PRECOMPUTED));
        PrecisionStats p = f.precision(t.replicate(t.apply(x), f.params.slots()), y);
        assertTrue(
                p.avgBits() - p.minBits() < 3.0,
                algo + ": " + p); // Gaussian tails over 1024 slots stay near 2 bits; a biased slot cost ≈ 7.5
    }

    static ComplexVector runAndCheck(LtFixture f, LinearTransform t, Plan plan, Storage storage, SplittableRandom r) {
        ComplexVector x = ComplexVector.random(r, t.originalDimension());
        RotationKeySet keys = f.keysFor(plan);
        assertEquals(plan.rotations().size(), keys.size(), "exactly the plan's keys");
        LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, keys);
        int level = f.params.maxLevel();
        EncodedTransform et = lte.encode(t, plan, level, storage);
        Ciphertext ct = f.encrypt(t, x);
        var before = f.ctx.counters().snapshot();
        Ciphertext y = lte.evaluate(ct, et);
        var used = f.ctx.counters().since(before);
        Cost want = plan.cost(f.params, level, storage);
        String what = plan.describe() + " " + storage;
        assertEquals(want.decompose(), used.get(Op.DECOMPOSE), what + ": Decompose");
        assertEquals(want.modDown(), used.get(Op.MOD_DOWN), what + ": ModDown");
        assertEquals(want.keySwitchInnerProducts(), used.get(Op.KS_INNER_PRODUCT), what + ": KS-IP");
        assertEquals(want.ptMuls(), used.get(Op.PT_MUL), what + ": PtMul");
        assertEquals(want.ntt(), used.get(Op.NTT_LIMBS) + used.get(Op.INTT_LIMBS), what + ": limb NTTs");
        assertEquals(level - 1, y.level());
        assertEquals(ct.scale(), y.scale(), ct.scale() * 1e-12);
        ComplexVector want0 = t.replicate(t.apply(x), f.params.slots());
        PrecisionStats p = f.precision(want0, y);
        assertTrue(p.minBits() > MIN_BITS, what + ": " + p);
        return f.dec.decryptAndDecode(y, f.encoder);
    }

    @Test
    void sparseSetsNegativeIndicesShortDiagonalsAndOnlyDiagonalZero() {
        LtFixture f = LtFixture.byBeta(2);
        SplittableRandom r = new SplittableRandom(5);
        int n = 256;
        Map<Integer, ComplexVector> diags = new HashMap<>();
        for (int off : new int[] {0, 1, -1, 16, -16, 100})
            diags.put(off, ComplexVector.random(r, n).scale(0.2));
        diags.put(7, ComplexVector.random(r, 40).scale(0.2)); // shorter than the dimension
        LinearTransform t = LinearTransform.fromDiagonals(n, diags);
        assertEquals(7, t.diagonalCount());
        assertTrue(t.diagonalIndices().contains(255) && t.diagonalIndices().contains(240), "negative offsets mod n");
        List<ComplexVector> results = new ArrayList<>();
        for (Plan p : List.of(
                Plan.of(t, Algorithm.DIAGONAL),
                Plan.of(t, Algorithm.BSGS, 16, 16),
                Plan.of(t, Algorithm.DH_BSGS, 16, 16),
                Plan.of(t, Algorithm.TH_BSGS, 4, 4, 16),
                Plan.of(t, Algorithm.TH_BSGS, 2, 8, 16))) {
            results.add(runAndCheck(f, t, p, Storage.PRECOMPUTED, r.split()));
        }
        // only diagonal 0: no rotation at all, no key
        LinearTransform d0 = LinearTransform.fromDiagonals(n, Map.of(0, ComplexVector.random(r, n)));
        for (Algorithm a : Algorithm.values()) {
            int[] split = switch (a) {
                case DIAGONAL -> new int[] {};
                case BSGS, DH_BSGS -> new int[] {16, 16};
                case TH_BSGS -> new int[] {4, 4, 16};
            };
            Plan p = Plan.of(d0, a, split);
            assertEquals(0, p.rotations().size());
            runAndCheck(f, d0, p, Storage.PRECOMPUTED, r.split());
        }
        // a non-power-of-two map form: diagonal r of a 12×12 matrix splits into padded diagonals r and r−12 mod 16
        Map<Integer, ComplexVector> small =
                Map.of(0, ComplexVector.random(r, 12), 3, ComplexVector.random(r, 12), -2, ComplexVector.random(r, 12));
        LinearTransform t12 = LinearTransform.fromDiagonals(12, small);
        assertEquals(16, t12.dimension());
        ComplexVector x = ComplexVector.random(r, 12);
        ComplexVector y = t12.apply(x);
        for (int row = 0; row < 12; row++) { // against the 12×12 definition directly
            double re = 0;
            for (var e : small.entrySet()) {
                int c = Math.floorMod(row + e.getKey(), 12);
                re += e.getValue().re()[row] * x.re()[c] - e.getValue().im()[row] * x.im()[c];
            }
            assertEquals(re, y.re()[row], 1e-12);
        }
        runAndCheck(f, t12, Plan.of(t12, Algorithm.TH_BSGS, 2, 2, 4), Storage.PRECOMPUTED, r.split());
    }

    @Test
    void wholeDiagonalsEqualTheDenseFormsAndZeroOnesAreDropped() {
        SplittableRandom r = new SplittableRandom(21);
        int n = 64;
        ComplexVector a = ComplexVector.random(r, n), b = ComplexVector.random(r, n);
        double[] negativeZeros = new double[n];
        Arrays.fill(negativeZeros, -0.0);
        Map<Integer, ComplexVector> diags =
                Map.of(3, a, -5, b, 9, ComplexVector.zeros(n), 11, new ComplexVector(negativeZeros, negativeZeros));
        LinearTransform t = LinearTransform.fromDiagonals(n, diags);
        assertEquals(List.of(3, 59), List.copyOf(t.diagonalIndices()), "all-zero diagonals (either sign) dropped");
        double[][] re = new double[n][n], im = new double[n][n];
        for (int row = 0; row < n; row++) {
            re[row][(row + 3) % n] = a.re(row);
            im[row][(row + 3) % n] = a.im(row);
            re[row][(row + 59) % n] = b.re(row);
            im[row][(row + 59) % n] = b.im(row);
        }
        LinearTransform dense = LinearTransform.dense(re, im);
        for (int d : new int[] {3, 59}) assertEquals(dense.diagonal(d), t.diagonal(d), "diagonal " + d);
        ComplexVector x = ComplexVector.random(r, n);
        assertEquals(dense.apply(x), t.apply(x));
    }

    /**
     * apply's one pass per diagonal gives the bits of Σ_r f_r ⊙ Rot_r(x) composed from ComplexVector's operations in
     * index order, for dense and sparse transforms and inputs shorter than the dimension.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void applyEqualsTheComposedOperationsBitForBit(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 1 << (3 + r.nextInt(6));
        Map<Integer, ComplexVector> diags = new HashMap<>();
        for (int i = 1 + r.nextInt(n); i > 0; i--) diags.put(r.nextInt(n), ComplexVector.random(r, n));
        LinearTransform t = LinearTransform.fromDiagonals(n, diags);
        ComplexVector x = ComplexVector.random(r, 1 + r.nextInt(n));
        ComplexVector xs = new ComplexVector(Arrays.copyOf(x.re(), n), Arrays.copyOf(x.im(), n));
        ComplexVector want = ComplexVector.zeros(n);
        for (int d : t.diagonalIndices()) want = want.add(t.diagonal(d).mul(xs.rotate(d)));
        assertEquals(want, t.apply(x), "n " + n + ", " + t.diagonalCount() + " diagonals, x of " + x.length());
    }

    @Test
    void algorithmsAgreeAndCompactStorageMatches() {
        LtFixture f = LtFixture.byBeta(2);
        SplittableRandom r = new SplittableRandom(9);
        LinearTransform t = LtFixture.randomDense(r, 128);
        ComplexVector x = ComplexVector.random(r, 128);
        List<ComplexVector> outs = new ArrayList<>();
        long memPre = 0, memCompact = 0;
        for (Plan p : List.of(
                Plan.of(t, Algorithm.DIAGONAL),
                Plan.of(t, Algorithm.BSGS, 8, 16),
                Plan.of(t, Algorithm.DH_BSGS, 16, 8),
                Plan.of(t, Algorithm.TH_BSGS, 4, 4, 8))) {
            for (Storage s : Storage.values()) {
                RotationKeySet keys = f.keysFor(p);
                LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, keys);
                EncodedTransform et = lte.encode(t, p, f.params.maxLevel(), s);
                if (p.algorithm() == Algorithm.TH_BSGS) {
                    if (s == Storage.PRECOMPUTED) memPre = et.memoryBytes();
                    else memCompact = et.memoryBytes();
                }
                outs.add(f.dec.decryptAndDecode(lte.evaluate(f.encrypt(t, x), et), f.encoder));
                runAndCheck(f, t, p, s, r.split());
            }
        }
        for (ComplexVector o : outs)
            assertTrue(PrecisionStats.of(outs.get(0), o).minBits() > MIN_BITS, "algorithms agree");
        // compact: one word per coefficient; precomputed: D limbs, or Lq for the diagonals of baby step 0 (they
        // multiply P·c)
        Plan th = Plan.of(t, Algorithm.TH_BSGS, 4, 4, 8);
        long limbs = 0;
        for (int d : th.indices()) limbs += th.baby(d) == 0 ? f.params.qCount() : f.params.qCount() + f.params.alpha();
        assertEquals(8L * f.params.n() * th.indices().size(), memCompact);
        assertEquals(8L * f.params.n() * limbs, memPre);
    }

    /**
     * Primes below 2^31 keep their precomputed diagonal limbs packed, two residues to a word: the
     * evaluation equals, bit for bit, the one from compact diagonals (expanded to full limbs), and the
     * diagonals take half the words on those limbs.
     */
    @Test
    void wordSizedPrimesKeepPackedDiagonalsThatEvaluateAsCompactOnesDo() {
        LtFixture f = new LtFixture(10, 9, new int[] {33, 30, 30}, new int[] {35});
        SplittableRandom r = new SplittableRandom(31);
        LinearTransform t = LtFixture.randomDense(r, 128);
        ComplexVector x = ComplexVector.random(r, 128);
        Ciphertext ct = f.encrypt(t, x);
        int lq = f.params.qCount(), n = f.params.n();
        for (Plan p : List.of(Plan.of(t, Algorithm.TH_BSGS, 4, 4, 8), Plan.of(t, Algorithm.DH_BSGS, 16, 8))) {
            RotationKeySet keys = f.keysFor(p);
            LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, keys);
            EncodedTransform pre = lte.encode(t, p, f.params.maxLevel(), Storage.PRECOMPUTED),
                    compact = lte.encode(t, p, f.params.maxLevel(), Storage.COMPACT);
            Ciphertext a = lte.evaluate(ct, pre), b = lte.evaluate(ct, compact);
            assertEquals(b, a, p.algorithm() + ": packed diagonals against compact ones");
            // 128 × 128 over 512 slots: every diagonal is a polynomial in X^4, so both storages took the
            // subring transforms (docs/ring.md, "Subring NTTs")
            for (int d : p.indices()) {
                LongBuffer w = LongBuffer.allocate(n);
                compact.compactWordsInto(d, w);
                assertTrue(SubringPoly.stride(w.array()) >= n / (2 * 128), "diagonal " + d + " in a subring");
            }
            // the six-phase walk and two threads (limb ranges of the diagonal sums) take the same packed limbs
            assertEquals(a, lte.evaluate(ct, pre, Schedule.phased(1 << 20)).result(), p.algorithm() + ": phased");
            LinearTransformEvaluator two = new LinearTransformEvaluator(CkksContext.create(f.params, null, 2), keys);
            assertEquals(a, two.evaluate(ct, two.encode(t, p, f.params.maxLevel(), Storage.PRECOMPUTED)), "2 threads");
            assertTrue(f.precision(t.replicate(t.apply(x), f.params.slots()), a).minBits() > MIN_BITS);
            // Q limbs 33, 30, 30 bits and the P limb 35: two of the Q limbs packed
            long words = 0;
            for (int d : p.indices()) words += (long) n * (lq - 2) + n + (p.baby(d) == 0 ? 0 : n);
            assertEquals(8 * words, pre.memoryBytes(), p.algorithm() + ": diagonal bytes");
        }
    }

    @Test
    void evaluateManySharesOneDecomposeWithoutSharingBuffers() {
        LtFixture f = LtFixture.byBeta(2);
        SplittableRandom r = new SplittableRandom(13);
        LinearTransform t1 = LtFixture.randomDense(r, 64), t2 = LtFixture.randomDense(r, 64);
        Plan p1 = Plan.of(t1, Algorithm.TH_BSGS, 4, 4, 4), p2 = Plan.of(t2, Algorithm.DH_BSGS, 8, 8);
        List<Long> gs = new ArrayList<>(p1.rotationKeys(f.params));
        gs.addAll(p2.rotationKeys(f.params));
        LinearTransformEvaluator lte =
                new LinearTransformEvaluator(f.ctx, f.kg.genRotationKeys(f.sk, f.params.maxLevel(), gs));
        int level = f.params.maxLevel();
        EncodedTransform e1 = lte.encode(t1, p1, level, Storage.PRECOMPUTED),
                e2 = lte.encode(t2, p2, level, Storage.PRECOMPUTED);
        ComplexVector x = ComplexVector.random(r, 64);
        Ciphertext ct = f.encrypt(t1, x);
        var before = f.ctx.counters().snapshot();
        List<Ciphertext> ys = lte.evaluateMany(ct, List.of(e1, e2));
        var used = f.ctx.counters().since(before);
        long separate = p1.cost(f.params, level, Storage.PRECOMPUTED).decompose()
                + p2.cost(f.params, level, Storage.PRECOMPUTED).decompose();
        assertEquals(separate - 1, used.get(Op.DECOMPOSE), "the first Decompose is shared");
        assertTrue(f.precision(t1.replicate(t1.apply(x), f.params.slots()), ys.get(0))
                        .minBits()
                > MIN_BITS);
        assertTrue(f.precision(t2.replicate(t2.apply(x), f.params.slots()), ys.get(1))
                        .minBits()
                > MIN_BITS);
    }

    @Test
    void missingKeysAndWrongLevelsAreNamed() {
        LtFixture f = LtFixture.byBeta(2);
        SplittableRandom r = new SplittableRandom(17);
        LinearTransform t = LtFixture.randomDense(r, 64);
        Plan p = Plan.of(t, Algorithm.TH_BSGS, 4, 4, 4);
        List<Long> gs = new ArrayList<>(p.rotationKeys(f.params));
        gs.remove(Long.valueOf(f.params.galoisElementForRotation(48)));
        LinearTransformEvaluator lte =
                new LinearTransformEvaluator(f.ctx, f.kg.genRotationKeys(f.sk, f.params.maxLevel(), gs));
        EncodedTransform et = lte.encode(t, p, f.params.maxLevel(), Storage.PRECOMPUTED);
        Ciphertext ct = f.encrypt(t, ComplexVector.random(r, 64));
        var e = assertThrows(MissingRotationKeyException.class, () -> lte.evaluate(ct, et));
        assertTrue(e.getMessage().contains("rotation by 48"), e.getMessage());
        LinearTransformEvaluator full = new LinearTransformEvaluator(f.ctx, f.keysFor(p));
        var lower = new Evaluator(f.ctx).dropLevel(ct, 1);
        assertThrows(LevelMismatchException.class, () -> full.evaluate(lower, et));
        assertThrows(
                IllegalArgumentException.class,
                () -> Plan.of(t, Algorithm.TH_BSGS, 4, 4, 8),
                "split does not multiply to n");
        assertThrows(
                IllegalArgumentException.class,
                () -> Plan.of(t, Algorithm.DH_BSGS, 4, 4, 4),
                "wrong number of factors");
    }
}
