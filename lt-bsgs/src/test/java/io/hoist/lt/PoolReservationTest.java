package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Progress;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Grouping;
import io.hoist.lt.schedule.Schedule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Encoding for the direct schedule reserves the limbs the program holds at once, and for the six-phase one
 * the limbs its walk holds at once: never more than the first evaluation then takes (the reservation costs
 * no memory an evaluation would not), and so much that the first evaluation allocates only scratch and, on
 * two threads, what the executor's chains and batches hold beyond program order.
 */
class PoolReservationTest {
    /**
     * Seeded cases: fixture (β), algorithm, storage, split, rescale, engine threads (2: chains and batches), and
     * the schedule: direct (budget −1) or six-phase; then BSGS on the direct schedule.
     */
    static Stream<Arguments> cases() {
        SplittableRandom r = new SplittableRandom(0x7e5e);
        int[][] splits = {{4, 4, 4}, {2, 4, 8}, {8, 2, 4}, {4, 8, 2}}, pairs = {{8, 8}, {4, 16}, {16, 4}};
        Stream<Arguments> direct = IntStream.range(0, 16).mapToObj(i -> {
            int beta = 1 + i % 3;
            Algorithm a = i % 2 == 0 ? Algorithm.TH_BSGS : Algorithm.DH_BSGS;
            Storage s = r.nextInt(3) == 0 ? Storage.COMPACT : Storage.PRECOMPUTED;
            int[] split = a == Algorithm.TH_BSGS ? splits[r.nextInt(splits.length)] : pairs[r.nextInt(pairs.length)];
            boolean rescale = r.nextInt(4) != 0;
            int threads = 1 + (i / 2) % 2;
            return Arguments.of(beta, a, s, split, rescale, threads, -1, r.nextLong());
        });
        // the six-phase schedule (which always rescales): the compiler's grouping for a budget in MB, or the
        // minimal grouping (budget 0)
        SplittableRandom p = new SplittableRandom(0x6a5ed);
        Stream<Arguments> phased = IntStream.range(0, 10).mapToObj(i -> {
            int beta = 1 + i % 3;
            Algorithm a = i % 2 == 0 ? Algorithm.TH_BSGS : Algorithm.DH_BSGS;
            Storage s = p.nextInt(2) == 0 ? Storage.COMPACT : Storage.PRECOMPUTED;
            int[] split = a == Algorithm.TH_BSGS ? splits[p.nextInt(3)] : pairs[p.nextInt(2)];
            int threads = 1 + (i / 2) % 2;
            int budget = List.of(0, 1, 4, 64).get(p.nextInt(4));
            return Arguments.of(beta, a, s, split, true, threads, budget, p.nextLong());
        });
        // BSGS, which runs no program: its own bound (BsgsExecutor.peakLimbs)
        SplittableRandom b = new SplittableRandom(0xb5a5);
        Stream<Arguments> bsgs = IntStream.range(0, 6).mapToObj(i -> {
            Storage s = i % 2 == 0 ? Storage.COMPACT : Storage.PRECOMPUTED;
            return Arguments.of(
                    1 + i % 3, Algorithm.BSGS, s, pairs[b.nextInt(3)], b.nextInt(4) != 0, 1 + i / 3, -1, b.nextLong());
        });
        return Stream.of(direct, phased, bsgs).flatMap(x -> x);
    }

    @ParameterizedTest(name = "β={0} {1} {2} split {3} rescale {4} threads {5} phased budget {6} MB")
    @MethodSource("cases")
    void theReservationIsAtMostTheFirstEvaluationsPeakAndLeavesItOnlyScratch(
            int beta,
            Algorithm algorithm,
            Storage storage,
            int[] split,
            boolean rescale,
            int threads,
            int budget,
            long seed) {
        LtFixture f = LtFixture.byBeta(beta);
        CkksContext ctx = threads == 1 ? f.ctx : CkksContext.create(f.params, null, threads);
        SplittableRandom r = new SplittableRandom(seed);
        LinearTransform t = LtFixture.randomDense(r, 64);
        Plan plan = Plan.of(t, algorithm, split);
        int level = f.params.maxLevel();
        Schedule schedule = budget < 0
                ? Schedule.direct()
                : budget == 0
                        ? Schedule.phased(Grouping.minimal(), Long.MAX_VALUE)
                        : Schedule.phased(budget * 1_000_000L);
        LinearTransformEvaluator lte = new LinearTransformEvaluator(ctx, f.keysFor(plan), schedule);
        double scale = rescale ? f.params.q(level) : 0x1p30;
        EncodedTransform et = lte.encode(t, plan, level, storage, scale, rescale, Progress.NONE);
        long limbBytes = 8L * f.params.n();
        long reserved = lte.pooledBytes() / limbBytes;
        assertTrue(reserved > 0, "encoding reserves limbs");
        assertEquals(0, lte.pooledLimbsOutstanding());

        lte.evaluate(f.encrypt(t, ComplexVector.random(r, 64)), et);
        // what the first evaluation still allocated: scratch (the key switches', a Decompose's), and on more
        // threads what the executor's chains and batches hold together beyond program order
        assertReservedAtMostPeak(lte, limbBytes, reserved, threads, "the first evaluation");
        assertEquals(0, lte.pooledLimbsOutstanding());
    }

