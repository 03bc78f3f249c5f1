package io.hoist.ckks;

import java.util.Locale;

/**
 * A run refused before its first large allocation: the up-front estimate of what it would hold
 * exceeds what the JVM may use. Names both numbers and how to raise the heap.
 */
public final class InsufficientMemoryException extends CkksException {
    private final long neededBytes;
    private final long availableBytes;

    public InsufficientMemoryException(String what, long neededBytes, long availableBytes, String remedy) {
        super(String.format(
                Locale.ROOT,
                "%s needs about %s and %s: raise the heap (HOIST_JVM_OPTS=-Xmx…)%s",
                what,
                gb(neededBytes),
                availableBytes > 0 ? "the JVM may use " + gb(availableBytes) : "no memory is left",
                remedy == null || remedy.isEmpty() ? "" : " or " + remedy));
        this.neededBytes = neededBytes;
        this.availableBytes = availableBytes;
    }

    /** The estimate, in bytes ({@link Long#MAX_VALUE} when it does not fit a long). */
    public long neededBytes() {
        return neededBytes;
    }

    /** What the JVM may use, in bytes. */
    public long availableBytes() {
        return availableBytes;
    }

    private static String gb(long bytes) {
        if (bytes == Long.MAX_VALUE) return "more than 9.2 EB (the estimate overflows a long)";
        return bytes >= 1e9
                ? String.format(Locale.ROOT, "%.1f GB", bytes / 1e9)
                : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
