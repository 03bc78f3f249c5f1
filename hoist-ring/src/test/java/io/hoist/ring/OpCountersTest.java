package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
}
