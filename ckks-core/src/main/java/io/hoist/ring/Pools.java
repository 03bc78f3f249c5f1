package io.hoist.ring;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;

/** One daemon fork-join pool per thread count, shared by every engine that asks for it. */
final class Pools {
    private Pools() {}

    private static final ConcurrentHashMap<Integer, ForkJoinPool> POOLS = new ConcurrentHashMap<>();

    static ForkJoinPool of(int threads) {
        return POOLS.computeIfAbsent(threads, t -> {
            // the pool index is not assigned yet when the factory runs, so the names count themselves
            java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
            return new ForkJoinPool(t, pool -> {
                var w = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
                w.setDaemon(true);
                w.setName("hoist-" + t + "-" + next.getAndIncrement());
                return w;
            }, null, false);
        });
    }

    /**
     * Whether the calling thread is a worker of one of these pools: work it starts then runs in
     * place, since its siblings already keep the other threads busy (no nested fan-out).
     */
    static boolean inWorker() {
        return Thread.currentThread() instanceof java.util.concurrent.ForkJoinWorkerThread w && POOLS.containsValue(w.getPool());
    }

    /** Runs every task on {@code pool} and waits, rethrowing what a task threw (unchecked) rather than wrapping it. */
    static void runAll(ForkJoinPool pool, java.util.List<java.util.concurrent.Callable<Void>> tasks) {
        try {
            for (Future<Void> f : pool.invokeAll(tasks)) f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for limb transforms", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        }
    }
}
