package io.hoist.ring;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs batches of limb NTTs on a chosen backend, falls back to {@code cpu-scalar} per limb for
 * primes the backend refuses, and counts every limb transform in the engine's {@link OpCounters}.
 *
 * <p>Accepted limbs stay together in one backend call (a whole polynomial or digit), so a device
 * backend amortizes its per-call cost; refused limbs go to the fallback in one call of their own.
 */
public final class NttEngine {
    private final NttBackend backend;
    private final NttBackend fallback;
    private final OpCounters counters;
    private final LimbKernels kernels;
    private final int threads;
    private final Pools.Pool pool;

    /** Smallest ring degree whose limb transforms are worth a thread hand-off. */
    static final int PARALLEL_MIN_N = 1 << 12;

    /**
     * Engine on {@code backend}. Its coefficient-wise kernels follow the backend: all scalar on
     * {@code cpu-scalar}, all vector on {@code cpu-vector}, the machine's choice
     * ({@link LimbKernels#best()}) on {@code cpu} and every other backend.
     */
    public NttEngine(NttBackend backend, OpCounters counters) {
        this(backend, counters, 1);
    }

    /** {@link #NttEngine(NttBackend, OpCounters)} spreading each batch over {@code threads} threads. */
    public NttEngine(NttBackend backend, OpCounters counters, int threads) {
        this(backend, counters, kernelsFor(backend), threads);
    }

    public NttEngine(NttBackend backend, OpCounters counters, LimbKernels kernels) {
        this(backend, counters, kernels, 1);
    }

    /**
     * Engine whose CPU backends spread the limbs of one batch over {@code threads} threads (1: the
     * calling thread only). Results are bit-identical for every thread count; counts are per batch.
     */
    public NttEngine(NttBackend backend, OpCounters counters, LimbKernels kernels, int threads) {
        if (threads < 1 || threads > 1024)
            throw new IllegalArgumentException("threads must be in [1, 1024], got " + threads);
        this.backend = Objects.requireNonNull(backend, "backend");
        this.fallback = NttBackends.scalar();
        this.counters = Objects.requireNonNull(counters, "counters");
        this.kernels = Objects.requireNonNull(kernels, "kernels");
        this.threads = threads;
        this.pool = threads == 1 ? null : Pools.of(threads);
    }

    private static LimbKernels kernelsFor(NttBackend backend) {
        if (backend instanceof ScalarNttBackend) return new ScalarLimbKernels();
        // by name: the class is not loaded unless that backend exists (the Vector API module is present)
        if (backend.name().equals(VectorNttBackend.NAME)) return new VectorLimbKernels();
        return LimbKernels.best();
    }

    /**
     * The form each {@link Kernel} takes in this engine (kernel id → {@code scalar}, {@code vector},
     * or a device backend's name for the NTTs), then {@code source}: where the choice came from.
     */
    public Map<String, String> kernelForms() {
        Map<String, String> m = new LinkedHashMap<>();
        String source;
        if (kernels instanceof TunedLimbKernels t) {
            m.putAll(t.choice().forms());
            source = t.choice().source().id();
        } else {
            String f = kernels.form();
            for (Kernel k : Kernel.values()) m.put(k.id(), f);
            source = "fixed";
        }
        String fwd, inv;
        if (backend instanceof TunedNttBackend t) {
            fwd = t.form(true).id();
            inv = t.form(false).id();
        } else if (backend instanceof ScalarNttBackend) {
            fwd = inv = "scalar";
        } else if (backend.name().equals(VectorNttBackend.NAME)) {
            fwd = inv = "vector";
        } else {
            fwd = inv = backend.name();
        }
        m.put(Kernel.NTT_FORWARD.id(), fwd);
        m.put(Kernel.NTT_INVERSE.id(), inv);
        m.put("source", backend instanceof TunedNttBackend || kernels instanceof TunedLimbKernels ? source : "fixed");
        return Collections.unmodifiableMap(m);
    }

    /** One line for human reports: {@link #kernelForms()} grouped by form. */
    public String kernelSummary() {
        return summarize(kernelForms());
    }

    /** A {@link #kernelForms()} map as one line: kernels grouped by form, then the source. */
    public static String summarize(Map<String, String> m) {
        Map<String, List<String>> byForm = new LinkedHashMap<>();
        m.forEach((k, f) -> {
            if (!k.equals("source"))
                byForm.computeIfAbsent(f, x -> new ArrayList<>()).add(k);
        });
        StringBuilder sb = new StringBuilder();
        byForm.forEach((f, ks) ->
                sb.append(sb.length() > 0 ? " · " : "").append(f).append(": ").append(String.join(" ", ks)));
        return sb.append(" (").append(m.get("source")).append(')').toString();
    }

