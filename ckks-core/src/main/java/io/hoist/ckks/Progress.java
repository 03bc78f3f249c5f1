package io.hoist.ckks;

/**
 * Progress of a long-running job (keygen of many keys, encoding many diagonals): called after each
 * of {@code total} items. Implementations must be cheap; the library never prints anything itself.
 */
@FunctionalInterface
public interface Progress {
    Progress NONE = (done, total) -> {};

    void step(long done, long total);
}