    /** Seeded block grids: shape, zero blocks, algorithm, storage, engine threads. */
    static Stream<Arguments> blockCases() {
        SplittableRandom r = new SplittableRandom(0xb10c);
        return IntStream.range(0, 10).mapToObj(i -> {
            int rows = 1 + r.nextInt(3), cols = 1 + r.nextInt(3);
            long zeros = r.nextLong() & ~1L; // block (0, 0) is never zero
            Algorithm a = List.of(Algorithm.TH_BSGS, Algorithm.DH_BSGS, Algorithm.DIAGONAL)
                    .get(i % 3);
            Storage s = r.nextInt(3) == 0 ? Storage.COMPACT : Storage.PRECOMPUTED;
            int threads = 1 + (i / 3) % 2;
            return Arguments.of(rows, cols, zeros, a, s, threads, r.nextLong());
        });
    }

    /** {@link #blockCases}, each on the direct schedule and on the six-phase one (minimal grouping). */
    static Stream<Arguments> blockProductCases() {
        return blockCases()
                .flatMap(a -> Stream.of(false, true).map(phased -> {
                    Object[] in = a.get(), out = Arrays.copyOf(in, in.length + 1);
                    out[in.length] = phased;
                    return Arguments.of(out);
                }));
    }

    @ParameterizedTest(name = "{0}×{1} blocks, zeros {2}, {3} {4} threads {5} phased {7}")
    @MethodSource("blockProductCases")
    void blockProductsReserveAtMostTheirFirstEvaluationsPeakAndLeaveItOnlyScratch(
            int rows,
            int cols,
            long zeros,
            Algorithm algorithm,
            Storage storage,
            int threads,
            long seed,
            boolean phased) {
        BlockCase k = BlockCase.of(rows, cols, zeros, algorithm, threads, seed);
        LtFixture f = k.f();
        Schedule schedule = phased ? Schedule.phased(Grouping.minimal(), Long.MAX_VALUE) : Schedule.direct();
        LinearTransformEvaluator lte = new LinearTransformEvaluator(k.ctx(), f.keysFor(k.plan()), schedule);
        EncodedBlockTransform ebt = lte.encode(k.bt(), k.plan(), f.params.maxLevel(), storage, Progress.NONE);
        long limbBytes = 8L * f.params.n();
        long reserved = lte.pooledBytes() / limbBytes;
        assertTrue(reserved > 0, "encoding reserves limbs");

        List<Ciphertext> in = new ArrayList<>();
        for (int bc = 0; bc < cols; bc++) in.add(f.encrypt(k.grid()[0][0], ComplexVector.random(k.r(), k.b())));
        lte.evaluate(in, ebt);
        assertReservedAtMostPeak(lte, limbBytes, reserved, threads, "the block product");
        assertEquals(0, lte.pooledLimbsOutstanding());
    }

    @ParameterizedTest(name = "{0}×{1} blocks, zeros {2}, {3} {4} threads {5}")
    @MethodSource("blockCases")
    void partialProductsOfOneColumnReserveAtMostTheirPeak(
            int rows, int cols, long zeros, Algorithm algorithm, Storage storage, int threads, long seed) {
        // as hoist-spark runs them: each column encoded apart, then phases 1–4 of that column
        BlockCase k = BlockCase.of(rows, cols, zeros, algorithm, threads, seed);
        LtFixture f = k.f();
        long limbBytes = 8L * f.params.n();
        for (int col = 0; col < cols; col++) {
            int c = col;
            BlockLinearTransform mine = k.bt().restrictedTo(br -> true, bc -> bc == c);
            if (mine.diagonalIndices().isEmpty()) continue; // an all-zero column
            LinearTransformEvaluator lte = new LinearTransformEvaluator(k.ctx(), f.keysFor(k.plan()));
            EncodedBlockTransform ebt = lte.encode(mine, k.plan(), f.params.maxLevel(), storage, Progress.NONE);
            long reserved = lte.pooledBytes() / limbBytes;
            Ciphertext x = f.encrypt(k.grid()[0][0], ComplexVector.random(k.r(), k.b()));
            lte.evaluatePartial(new TreeMap<>(Map.of(c, x)), ebt);
            assertReservedAtMostPeak(lte, limbBytes, reserved, threads, "the partial product of column " + c);
        }
    }