    /** Threads over which one batch of limb transforms is spread. */
    public int threads() {
        return threads;
    }

    /** The coefficient-wise kernels (BConv sums, key inner products, ModDown tails) of this engine. */
    public LimbKernels kernels() {
        return kernels;
    }

    /** Engine on the machine's default backend with fresh counters. */
    public static NttEngine defaultEngine() {
        return new NttEngine(NttBackends.defaultBackend(), new OpCounters());
    }

    public NttBackend backend() {
        return backend;
    }

    public OpCounters counters() {
        return counters;
    }

    public void forward(long[][] limbs, NttTables[] tables, int count) {
        run(limbs, tables, count, true, counters);
    }

    public void inverse(long[][] limbs, NttTables[] tables, int count) {
        run(limbs, tables, count, false, counters);
    }

    /** Forward NTTs counted in {@code c} (an evaluation's own counters) instead of the engine's. */
    public void forward(long[][] limbs, NttTables[] tables, int count, OpCounters c) {
        run(limbs, tables, count, true, c);
    }

    /** Inverse NTTs counted in {@code c}. */
    public void inverse(long[][] limbs, NttTables[] tables, int count, OpCounters c) {
        run(limbs, tables, count, false, c);
    }

    private void run(long[][] limbs, NttTables[] tables, int count, boolean forward, OpCounters counters) {
        if (count == 0) return;
        // the batch's shape before any table is read: a count past the arrays is refused with its numbers
        if (count < 0 || count > limbs.length || count > tables.length)
            throw new IllegalArgumentException("batch of " + count + " limbs, but " + limbs.length + " limbs and "
                    + tables.length + " tables given");
        int refused = 0;
        for (int i = 0; i < count; i++) if (!backend.accepts(tables[i])) refused++;
        if (refused == 0) {
            call(backend, limbs, tables, count, forward, counters);
        } else if (refused == count || backend == fallback) {
            call(fallback, limbs, tables, count, forward, counters);
        } else {
            long[][] okL = new long[count - refused][], noL = new long[refused][];
            NttTables[] okT = new NttTables[count - refused], noT = new NttTables[refused];
            for (int i = 0, a = 0, b = 0; i < count; i++) {
                if (backend.accepts(tables[i])) {
                    okL[a] = limbs[i];
                    okT[a++] = tables[i];
                } else {
                    noL[b] = limbs[i];
                    noT[b++] = tables[i];
                }
            }
            call(backend, okL, okT, okL.length, forward, counters);
            call(fallback, noL, noT, noL.length, forward, counters);
        }
        if (refused > 0 && backend != fallback) counters.add(Op.NTT_FALLBACK_LIMBS, refused);
        int n = tables[0].n();
        counters.add(forward ? Op.NTT_LIMBS : Op.INTT_LIMBS, count);
        counters.add(Op.MOD_MULS, (long) count * (n / 2) * tables[0].logN());
    }

    private void call(
            NttBackend b, long[][] limbs, NttTables[] tables, int count, boolean forward, OpCounters counters) {
        counters.increment(Op.NTT_CALLS);
        if (pool != null
                && count > 1
                && b instanceof LimbNttBackend lb
                && tables[0].n() >= PARALLEL_MIN_N
                && !Pools.inWorker()) {
            LimbNttBackend.checkBatch(b, limbs, tables, count);
            long start = System.nanoTime();
            // limb by limb from a shared cursor: a 60-bit prime's integer transform costs twice a 40-bit one's
            // in FMA lanes, so equal counts per thread left one thread waiting on chains of mixed primes
            int parts = Math.min(threads, count);
            AtomicInteger next = new AtomicInteger();
            Callable<Void> drain = () -> {
                for (int i; (i = next.getAndIncrement()) < count; ) lb.runRange(limbs, tables, i, i + 1, forward);
                return null;
            };
            Pools.runAll(pool, Collections.nCopies(parts, drain));
            lb.recordBatch(count, tables[0].n(), System.nanoTime() - start);
            return;
        }
        if (forward) b.forward(limbs, tables, count);
        else b.inverse(limbs, tables, count);
    }
}
