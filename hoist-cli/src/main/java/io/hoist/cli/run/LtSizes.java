package io.hoist.cli.run;

import io.hoist.ckks.CkksParameters;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import it.unimi.dsi.fastutil.ints.IntAVLTreeSet;
import it.unimi.dsi.fastutil.ints.IntSortedSet;

/** What an lt run checks and sizes before it builds anything: the dimension, the index sets, the bytes it will hold. */
public final class LtSizes {
    /** The most warm-up or timed runs a command accepts. */
    public static final int MAX_RUNS = 1000;

    private LtSizes() {}

    /** Refuses a dimension the slots cannot hold before anything is built (a power of two is padded to). */
    public static void checkDimension(int dim, CkksParameters params) {
        if (dim < 1 || dim > params.slots()) {
            throw new IllegalArgumentException(
                    "--n must be in [1, " + params.slots() + "] (the slot count), got " + dim);
        }
        int padded = Integer.highestOneBit(dim) == dim ? dim : Integer.highestOneBit(dim) << 1;
        if (params.slots() % padded != 0)
            throw new IllegalArgumentException(
                    "--n " + dim + " pads to " + padded + ", which does not divide the " + params.slots() + " slots");
    }

    /** 0 … n−1, the diagonals of a dense matrix. */
    public static IntSortedSet allIndices(int n) {
        IntAVLTreeSet s = new IntAVLTreeSet();
        for (int i = 0; i < n; i++) s.add(i);
        return s;
    }

    /** Bytes of the random test matrix: {@code diagonals} complex vectors of {@code dim} doubles pairs. */
    public static long testMatrixBytes(int dim, int diagonals) {
        return MemoryCheck.mul(16L, LinearTransform.paddedDimension(dim), diagonals);
    }

    /** Bytes of {@code count} encoded diagonals of a plan with {@code a} at the top level ({@link EncodedTransform#wordsPerDiagonal}). */
    public static long diagonalBytes(CkksParameters params, long count, Storage st, Algorithm a) {
        return MemoryCheck.mul(count, EncodedTransform.wordsPerDiagonal(params, params.maxLevel(), st, a), 8L);
    }

    /**
     * The plan {@code keygen} makes a store for, and that {@code lt --keys} follows: every diagonal of the padded
     * dimension, with the split given or the fewest-keys one. Any matrix of that dimension under its split needs only
     * keys of this plan.
     */
    public static Plan storePlan(CkksParameters params, int dim, Algorithm a, int[] split) {
        int padded = LinearTransform.paddedDimension(dim);
        return split != null
                ? Plan.dense(padded, a, split)
                : Plan.autoForIndices(
                        padded,
                        allIndices(padded),
                        params,
                        params.maxLevel(),
                        a,
                        Objective.FEWEST_KEYS,
                        Integer.MAX_VALUE);
    }

    /** The plan of a dense block product with blocks of b: the split given, or the best one for {@code obj}. */
    public static Plan blockPlan(CkksParameters params, int b, Algorithm a, int[] split, Objective obj) {
        if (a == Algorithm.BSGS)
            throw new IllegalArgumentException(
                    "block matrices need a hoisted algorithm (diagonal, dh-bsgs, th-bsgs), not bsgs");
        return split != null
                ? Plan.dense(b, a, split)
                : Plan.autoForIndices(b, allIndices(b), params, params.maxLevel(), a, obj, Integer.MAX_VALUE);
    }
}
