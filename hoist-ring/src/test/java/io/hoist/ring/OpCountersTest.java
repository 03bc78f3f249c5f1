package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class OpCountersTest {
    @Test
    void concurrentAddsIntoAChildAreAllCountedThereAndInItsParent() throws Exception {
        OpCounters engine = new OpCounters();
        engine.add(Op.NTT_LIMBS, 5); // counted before: the parent keeps it, the child never sees it
        OpCounters evaluation = engine.child();
        int threads = 4, adds = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long amount = t + 1;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < adds; i++) {
                        evaluation.add(Op.MOD_MULS, amount);
                        evaluation.increment(Op.NTT_LIMBS);
                    }
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdown();
        }
        long mulls = (long) adds * (1 + 2 + 3 + 4);
        assertEquals(mulls, evaluation.get(Op.MOD_MULS));
        assertEquals((long) threads * adds, evaluation.get(Op.NTT_LIMBS));
        assertEquals(mulls, engine.get(Op.MOD_MULS));
        assertEquals((long) threads * adds + 5, engine.get(Op.NTT_LIMBS));
        assertEquals(0, evaluation.get(Op.RESCALE));
    }

    @Test
    void resetClearsOnlyItsOwnSetAndSinceSubtractsASnapshot() {
        OpCounters engine = new OpCounters();
        OpCounters evaluation = engine.child();
        evaluation.add(Op.BCONV, 7);
        Map<Op, Long> before = engine.snapshot();
        evaluation.add(Op.BCONV, 3);
        assertEquals(3L, engine.since(before).get(Op.BCONV));
        evaluation.reset();
        assertEquals(0, evaluation.get(Op.BCONV));
        assertEquals(10, engine.get(Op.BCONV));
        assertEquals(Op.values().length, engine.snapshot().size());
    }

    /**
     * {@link OpCounters#count}: a scope receives the increments its work makes on the engine's set, also those the
     * engine's workers make in its parallel sections, and none of a scope running beside it on another thread; an
     * inner scope's counts reach the outer one's; the engine's set still gets everything.
     */
    @Test
    void aScopeCountsItsOwnWorkOnEveryThreadAndNestedScopesAddUp() throws Exception {
        OpCounters engine = new OpCounters();
        int tasks = 64;
        // two scopes at once on two threads, each fanning out over two threads of the shared workers
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try {
            Future<OpCounters.Counted<Map<Op, Long>>> a = callers.submit(() -> OpCounters.count(() -> {
                Parallel.forEach(2, tasks, i -> engine.add(Op.MOD_MULS, 1));
                OpCounters.Counted<Long> inner = OpCounters.count(() -> {
                    Parallel.forEach(2, tasks, i -> engine.add(Op.BCONV, 2));
                    return 7L;
                });
                assertEquals(7L, inner.value());
                assertEquals(2L * tasks, inner.counts().get(Op.BCONV), "the inner scope: its own work");
                assertEquals(0L, inner.counts().get(Op.MOD_MULS), "not the outer scope's earlier work");
                return inner.counts();
            }));
            Future<OpCounters.Counted<Integer>> b = callers.submit(() -> OpCounters.count(() -> {
                Parallel.forEach(2, tasks, i -> engine.add(Op.MOD_MULS, 10));
                return 1;
            }));
            OpCounters.Counted<Map<Op, Long>> ra = a.get();
            OpCounters.Counted<Integer> rb = b.get();
            assertEquals((long) tasks, ra.counts().get(Op.MOD_MULS), "a's products only, from every thread");
            assertEquals(2L * tasks, ra.counts().get(Op.BCONV), "with its inner scope's");
            assertEquals(10L * tasks, rb.counts().get(Op.MOD_MULS), "b's products only");
            assertEquals(0L, rb.counts().get(Op.BCONV));
            assertEquals(11L * tasks, engine.get(Op.MOD_MULS), "the engine's set has both");
            assertEquals(2L * tasks, engine.get(Op.BCONV));
        } finally {
            callers.shutdown();
        }
        engine.add(Op.MOD_MULS, 1); // outside any scope: the engine's set only
        assertEquals(11L * tasks + 1, engine.get(Op.MOD_MULS));
    }

    /**
     * The engine's worker counts into the caller's scope: of two tasks, the first waits until the second has started,
     * so the second runs on the worker (unless another caller holds the workers: then the claim is not tested).
     */
    @Test
    void aWorkerCountsIntoItsCallersScope() {
        OpCounters engine = new OpCounters();
        AtomicBoolean secondStarted = new AtomicBoolean();
        AtomicReference<String> secondThread = new AtomicReference<>();
        OpCounters.Counted<Integer> r = OpCounters.count(() -> {
            Parallel.forEach(2, 2, i -> {
                if (i == 0) {
                    long deadline = System.nanoTime() + 5_000_000_000L;
                    while (!secondStarted.get() && System.nanoTime() < deadline) Thread.onSpinWait();
                } else {
                    secondStarted.set(true);
                    secondThread.set(Thread.currentThread().getName());
                }
                engine.add(Op.MOD_MULS, 1 + i);
            });
            return 0;
        });
        assertEquals(3L, r.counts().get(Op.MOD_MULS), "both tasks, on whichever thread");
        assertEquals(3L, engine.get(Op.MOD_MULS));
        Assumptions.assumeTrue(
                secondThread.get().startsWith("hoist-"), "the workers were busy: both tasks ran on the caller");
    }
}
