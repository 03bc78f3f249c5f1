package io.hoist.ring.fpga;

import io.hoist.ring.NttBackend;
import io.hoist.ring.NttBackends;
import io.hoist.ring.NttStats;
import io.hoist.ring.NttTables;
import io.hoist.ring.UnsupportedPrimeException;
import it.unimi.dsi.fastutil.ints.Int2LongAVLTreeMap;
import it.unimi.dsi.fastutil.ints.Int2LongSortedMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code fpga-sim}: a bit-exact functional model of the streaming NTT kernel of seed 001, plus its
 * timing model. The transform is computed the way the datapath computes it — WLM products,
 * twiddles generated on the fly from two root tables per prime and direction, the inverse's N^-1
 * as one halving per stage — never by calling a CPU NTT, so a fault in any mechanism shows up as a
 * mismatch against {@code cpu-scalar}.
 *
 * <p>Accepts q &lt; 2^62 with q ≡ 1 (mod 2^17) (the WLM shortcut q' = −1) and q ≡ 1 (mod 2N);
 * the engine falls back to the CPU per limb otherwise ({@code NTT_FALLBACK_LIMBS}).
 *
 * <p>Statistics: calls, limbs per call (histogram), bytes each way, modelled device time and,
 * when a shadow backend is set, the time the same transforms took on that CPU backend in the same
 * run.
 */
public final class FpgaSimBackend implements NttBackend {
    public static final String NAME = "fpga-sim";

    private final FpgaTimingModel model;
    private final FpgaTimingModel.Mode mode;
    private final NttBackend shadow;
    private final NttStats stats = new NttStats();
    private final Map<NttTables, RootTables> roots = new ConcurrentHashMap<>();
    private final Int2LongSortedMap histogram = new Int2LongAVLTreeMap();
    private final DoubleAdder deviceMicros = new DoubleAdder();
    private final DoubleAdder h2cMicros = new DoubleAdder(),
            kernelMicros = new DoubleAdder(),
            c2hMicros = new DoubleAdder();
    private final LongAdder shadowNanos = new LongAdder();

    public FpgaSimBackend() {
        this(FpgaTimingModel.PAPER, FpgaTimingModel.Mode.STREAMING, null);
    }

    /**
     * @param shadow a CPU backend that also transforms a copy of every batch, to measure the CPU
     *               time of the same transforms in the same run (null: no shadow)
     */
    public FpgaSimBackend(FpgaTimingModel model, FpgaTimingModel.Mode mode, NttBackend shadow) {
        this.model = Objects.requireNonNull(model, "model");
        this.mode = Objects.requireNonNull(mode, "mode");
        this.shadow = shadow;
    }

    @Override
    public String name() {
        return NAME;
    }

    public FpgaTimingModel model() {
        return model;
    }

    public FpgaTimingModel.Mode mode() {
        return mode;
    }

    @Override
    public boolean accepts(NttTables t) {
        return t.primeBits() <= 62 && Wlm.supports(t.q()) && t.logN() <= 17;
    }

    /** Why a prime is refused, or null if it is accepted. */
    public static String refusal(NttTables t) {
        if (t.primeBits() > 62) return "q has " + t.primeBits() + " bits; the kernel takes at most 62";
        if (!Wlm.supports(t.q())) return "q ≢ 1 (mod 2^17): the WLM multiplier relies on q' = −q^-1 mod 2^17 = −1";
        if (t.logN() > 17) return "N > 2^17";
        return null;
    }

    @Override
    public void prepare(NttTables t) {
        if (accepts(t)) rootsOf(t);
    }

    private RootTables rootsOf(NttTables t) {
        return roots.computeIfAbsent(t, RootTables::new);
    }

    @Override
    public void forward(long[][] limbs, NttTables[] tables, int count) {
        run(limbs, tables, count, true);
    }

    @Override
    public void inverse(long[][] limbs, NttTables[] tables, int count) {
        run(limbs, tables, count, false);
    }

    private void run(long[][] limbs, NttTables[] tables, int count, boolean forward) {
        if (count == 0) return;
        for (int i = 0; i < count; i++) {
            if (limbs[i].length != tables[i].n())
                throw new IllegalArgumentException(
                        "limb " + i + " has " + limbs[i].length + " coefficients, tables are for N=" + tables[i].n());
            String why = refusal(tables[i]);
            if (why != null) throw new UnsupportedPrimeException(NAME, tables[i].q(), tables[i].logN(), why);
        }
        if (shadow != null) {
            long[][] copy = new long[count][];
            for (int i = 0; i < count; i++) copy[i] = limbs[i].clone();
            long s = System.nanoTime();
            if (forward) shadow.forward(copy, tables, count);
            else shadow.inverse(copy, tables, count);
            shadowNanos.add(System.nanoTime() - s);
        }
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            if (forward) forwardKernel(limbs[i], tables[i], rootsOf(tables[i]));
            else inverseKernel(limbs[i], tables[i], rootsOf(tables[i]));
        }
        int n = tables[0].n();
        stats.record(count, n, System.nanoTime() - start);
        FpgaTimingModel.Breakdown b = model.call(mode, count, n);
        deviceMicros.add(b.totalMicros());
        h2cMicros.add(b.h2cMicros());
        kernelMicros.add(b.kernelMicros());
        c2hMicros.add(b.c2hMicros());
        synchronized (histogram) {
            histogram.mergeLong(count, 1, Long::sum);
        }
    }

    /** Cooley–Tukey datapath: u' = u + WLM(v, TF), v' = u − WLM(v, TF), TF = ψ^{brev(m+i)}·R from the root tables. */
    static void forwardKernel(long[] a, NttTables tb, RootTables rt) {
        final int n = tb.n(), logN = tb.logN();
        final long q = tb.q();
        for (int m = 1, t = n >>> 1; m < n; m <<= 1, t >>>= 1) {
            for (int i = 0; i < m; i++) {
                final long tf = rt.forwardTwiddle(Integer.reverse(m + i) >>> (32 - logN));
                for (int j = 2 * i * t, end = j + t; j < end; j++) {
                    long u = a[j], p = Wlm.mul(a[j + t], tf, q);
                    long s = u + p;
                    a[j] = s >= q ? s - q : s;
                    long d = u - p;
                    a[j + t] = d < 0 ? d + q : d;
                }
            }
        }
    }

    /** Gentleman–Sande datapath: u' = (u + v)/2 by a halving, v' = WLM(u − v, TF) with TF = ψ^{−brev(h+i)}·2^-1·R. */
    static void inverseKernel(long[] a, NttTables tb, RootTables rt) {
        final int n = tb.n(), logN = tb.logN();
        final long q = tb.q();
        for (int m = n, t = 1; m > 1; m >>>= 1, t <<= 1) {
            final int h = m >>> 1;
            for (int i = 0, j1 = 0; i < h; i++, j1 += 2 * t) {
                final long tf = rt.inverseTwiddle(Integer.reverse(h + i) >>> (32 - logN));
                for (int j = j1, end = j1 + t; j < end; j++) {
                    long u = a[j], v = a[j + t];
                    long s = u + v;
                    if (s >= q) s -= q;
                    a[j] = (s & 1) == 0 ? s >>> 1 : (s + q) >>> 1; // s/2 mod q: the carry-chain halving
                    long d = u - v;
                    if (d < 0) d += q;
                    a[j + t] = Wlm.mul(d, tf, q);
                }
            }
        }
    }

    @Override
    public NttStats stats() {
        return stats;
    }

    /** An immutable reading of the offload statistics. */
    public record OffloadStats(
            long calls,
            long limbs,
            long bytesIn,
            long bytesOut,
            double deviceMicros,
            double h2cMicros,
            double kernelMicros,
            double c2hMicros,
            long shadowCpuNanos,
            Map<Integer, Long> limbsPerCallHistogram) {}

    public OffloadStats offloadStats() {
        NttStats.Snapshot s = stats.snapshot();
        Map<Integer, Long> h;
        synchronized (histogram) {
            h = Map.copyOf(new TreeMap<>(histogram));
        }
        return new OffloadStats(
                s.calls(),
                s.limbs(),
                s.bytesIn(),
                s.bytesOut(),
                deviceMicros.sum(),
                h2cMicros.sum(),
                kernelMicros.sum(),
                c2hMicros.sum(),
                shadowNanos.sum(),
                h);
    }

    public void resetStats() {
        stats.reset();
        deviceMicros.reset();
        h2cMicros.reset();
        kernelMicros.reset();
        c2hMicros.reset();
        shadowNanos.reset();
        synchronized (histogram) {
            histogram.clear();
        }
    }

    /** A streaming or memory-mapped instance with the paper's model and a cpu-scalar shadow. */
    public static FpgaSimBackend withShadow(FpgaTimingModel.Mode mode, NttBackend shadow) {
        return new FpgaSimBackend(FpgaTimingModel.PAPER, mode, shadow == null ? NttBackends.scalar() : shadow);
    }

    @Override
    public String toString() {
        return NAME + "(" + mode.name().toLowerCase(Locale.ROOT) + ")";
    }
}
