package io.hoist.ring;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One set of daemon workers per thread count, shared by every engine that asks for it. A parallel
 * section runs on its caller and {@code threads − 1} workers, which spin for a short while after a
 * section before they park: an evaluation starts sections a few microseconds apart, and waking a
 * parked thread on a virtual machine's idle processor took 40–80 µs (docs/throughput.md, "Workers
 * that spin").
 */
final class Pools {
    private Pools() {}

    private static final ConcurrentHashMap<Integer, Pool> POOLS = new ConcurrentHashMap<>();

    /** Bound while a caller runs its share of a section: sections it starts meanwhile run in place. */
    private static final ScopedValue<Boolean> IN_SECTION = ScopedValue.newInstance();

    /**
     * How long a worker waits for the next section before it parks. Long enough to span the serial
     * work between two steps of an evaluation, short enough not to matter to other processes.
     */
    static final long SPIN_NANOS = 50_000;

    /** The workers beside the caller for a section on {@code threads} threads (at least one). */
    static Pool of(int threads) {
        Pool p = POOLS.get(threads); // a look-up first, as for the other caches on an evaluation's path
        return p != null ? p : POOLS.computeIfAbsent(threads, t -> new Pool(t, Math.max(1, t - 1)));
    }

    /**
     * Whether the calling thread is one of these workers, or a caller running its share of a section:
     * work it starts then runs in place, since the other threads are busy (no nested fan-out).
     */
    static boolean inWorker() {
        return IN_SECTION.isBound() || Thread.currentThread() instanceof Worker;
    }

    /**
     * Runs every task on the caller and {@code pool}'s workers and waits for all of them, rethrowing
     * what a task threw (unchecked) rather than wrapping it. An interrupt does not cut the wait short:
     * the tasks write into buffers their caller gives back to a pool when it fails, so none may
     * outlive this call. The interrupt is then reported as an {@link IllegalStateException}, with the
     * flag kept set. While another caller holds the workers, every task runs on this caller.
     */
    static void runAll(Pool pool, List<Callable<Void>> tasks) {
        // each task keeps its own failure, so the caller gets the original exception, not a cross-thread copy
        AtomicReference<Throwable> failed = new AtomicReference<>();
        // the caller and the workers take tasks in turn until none is left: the caller works instead of
        // waiting, and uneven tasks even out
        AtomicInteger next = new AtomicInteger();
        Runnable drain = () -> {
            for (int i; (i = next.getAndIncrement()) < tasks.size(); ) {
                try {
                    tasks.get(i).call();
                } catch (Throwable x) {
                    failed.compareAndSet(null, x);
                }
            }
        };
        int helpers = Math.min(pool.workers.length, tasks.size() - 1);
        // the workers count into the caller's scope (OpCounters.count) while they run its tasks
        OpCounters scope = OpCounters.scope();
        Runnable helping = scope == null
                ? drain
                : () -> ScopedValue.where(OpCounters.SCOPE, scope).run(drain);
        boolean held = helpers > 0 && pool.busy.tryLock(), interrupted;
        try {
            if (held) for (int h = 0; h < helpers; h++) pool.workers[h].give(helping);
            ScopedValue.where(IN_SECTION, Boolean.TRUE).run(drain);
            // cleared while waiting (a set flag would make every timed park return at once), restored after
            interrupted = Thread.interrupted();
            if (held) for (int h = 0; h < helpers; h++) pool.workers[h].awaitIdle();
        } finally {
            if (held) pool.busy.unlock();
        }
        interrupted |= Thread.interrupted();
        if (interrupted) Thread.currentThread().interrupt();
        Throwable x = failed.get();
        if (x instanceof RuntimeException r) throw r;
        if (x instanceof Error err) throw err;
        if (x != null) throw new IllegalStateException(x);
        if (interrupted)
            throw new IllegalStateException("interrupted while running parallel limb work (every task had finished)");
    }

    /** The workers of one thread count; one caller's section at a time. */
    static final class Pool {
        final Worker[] workers;
        final ReentrantLock busy = new ReentrantLock();

        Pool(int threads, int count) {
            workers = new Worker[count];
            for (int i = 0; i < count; i++) {
                workers[i] = new Worker("hoist-" + threads + "-" + i);
                workers[i].start();
            }
        }
    }

    /** A daemon thread that runs the jobs it is given, one at a time, spinning between them before it parks. */
    static final class Worker extends Thread {
        /** The job to run, or null when idle: set by the caller, cleared by the worker when it is done. */
        private volatile Runnable job;

        private volatile boolean parked;

        Worker(String name) {
            super(name);
            setDaemon(true);
        }

        /** Hands over a job (the worker is idle: callers hold the pool's lock and wait for the last one). */
        void give(Runnable r) {
            job = r;
            // a worker about to park checks the job after it says so: one of the two sees the other
            if (parked) LockSupport.unpark(this);
        }

        /** Waits until the job given last has finished (its writes are then visible to the caller). */
        void awaitIdle() {
            long spins = 0;
            while (job != null) {
                if (++spins < 1 << 20) Thread.onSpinWait();
                else LockSupport.parkNanos(10_000);
            }
        }

        @Override
        public void run() {
            while (true) {
                Runnable r = awaitJob();
                try {
                    r.run();
                } catch (Throwable e) {
                    // a job records its tasks' failures for its caller; whatever else escapes is reported but must
                    // not end this thread, or the next caller would wait for it forever
                    getUncaughtExceptionHandler().uncaughtException(this, e);
                } finally {
                    job = null;
                }
            }
        }

        private Runnable awaitJob() {
            long deadline = System.nanoTime() + SPIN_NANOS;
            while (true) {
                Runnable r = job;
                if (r != null) return r;
                if (System.nanoTime() - deadline < 0) {
                    Thread.onSpinWait();
                    continue;
                }
                parked = true;
                r = job;
                if (r == null) LockSupport.park(this);
                parked = false;
                if (r != null) return r;
                deadline = System.nanoTime() + SPIN_NANOS;
            }
        }
    }
}
