package io.hoist.cli.run;

import io.hoist.ring.NttBackend;
import io.hoist.ring.NttStats;
import io.hoist.ring.NttTables;
import java.util.TreeMap;

/** Wraps a CPU backend and records every call's limb count and time: the call pattern an offload estimate replays. */
public final class RecordingBackend implements NttBackend {
    private final NttBackend inner;
    public final TreeMap<Integer, Long> histogram = new TreeMap<>();
    public long nanos;
    public long calls;
    public long limbs;
    int n;

    public RecordingBackend(NttBackend inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public boolean accepts(NttTables t) {
        return inner.accepts(t);
    }

    @Override
    public void prepare(NttTables t) {
        inner.prepare(t);
    }

    @Override
    public NttStats stats() {
        return inner.stats();
    }

    @Override
    public synchronized void forward(long[][] l, NttTables[] t, int count) {
        long s = System.nanoTime();
        inner.forward(l, t, count);
        record(count, t[0].n(), System.nanoTime() - s);
    }

    @Override
    public synchronized void inverse(long[][] l, NttTables[] t, int count) {
        long s = System.nanoTime();
        inner.inverse(l, t, count);
        record(count, t[0].n(), System.nanoTime() - s);
    }

    private void record(int count, int n, long elapsed) {
        if (count == 0) return;
        histogram.merge(count, 1L, Long::sum);
        nanos += elapsed;
        calls++;
        limbs += count;
        this.n = n;
    }

    public synchronized void reset() {
        histogram.clear();
        nanos = 0;
        calls = 0;
        limbs = 0;
    }
}
