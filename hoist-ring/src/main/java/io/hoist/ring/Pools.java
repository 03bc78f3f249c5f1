package io.hoist.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** One daemon fork-join pool per thread count, shared by every engine that asks for it. */
final class Pools {
    private Pools() {}

    private static final ConcurrentHashMap<Integer, ForkJoinPool> POOLS = new ConcurrentHashMap<>();

    static ForkJoinPool of(int threads) {
        return POOLS.computeIfAbsent(threads, t -> {
            // the pool index is not assigned yet when the factory runs, so the names count themselves
            AtomicInteger next = new AtomicInteger();
            return new ForkJoinPool(
                    t,
                    pool -> {
                        var w = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
                        w.setDaemon(true);
                        w.setName("hoist-" + t + "-" + next.getAndIncrement());
                        return w;
                    },
                    null,
                    false);
        });
    }

    /**
     * Whether the calling thread is a worker of one of these pools: work it starts then runs in
     * place, since its siblings already keep the other threads busy (no nested fan-out).
     */
    static boolean inWorker() {
        return Thread.currentThread() instanceof ForkJoinWorkerThread w && POOLS.containsValue(w.getPool());
    }

    /**
     * Runs every task on {@code pool} and waits for all of them, rethrowing what a task threw
     * (unchecked) rather than wrapping it. An interrupt does not cut the wait short: the tasks write
     * into buffers their caller gives back to a pool when it fails, so none may outlive this call.
     * The interrupt is then reported as an {@link IllegalStateException}, with the flag kept set.
     */
    static void runAll(ForkJoinPool pool, List<Callable<Void>> tasks) {
        // each task keeps its own failure, so the caller gets the original exception, not a cross-thread copy
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<ForkJoinTask<Void>> running = new ArrayList<>(tasks.size());
        for (Callable<Void> t : tasks) {
            running.add(pool.submit(() -> {
                try {
                    t.call();
                } catch (Throwable x) {
                    failed.compareAndSet(null, x);
                }
                return null;
            }));
        }
        boolean interrupted = Thread.interrupted();
        for (ForkJoinTask<Void> f : running) {
            while (true) {
                try {
                    f.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // keep waiting: the task may still be writing
                } catch (ExecutionException e) {
                    failed.compareAndSet(null, e.getCause()); // not expected: the wrapper catches everything
                    break;
                }
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        Throwable x = failed.get();
        if (x instanceof RuntimeException r) throw r;
        if (x instanceof Error err) throw err;
        if (x != null) throw new IllegalStateException(x);
        if (interrupted)
            throw new IllegalStateException("interrupted while running parallel limb work (every task had finished)");
    }
}
