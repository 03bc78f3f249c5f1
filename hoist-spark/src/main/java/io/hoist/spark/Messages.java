package io.hoist.spark;

import io.hoist.ring.Op;
import java.io.Serializable;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/** What tasks send: partial sums in the Hoist binary format, with the counts and times of the work behind them. */
final class Messages {
    private Messages() {}

    /**
     * One map task's output for one block row: the partial (null in the statistics record a task
     * sends once, under row −1), and for the statistics record the task's counts, times and the
     * block columns of each partial it sent.
     */
    record Partial(
            byte[] bytes,
            EnumMap<Op, Long> counts,
            long encodeNanos,
            long evaluateNanos,
            int keysLoaded,
            HashMap<Integer, int[]> columnsByRow)
            implements Serializable {}

    /** One finished block row: its output ciphertext, and the counts and times of summing and finishing it. */
    record Row(
            int blockRow,
            byte[] ciphertext,
            EnumMap<Op, Long> counts,
            long sumNanos,
            long finishNanos,
            long partialBytes,
            int partials)
            implements Serializable {}

    static EnumMap<Op, Long> enumMap(Map<Op, Long> m) {
        EnumMap<Op, Long> e = new EnumMap<>(Op.class);
        e.putAll(m);
        return e;
    }
}
