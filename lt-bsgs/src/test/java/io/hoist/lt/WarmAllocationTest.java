package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Progress;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A warm evaluation allocates its result and a little bookkeeping, whatever the algorithm and storage:
 * its temporaries (babies, sums, rotations, expanded compact diagonals) come from the pool and go back.
 * Allocation, not time, is the guard; the loop waits for C2, before which vector kernels box.
 */
class WarmAllocationTest {
    /**
     * Bookkeeping a warm evaluation may allocate besides its result: small arrays, maps, wrappers. The cases
     * take 16–47 KB; the diagonal method over 255 rotations took 132 KB while every key switch made its
     * buffers' holders anew, 40 KB since they are kept by the engine (BufferHolders).
     */
    private static final long BOOKKEEPING = 80 * 1024;

    @ParameterizedTest(name = "{0} {1} n = {2} split {3}")
    @CsvSource({
        "BSGS, PRECOMPUTED, 64, 8 8",
        "BSGS, COMPACT, 64, 8 8",
        "BSGS, COMPACT, 64, 4 16",
        "TH_BSGS, PRECOMPUTED, 64, 4 4 4",
        "TH_BSGS, COMPACT, 64, 4 4 4",
        "DH_BSGS, COMPACT, 64, 8 8",
        "DIAGONAL, COMPACT, 64, ''",
        "DIAGONAL, PRECOMPUTED, 256, ''"
    })
    void aWarmEvaluationAllocatesItsResultAndLittleElse(Algorithm algorithm, Storage storage, int n, String split) {
        LtFixture f = LtFixture.byBeta(2);
        SplittableRandom r = new SplittableRandom(0xa110c);
        LinearTransform t = LtFixture.randomDense(r, n);
        int[] s = split.isBlank()
                ? new int[0]
                : Arrays.stream(split.split(" ")).mapToInt(Integer::parseInt).toArray();
        Plan plan = Plan.of(t, algorithm, s);
        int level = f.params.maxLevel();
        LinearTransformEvaluator lte = new LinearTransformEvaluator(f.ctx, f.keysFor(plan));
        EncodedTransform et = lte.encode(t, plan, level, storage, f.params.q(level), true, Progress.NONE);
        Ciphertext ct = f.encrypt(t, ComplexVector.random(r, n));
        long result = 2L * level * 8 * f.params.n(); // the rescaled result's two polynomials
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().threadId();
        long perEvaluation = Long.MAX_VALUE;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 5; i++) lte.evaluate(ct, et);
            long before = mx.getThreadAllocatedBytes(id);
            lte.evaluate(ct, et);
            perEvaluation = mx.getThreadAllocatedBytes(id) - before;
            if (perEvaluation <= result + BOOKKEEPING) break;
        }
        assertTrue(
                perEvaluation <= result + BOOKKEEPING,
                "a warm evaluation allocated " + perEvaluation + " bytes; its result takes " + result);
        assertEquals(0, lte.pooledLimbsOutstanding());
    }
}
