package io.hoist.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.IntConsumer;

/**
 * Independent work items spread over the engine's threads (the caller and the shared workers of
 * {@link NttEngine}). Items must not depend on each other; results that each item writes to its
 * own slot are then identical for every thread count.
 */
public final class Parallel {
    private Parallel() {}

    /** Runs {@code body(i)} for i in [0, count) on {@code threads} threads (1: in the calling thread, in order). */
    public static void forEach(int threads, int count, IntConsumer body) {
        forEachChunk(threads, count, (from, to) -> {
            for (int i = from; i < to; i++) body.accept(i);
        });
    }

    /**
     * {@link #forEach} by contiguous chunks, a few per thread (they even out uneven items): for work
     * that sets up per-chunk scratch once and reuses it for every item of the chunk.
     */
    public static void forEachChunk(int threads, int count, RangeBody body) {
        if (threads < 1) throw new IllegalArgumentException("threads must be ≥ 1, got " + threads);
        if (threads == 1 || count < 2 || Pools.inWorker()) {
            if (count > 0) body.run(0, count);
            return;
        }
        int parts = Math.min(count, 4 * threads);
        List<Callable<Void>> tasks = new ArrayList<>(parts);
        for (int t = 0; t < parts; t++) {
            int from = (int) ((long) count * t / parts), to = (int) ((long) count * (t + 1) / parts);
            tasks.add(() -> {
                body.run(from, to);
                return null;
            });
        }
        Pools.runAll(Pools.of(threads), tasks);
    }

    /** A body over a half-open range [from, to). */
    @FunctionalInterface
    public interface RangeBody {
        void run(int from, int to);
    }

    /**
     * Cuts [0, count) into at most {@code threads} contiguous ranges of near-equal size and runs
     * {@code body} on each, one per thread (the limbs of one step: each range writes its own limbs).
     * From inside a worker, or with one thread, it is one call over the whole range.
     */
    public static void ranges(int threads, int count, RangeBody body) {
        if (threads < 1) throw new IllegalArgumentException("threads must be ≥ 1, got " + threads);
        int parts = Math.min(threads, count);
        if (parts < 2 || Pools.inWorker()) {
            if (count > 0) body.run(0, count);
            return;
        }
        List<Callable<Void>> tasks = new ArrayList<>(parts);
        for (int t = 0; t < parts; t++) {
            int from = (int) ((long) count * t / parts), to = (int) ((long) count * (t + 1) / parts);
            tasks.add(() -> {
                body.run(from, to);
                return null;
            });
        }
        Pools.runAll(Pools.of(threads), tasks);
    }
}
