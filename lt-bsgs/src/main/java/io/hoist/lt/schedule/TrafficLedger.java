package io.hoist.lt.schedule;

import com.google.common.collect.ImmutableList;
import io.hoist.lt.plan.InvalidTransformException;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Off-chip traffic of one execution of the six-phase schedule: per phase, the bytes read from and
 * written to the backing store by {@link LedgerKind}, the number of tile iterations and the peak
 * bytes resident in the working set. Immutable; produced by the phased executor (measured), by the
 * counting interpreter (the same walk without arithmetic) and by {@link PhaseModel} (closed forms).
 */
public final class TrafficLedger {
    /** Algorithm 2 lines of each phase (spec §7.2). */
    static final List<String> LINES = List.of("1–5", "6–7", "8–11", "12–14", "15–18", "19");

    /** One phase's row of the ledger. */
    public record PhaseTraffic(
            int phase,
            String lines,
            Map<LedgerKind, Long> readBytes,
            Map<LedgerKind, Long> writeBytes,
            long iterations,
            long peakResidentBytes) {
        /** The maps copied, read-only, in {@link LedgerKind} order. */
        public PhaseTraffic {
            readBytes = Collections.unmodifiableMap(copy(readBytes));
            writeBytes = Collections.unmodifiableMap(copy(writeBytes));
        }

        // EnumMap's copy constructor refuses an empty map that is not an EnumMap: a phase may move nothing
        private static EnumMap<LedgerKind, Long> copy(Map<LedgerKind, Long> m) {
            EnumMap<LedgerKind, Long> out = new EnumMap<>(LedgerKind.class);
            out.putAll(m);
            return out;
        }

        public long read() {
            return readBytes.values().stream().mapToLong(Long::longValue).sum();
        }

        public long write() {
            return writeBytes.values().stream().mapToLong(Long::longValue).sum();
        }

        public long total() {
            return read() + write();
        }
    }

    private final ImmutableList<PhaseTraffic> phases;

    TrafficLedger(List<PhaseTraffic> phases) {
        this.phases = ImmutableList.copyOf(phases);
    }

    /** Phases 1 … 6 in order. */
    public List<PhaseTraffic> phases() {
        return phases;
    }

    public PhaseTraffic phase(int p) {
        if (p < 1 || p > phases.size())
            throw new InvalidTransformException("no phase " + p + ": phases 1 … " + phases.size());
        return phases.get(p - 1);
    }

    /** Bytes moved between working set and backing store, both directions, all phases. */
    public long offchipBytes() {
        return phases.stream().mapToLong(PhaseTraffic::total).sum();
    }

    /** The largest working set any phase needed. */
    public long peakResidentBytes() {
        return phases.stream().mapToLong(PhaseTraffic::peakResidentBytes).max().orElse(0);
    }

    /** Bytes of one kind, both directions, all phases. */
    public long bytesOf(LedgerKind k) {
        return phases.stream()
                .mapToLong(p -> p.readBytes().get(k) + p.writeBytes().get(k))
                .sum();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TrafficLedger t && t.phases.equals(phases);
    }

    @Override
    public int hashCode() {
        return phases.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("TrafficLedger[");
        for (PhaseTraffic p : phases) {
            sb.append("\n  phase ")
                    .append(p.phase())
                    .append(" (")
                    .append(p.lines())
                    .append("): read ")
                    .append(p.readBytes())
                    .append(", write ")
                    .append(p.writeBytes())
                    .append(", iterations ")
                    .append(p.iterations())
                    .append(", peak ")
                    .append(p.peakResidentBytes());
        }
        return sb.append("\n]").toString();
    }

    /** Mutable accumulator, one per execution. */
    /** The ledger of a walk that moved nothing (an all-zero block product). */
    public static TrafficLedger empty() {
        return new Builder().build();
    }

    static final class Builder {
        private final long[][] read = new long[6][LedgerKind.values().length];
        private final long[][] write = new long[6][LedgerKind.values().length];
        private final long[] iterations = new long[6];
        private final long[] peak = new long[6];

        void read(int phase, LedgerKind k, long bytes) {
            read[phase - 1][k.ordinal()] += bytes;
        }

        void write(int phase, LedgerKind k, long bytes) {
            write[phase - 1][k.ordinal()] += bytes;
        }

        void iterations(int phase, long count) {
            iterations[phase - 1] += count;
        }

        void peak(int phase, long bytes) {
            peak[phase - 1] = Math.max(peak[phase - 1], bytes);
        }

        TrafficLedger build() {
            ImmutableList.Builder<PhaseTraffic> b = ImmutableList.builder();
            for (int p = 0; p < 6; p++) {
                b.add(new PhaseTraffic(p + 1, LINES.get(p), map(read[p]), map(write[p]), iterations[p], peak[p]));
            }
            return new TrafficLedger(b.build());
        }

        private static Map<LedgerKind, Long> map(long[] v) {
            Map<LedgerKind, Long> m = new EnumMap<>(LedgerKind.class);
            for (LedgerKind k : LedgerKind.values()) m.put(k, v[k.ordinal()]);
            return m;
        }
    }
}
