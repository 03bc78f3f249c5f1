package io.hoist.spark;

import io.hoist.ring.Op;
import java.io.Serializable;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/** What tasks send: partial sums in the Hoist binary format, with the counts and times of the work behind them. */
final class Messages {
    private Messages() {}

    // Plain classes of arrays, not records or EnumMaps: a user may pick spark.serializer=KryoSerializer, and Spark's
    // Kryo (4.x) can set neither a record's fields nor an EnumMap's key type; Java serialization reads them as well.

    /**
     * One map task's output for one block row: the partial (null in the statistics record a task
     * sends once, under row −1), and for the statistics record the task's counts, times and the
     * block columns of each partial it sent.
     */
    static final class Partial implements Serializable {
        private static final long serialVersionUID = 1L;
        private final byte[] bytes;
        private final long[] counts;
        private final long encodeNanos, evaluateNanos;
        private final int keysLoaded;
        private final HashMap<Integer, int[]> columnsByRow;

        Partial(
                byte[] bytes,
                EnumMap<Op, Long> counts,
                long encodeNanos,
                long evaluateNanos,
                int keysLoaded,
                HashMap<Integer, int[]> columnsByRow) {
            this.bytes = bytes;
            this.counts = counts == null ? null : byOrdinal(counts);
            this.encodeNanos = encodeNanos;
            this.evaluateNanos = evaluateNanos;
            this.keysLoaded = keysLoaded;
            this.columnsByRow = columnsByRow;
        }

        byte[] bytes() {
            return bytes;
        }

        EnumMap<Op, Long> counts() {
            return counts == null ? null : byOp(counts);
        }

        long encodeNanos() {
            return encodeNanos;
        }

        long evaluateNanos() {
            return evaluateNanos;
        }

        int keysLoaded() {
            return keysLoaded;
        }

        HashMap<Integer, int[]> columnsByRow() {
            return columnsByRow;
        }
    }

    /** One finished block row: its output ciphertext, and the counts and times of summing and finishing it. */
    static final class Row implements Serializable {
        private static final long serialVersionUID = 1L;
        private final int blockRow;
        private final byte[] ciphertext;
        private final long[] counts;
        private final long sumNanos, finishNanos, partialBytes;
        private final int partials;

        Row(
                int blockRow,
                byte[] ciphertext,
                EnumMap<Op, Long> counts,
                long sumNanos,
                long finishNanos,
                long partialBytes,
                int partials) {
            this.blockRow = blockRow;
            this.ciphertext = ciphertext;
            this.counts = counts == null ? null : byOrdinal(counts);
            this.sumNanos = sumNanos;
            this.finishNanos = finishNanos;
            this.partialBytes = partialBytes;
            this.partials = partials;
        }

        int blockRow() {
            return blockRow;
        }

        byte[] ciphertext() {
            return ciphertext;
        }

        EnumMap<Op, Long> counts() {
            return counts == null ? null : byOp(counts);
        }

        long sumNanos() {
            return sumNanos;
        }

        long finishNanos() {
            return finishNanos;
        }

        long partialBytes() {
            return partialBytes;
        }

        int partials() {
            return partials;
        }
    }

    /** Counts by ordinal, −1 where the map has no entry (counts are never negative). */
    private static long[] byOrdinal(Map<Op, Long> m) {
        long[] a = new long[Op.values().length];
        Arrays.fill(a, -1);
        m.forEach((op, v) -> a[op.ordinal()] = v);
        return a;
    }

    private static EnumMap<Op, Long> byOp(long[] a) {
        EnumMap<Op, Long> e = new EnumMap<>(Op.class);
        Op[] ops = Op.values();
        for (int i = 0; i < a.length; i++) if (a[i] >= 0) e.put(ops[i], a[i]);
        return e;
    }

    static EnumMap<Op, Long> enumMap(Map<Op, Long> m) {
        EnumMap<Op, Long> e = new EnumMap<>(Op.class);
        e.putAll(m);
        return e;
    }
}
