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
    void theCallerAndNamedWorkersRunASection() throws Exception {
        Set<String> names = ConcurrentHashMap.newKeySet();
        CountDownLatch all = new CountDownLatch(3);
        Parallel.forEach(
                3,
                3,
                i -> { // each task waits for the others, so the caller and both workers must run one each
                    names.add(Thread.currentThread().getName());
                    all.countDown();
                    try {
                        assertTrue(all.await(20, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
        assertEquals(3, names.size(), names.toString());
        assertTrue(names.remove(Thread.currentThread().getName()), "the caller ran a task: " + names);
        for (String n : names) assertTrue(n.startsWith("hoist-3-"), n);
    }

    @Test
    void aSectionInsideASectionRunsInPlace() {
        Set<String> outer = ConcurrentHashMap.newKeySet();
        AtomicInteger nestedOnOtherThreads = new AtomicInteger(), items = new AtomicInteger();
        CountDownLatch both = new CountDownLatch(2);
        Parallel.forEach(
                2,
                2,
                i -> { // the caller and the worker, each inside its share of the section
                    String me = Thread.currentThread().getName();
                    outer.add(me);
                    both.countDown();
                    try {
                        assertTrue(both.await(20, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    Parallel.ranges(2, 8, (from, to) -> {
                        if (!Thread.currentThread().getName().equals(me)) nestedOnOtherThreads.incrementAndGet();
                        items.addAndGet(to - from);
                    });
                });
        assertEquals(2, outer.size(), outer.toString());
        assertEquals(0, nestedOnOtherThreads.get(), "nested ranges ran on the thread that started them");
        assertEquals(16, items.get());
    }

    @Test
    void concurrentCallersEachGetEveryTaskDone() throws Exception {
        // callers share the pool of a thread count: one holds the workers, the others run their tasks alone
        int callers = 4, rounds = 200;
        AtomicInteger done = new AtomicInteger();
        Thread[] ts = new Thread[callers];
        Throwable[] failed = new Throwable[1];
        for (int c = 0; c < callers; c++) {
            ts[c] = new Thread(() -> {
                try {
                    for (int r = 0; r < rounds; r++) {
                        long[] slots = new long[16];
                        Parallel.forEach(2, slots.length, i -> slots[i] = i + 1);
                        for (int i = 0; i < slots.length; i++) assertEquals(i + 1, slots[i]);
                        done.incrementAndGet();
                    }
                } catch (Throwable e) {
                    synchronized (failed) {
                        failed[0] = e;
                    }
                }
            });
            ts[c].start();
        }
        for (Thread t : ts) t.join(60_000);
        synchronized (failed) {
            if (failed[0] != null) throw new AssertionError(failed[0]);
        }
        assertEquals(callers * rounds, done.get());
    }
}