    /** The grid's shape kept block by block equals its definition after every block, over seeded grids. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void theGridTrackerMatchesItsDefinitionAfterEveryBlock(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int rows = 1 + r.nextInt(7), cols = 1 + r.nextInt(7);
        boolean[][] on = new boolean[rows][cols];
        EncodedBlockTransform.GridTracker tracker = new EncodedBlockTransform.GridTracker(cols);
        int lastRows = 0, lastBefore = 0;
        for (int br = 0; br < rows; br++)
            for (int bc = 0; bc < cols; bc++) {
                if (r.nextInt(3) == 0) continue;
                on[br][bc] = true;
                boolean changed = tracker.add(br, bc);
                // the definition, over the blocks so far
                int last = -1, withBlocks = 0, before = 0;
                for (boolean[] row : on) for (int c = 0; c < cols; c++) if (row[c]) last = Math.max(last, c);
                for (boolean[] row : on) {
                    int first = -1;
                    for (int c = 0; c < cols && first < 0; c++) if (row[c]) first = c;
                    if (first >= 0) withBlocks++;
                    if (first >= 0 && first < last) before++;
                }
                assertEquals(withBlocks, tracker.rows(), "rows with a block after (" + br + ", " + bc + ")");
                assertEquals(before, tracker.rowsBeforeLastColumn(), "rows before the last column");
                assertTrue(
                        changed || (withBlocks == lastRows && before == lastBefore),
                        "a change of shape at (" + br + ", " + bc + ") is reported");
                lastRows = withBlocks;
                lastBefore = before;
            }
    }

    /** A rows × cols grid of random dense b × b blocks, block (br, bc) zero where bit br·cols + bc of {@code zeros} is set. */
    /** A seeded block grid, its block product and plan, on a context of {@code threads} threads. */
    private record BlockCase(
            LtFixture f,
            CkksContext ctx,
            SplittableRandom r,
            int b,
            LinearTransform[][] grid,
            BlockLinearTransform bt,
            Plan plan) {
        static BlockCase of(int rows, int cols, long zeros, Algorithm algorithm, int threads, long seed) {
            LtFixture f = LtFixture.blocks();
            int b = f.params.slots();
            CkksContext ctx = threads == 1 ? f.ctx : CkksContext.create(f.params, null, threads);
            SplittableRandom r = new SplittableRandom(seed);
            LinearTransform[][] grid = PoolReservationTest.grid(r, rows, cols, zeros, b);
            BlockLinearTransform bt = BlockLinearTransform.of(rows * b, cols * b, b, (br, bc) -> grid[br][bc]);
            Plan plan = Plan.forIndices(b, bt.diagonalIndices(), algorithm, split(algorithm));
            return new BlockCase(f, ctx, r, b, grid, bt, plan);
        }
    }

    private static LinearTransform[][] grid(SplittableRandom r, int rows, int cols, long zeros, int b) {
        LinearTransform[][] grid = new LinearTransform[rows][cols];
        for (int br = 0; br < rows; br++)
            for (int bc = 0; bc < cols; bc++)
                if ((zeros >>> (br * cols + bc) & 1) == 0) grid[br][bc] = LtFixture.randomDense(r, b);
        return grid;
    }

    /**
     * Reserved ≤ the pool's peak, and what was allocated beyond the reservation: on one thread scratch
     * only; on two also what chains and batches hold beyond program order.
     */
    private static void assertReservedAtMostPeak(
            LinearTransformEvaluator lte, long limbBytes, long reserved, int threads, String what) {
        long peak = lte.pooledLimbsPeak(), held = lte.pooledBytes() / limbBytes;
        assertTrue(reserved <= peak, what + ": reserved " + reserved + " limbs, its peak was " + peak);
        assertTrue(
                held - reserved <= 12L * threads + (threads - 1) * peak / 8,
                what + " allocated " + (held - reserved) + " limbs beyond the " + reserved + " reserved");
    }

    private static int[] split(Algorithm algorithm) {
        return switch (algorithm) {
            case TH_BSGS -> new int[] {4, 2, 4};
            case DH_BSGS -> new int[] {8, 4};
            default -> new int[0];
        };
    }

    @Test
    void aSecondTransformReservesOnlyWhatItAddsAndTrimLetsTheReservationGo() {
        LtFixture f = LtFixture.byBeta(2);
        SplittableRandom r = new SplittableRandom(11);
        LinearTransform t = LtFixture.randomDense(r, 64);
        int level = f.params.maxLevel();
        Plan th = Plan.of(t, Algorithm.TH_BSGS, 4, 4, 4);

        LinearTransformEvaluator direct = new LinearTransformEvaluator(f.ctx, f.keysFor(th));
        direct.encode(t, th, level, Storage.COMPACT);
        long once = direct.pooledBytes();
        assertTrue(once > 0);
        // compact diagonals also reserve their expansions' scratch: precomputed ones hold no more
        direct.encode(t, th, level, Storage.PRECOMPUTED);
        assertEquals(once, direct.pooledBytes(), "a second transform with no larger a live set reserves nothing more");
        direct.trimPool();
        assertEquals(0, direct.pooledBytes());
    }
}
