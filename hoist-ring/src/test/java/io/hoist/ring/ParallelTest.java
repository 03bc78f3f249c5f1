package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * No task of a parallel section outlives it: its caller gives the buffers the tasks write back to a
 * pool as soon as the section throws, so a failed task or an interrupt must wait for the others.
 */
class ParallelTest {
    /** About {@code millis} of work that no interrupt stops. */
    private static void spin(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) Thread.onSpinWait();
    }

    @Test
    void aFailedTaskIsReportedAfterEveryOtherTaskHasFinished() {
        AtomicInteger finished = new AtomicInteger();
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> Parallel.forEach(2, 8, i -> {
                    if (i == 0) throw new IllegalArgumentException("task 0 fails");
                    spin(30);
                    finished.incrementAndGet();
                }));
        assertEquals("task 0 fails", e.getMessage());
        assertEquals(7, finished.get(), "every other task had finished when the failure was reported");
    }

    @Test
    void anInterruptWaitsForEveryTaskThenIsReported() {
        AtomicInteger finished = new AtomicInteger();
        Thread.currentThread().interrupt();
        try {
            assertThrows(
                    IllegalStateException.class,
                    () -> Parallel.ranges(2, 4, (from, to) -> {
                        spin(40);
                        finished.addAndGet(to - from);
                    }));
            assertEquals(4, finished.get(), "every range had finished");
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt flag is kept");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void workersHaveDistinctNames() throws Exception {
        Set<String> names = ConcurrentHashMap.newKeySet();
        CountDownLatch both = new CountDownLatch(2);
        Parallel.forEach(
                2,
                2,
                i -> { // each task waits for the other, so two workers must run them
                    names.add(Thread.currentThread().getName());
                    both.countDown();
                    try {
                        assertTrue(both.await(20, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
        assertEquals(2, names.size(), names.toString());
        for (String n : names) assertTrue(n.startsWith("hoist-2-"), n);
    }
}
