package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.RnsPoly;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Scratch}: ciphertexts made in pooled limbs that hold garbage from earlier borrowers equal the same ones made
 * in fresh memory, bit for bit; every limb is accounted for (a rescale gives the dropped one back, a release all of
 * them, a kept one leaves the pool); misuse is refused and changes nothing.
 */
class ScratchTest {
    private static SchemeFixture f;
    private static Evaluator ev;

    @BeforeAll
    static void setUp() {
        f = new SchemeFixture(10, new int[] {60, 45, 45, 45, 45}, new int[] {60}, 11);
        ev = f.evaluator(null);
    }

    /** Fills {@code limbs} pooled limbs with random words and gives them back: the next borrowers get garbage. */
    private static void dirtyThePool(SplittableRandom r, int limbs) {
        try (Scratch s = ev.scratch()) {
            for (int k = 0; k < limbs; k++) {
                RnsPoly p = s.newPoly(0);
                long[] a = p.limb(0);
                for (int i = 0; i < a.length; i++) a[i] = r.nextLong();
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void chainsInScratchOnGarbageEqualTheFreshChains(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int level = 1 + r.nextInt(f.params.maxLevel());
        Ciphertext a = ev.atLevel(f.encryptRandom(r), level), b = ev.atLevel(f.encryptRandom(r), level);
        double c = (r.nextDouble() * 2 - 1) * (1 + r.nextInt(50));
        double constantScale = f.params.q(level);

        Ciphertext wantProd = ev.mulRelinMutable(a, b)
                .mulInteger(2)
                .addConstant(c, 0)
                .rescale()
                .freeze();
        Ciphertext wantSum = ev.linearCombinationMutable(
                        List.of(a, b),
                        new double[] {c, -0.5},
                        new double[] {constantScale, constantScale},
                        level,
                        a.scale() * constantScale)
                .rescale()
                .freeze();

        dirtyThePool(r, 8 * (f.params.maxLevel() + 1));
        try (Scratch s = ev.scratch()) {
            MutableCiphertext m = ev.mulRelinMutable(a, b, s);
            assertEquals(2 * (level + 1), s.heldLimbs(), "d_0 and d_1 at level " + level);
            Ciphertext prod = m.mulInteger(2).addConstant(c, 0).rescale().freeze();
            assertEquals(2 * level, s.heldLimbs(), "the rescale gave the dropped limbs back");
            SchemeFixture.assertSameBits(wantProd, prod, "2·a·b + c rescaled");
            Ciphertext sum = ev.linearCombinationMutable(
                            List.of(a, b),
                            new double[] {c, -0.5},
                            new double[] {constantScale, constantScale},
                            level,
                            a.scale() * constantScale,
                            s)
                    .rescale()
                    .freeze();
            SchemeFixture.assertSameBits(wantSum, sum, "c·a − b/2 rescaled");
            assertTrue(s.holds(prod) && s.holds(sum));
            s.release(prod);
            assertEquals(2 * level, s.heldLimbs());
            assertFalse(s.holds(prod));
            SchemeFixture.assertSameBits(wantSum, s.keep(sum), "kept");
            assertEquals(0, s.heldLimbs());
            // the kept one is the caller's: later borrowers never write into it
            Ciphertext kept = sum, copy = sum.copy();
            ev.mulRelinMutable(a, b, s).rescale().freeze();
            dirtyThePool(r, 8 * (f.params.maxLevel() + 1));
            SchemeFixture.assertSameBits(copy, kept, "a kept ciphertext after more scratch work");
        }
    }

    /**
     * The split in place, a + b over b's limbs and a − b over a's, then the difference times i^power over its own:
     * add, sub and mulByI's residues bit for bit; operands not made in the scratch are refused.
     */
    @ParameterizedTest(name = "power {0}")
    @ValueSource(ints = {-1, 0, 1, 2, 3})
    void inPlaceSumDifferenceAndMulByIEqualTheFreshOperations(int power) {
        SplittableRandom r = new SplittableRandom(power + 20);
        Ciphertext a = f.encryptRandom(r), b = f.encryptRandom(r);
        Ciphertext wantSum = ev.add(a, b), wantDiff = ev.mulByI(ev.sub(a, b), power);
        dirtyThePool(r, 8 * (f.params.maxLevel() + 1));
        try (Scratch s = ev.scratch()) {
            // copies of a and b made in the scratch: a linear combination with coefficient 1 at the same scale
            Ciphertext sa = ev.linearCombinationMutable(
                            List.of(a), new double[] {1}, new double[] {1}, a.level(), a.scale(), s)
                    .freeze();
            Ciphertext sb = ev.linearCombinationMutable(
                            List.of(b), new double[] {1}, new double[] {1}, b.level(), b.scale(), s)
                    .freeze();
            SchemeFixture.assertSameBits(a, sa, "a copied");
            assertThrows(IllegalStateException.class, () -> ev.sumAndDifferenceInPlace(a, sb, s), "a is not ours");
            assertThrows(IllegalStateException.class, () -> ev.mulByIInPlace(a, power, s));
            List<Ciphertext> sd = ev.sumAndDifferenceInPlace(sa, sb, s);
            SchemeFixture.assertSameBits(wantSum, sd.get(0), "a + b");
            Ciphertext diff = ev.mulByIInPlace(sd.get(1), power, s);
            SchemeFixture.assertSameBits(wantDiff, diff, "(a − b)·i^" + power);
            assertTrue(s.holds(sd.get(0)) && s.holds(diff));
        }
    }

    /**
     * mulByI's i^power made at setup: a later call, also at a lower level, transforms nothing and gives the same
     * residues; an evaluator without it counts its table's transforms at the first call; levels outside the
     * parameters are refused.
     */
    @ParameterizedTest(name = "power {0}")
    @ValueSource(ints = {-1, 1, 2})
    void preparedMulByICountsNoTransform(int power) {
        SplittableRandom r = new SplittableRandom(power + 60);
        Ciphertext a = f.encryptRandom(r);
        Ciphertext low = ev.dropLevel(a, 1);
        Evaluator prepared = new Evaluator(f.ctx);
        prepared.prepareMulByI(power, a.level());
        for (Ciphertext x : List.of(a, low)) {
            OpCounters.Counted<Ciphertext> c = OpCounters.count(() -> prepared.mulByI(x, power));
            SchemeFixture.assertSameBits(ev.mulByI(x, power), c.value(), "level " + x.level());
            assertEquals(0L, c.counts().get(Op.NTT_LIMBS), "level " + x.level());
        }
        OpCounters.Counted<Ciphertext> cold = OpCounters.count(() -> new Evaluator(f.ctx).mulByI(low, power));
        assertEquals(low.level() + 1L, cold.counts().get(Op.NTT_LIMBS), "the table's transforms at the first call");
        assertThrows(LevelMismatchException.class, () -> prepared.prepareMulByI(power, f.params.maxLevel() + 1));
        assertThrows(LevelMismatchException.class, () -> prepared.prepareMulByI(power, -1));
    }

    /** a + b·i^power in one pass, and a key switch, made in a scratch on garbage: the fresh operations' residues. */
    @ParameterizedTest(name = "power {0}")
    @ValueSource(ints = {0, 1, 2, 3, -1})
    void addMulByIAndKeySwitchInScratchEqualTheFreshOperations(int power) {
        SplittableRandom r = new SplittableRandom(power + 40);
        Ciphertext a = f.encryptRandom(r), b = f.encryptRandom(r);
        Ciphertext want = ev.add(a, ev.mulByI(b, power));
        Ciphertext wantSwitched = ev.switchKeys(a, f.rlk.key());
        SchemeFixture.assertSameBits(want, ev.addMulByI(a, b, power, null), "fresh");
        dirtyThePool(r, 8 * (f.params.maxLevel() + 1));
        try (Scratch s = ev.scratch()) {
            Ciphertext got = ev.addMulByI(a, b, power, s);
            SchemeFixture.assertSameBits(want, got, "a + b·i^" + power);
            Ciphertext switched = ev.switchKeys(a, f.rlk.key(), s);
            SchemeFixture.assertSameBits(wantSwitched, switched, "key switch");
            assertTrue(s.holds(got) && s.holds(switched));
        }
    }

    /** A copy made in a scratch: the same residues and scale, held there; a ciphertext of another ring is refused. */
    @Test
    void aCopyIsMadeThereBitForBit() {
        SplittableRandom r = new SplittableRandom(77);
        Ciphertext a = ev.atLevel(f.encryptRandom(r), 2);
        dirtyThePool(r, 8 * (f.params.maxLevel() + 1));
        try (Scratch s = ev.scratch()) {
            Ciphertext c = s.copy(a);
            SchemeFixture.assertSameBits(a, c, "copy");
            assertTrue(s.holds(c));
            assertEquals(2 * 3, s.heldLimbs());
            SchemeFixture g = new SchemeFixture(10, new int[] {60, 45, 45}, new int[] {60}, 4);
            Ciphertext foreign = g.encrypt(ComplexVector.random(r, g.params.slots()));
            assertThrows(WrongOperandException.class, () -> s.copy(foreign));
            assertEquals(2 * 3, s.heldLimbs(), "nothing made for a refused copy");
        }
    }

    /** An executor's threads may make a transform's outputs at once: every limb is accounted for. */
    @Test
    void polynomialsMadeOnSeveralThreadsAtOnceAreAllHeld() throws Exception {
        int threads = 4, each = 300, level = 2;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (Scratch s = ev.scratch()) {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++)
                done.add(pool.submit(() -> {
                    for (int k = 0; k < each; k++) s.newPoly(level);
                }));
            for (Future<?> d : done) d.get();
            assertEquals(threads * each * (level + 1), s.heldLimbs());
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void misuseIsRefusedAndChangesNothing() {
        SplittableRandom r = new SplittableRandom(99);
        Ciphertext a = f.encryptRandom(r);
        Scratch s = ev.scratch();
        Ciphertext x = ev.mulRelinMutable(a, a, s).freeze();
        int held = s.heldLimbs();
        assertThrows(IllegalStateException.class, () -> s.release(a), "not made in this scratch");
        assertThrows(IllegalStateException.class, () -> s.keep(a));
        assertEquals(held, s.heldLimbs());
        s.release(x);
        assertThrows(IllegalStateException.class, () -> s.release(x), "released twice");
        assertThrows(IllegalStateException.class, () -> s.keep(x), "kept after its release");
        Ciphertext y = ev.mulRelinMutable(a, a, s).freeze();
        Ciphertext view = ev.atLevel(y, 1);
        assertFalse(s.holds(view));
        assertThrows(IllegalStateException.class, () -> s.release(view), "a view would free part of a live one");
        assertEquals(2 * (y.level() + 1), s.heldLimbs(), "nothing given back");
        assertTrue(s.holds(y.withScale(2 * y.scale())), "the same polynomials under another scale");
        MutableCiphertext open = ev.mulRelinMutable(a, a, s);
        s.close();
        assertEquals(0, s.heldLimbs());
        s.close(); // a second close does nothing
        assertThrows(IllegalStateException.class, () -> ev.mulRelinMutable(a, a, s), "closed");
        assertThrows(IllegalStateException.class, () -> open.mulInteger(2), "its limbs went back at close");
        assertThrows(IllegalStateException.class, open::rescale);
        Evaluator other = f.evaluator(null);
        try (Scratch shared = other.scratch()) {
            // another evaluator of the same parameters makes its results in this one's scratch, bit for bit
            SchemeFixture.assertSameBits(
                    ev.mulRelinMutable(a, a).freeze(),
                    ev.mulRelinMutable(a, a, shared).freeze(),
                    "shared");
        }
        SchemeFixture g = new SchemeFixture(10, new int[] {60, 45, 45}, new int[] {60}, 3);
        Evaluator foreignEv = g.evaluator(null);
        try (Scratch foreign = foreignEv.scratch()) {
            long pooled = ev.pooledBytes(), otherPooled = foreignEv.pooledBytes();
            assertThrows(WrongOperandException.class, () -> ev.mulRelinMutable(a, a, foreign));
            assertThrows(
                    WrongOperandException.class,
                    () -> ev.linearCombinationMutable(
                            List.of(a), new double[] {1}, new double[] {1}, a.level(), a.scale(), foreign));
            assertEquals(0, foreign.heldLimbs(), "a refused scratch lends nothing");
            assertEquals(pooled, ev.pooledBytes(), "and neither pool grew");
            assertEquals(otherPooled, foreignEv.pooledBytes());
        }
    }
}
