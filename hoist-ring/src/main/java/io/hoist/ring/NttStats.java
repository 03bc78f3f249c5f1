package io.hoist.ring;

import java.util.concurrent.atomic.LongAdder;

/** Per-backend call statistics: updated once per call, so cheap enough to leave on. */
public final class NttStats {
    private final LongAdder calls = new LongAdder();
    private final LongAdder limbs = new LongAdder();
    private final LongAdder bytesIn = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();
    private final LongAdder nanos = new LongAdder();

    /** Records one call of {@code limbCount} limbs of {@code n} 64-bit words each. */
    public void record(int limbCount, int n, long elapsedNanos) {
        calls.increment();
        limbs.add(limbCount);
        long bytes = 8L * n * limbCount;
        bytesIn.add(bytes);
        bytesOut.add(bytes);
        nanos.add(elapsedNanos);
    }

    public Snapshot snapshot() {
        return new Snapshot(calls.sum(), limbs.sum(), bytesIn.sum(), bytesOut.sum(), nanos.sum());
    }

    public void reset() {
        calls.reset();
        limbs.reset();
        bytesIn.reset();
        bytesOut.reset();
        nanos.reset();
    }

    /** An immutable reading of the statistics. */
    public record Snapshot(long calls, long limbs, long bytesIn, long bytesOut, long nanos) {
        public double limbsPerCall() {
            return calls == 0 ? 0 : (double) limbs / calls;
        }
    }
}
