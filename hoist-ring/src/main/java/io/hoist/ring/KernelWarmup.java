package io.hoist.ring;

import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * JIT warm-up of the hot limb kernels. They are Vector API code: C2 compiles them well, but until
 * then they run boxed, 10–100× slower, and a kernel C2 compiled from a narrow profile (keygen and
 * encoding call it with few terms, without accumulation) is deoptimised the first time an
 * evaluation takes another branch, and runs slowly again until recompiled. Calling every kernel
 * on small limbs (N = 2^10) with every combination of its branches — small and large primes, one
 * and two outputs, few and many terms, writing and accumulating — compiles each once with a
 * complete profile, so the first evaluation runs at warm speed.
 *
 * <p>{@link #start} does it once per JVM on a daemon thread at minimum priority, overlapping the
 * keygen and encoding that precede any evaluation. By default only with four or more processors: on
 * two, its thread and its compilations slowed keygen and encoding by more than the first evaluation
 * gained (docs/throughput.md). {@code -Dhoist.warmup=true} forces it, {@code false} turns it off (the
 * test JVMs, and benchmarks that measure the warm-up itself).
 */
public final class KernelWarmup {
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile Thread thread;
    /** Calls per kernel and branch combination: past C2's invocation and loop thresholds. */
    static final int ROUNDS = 600;

    private KernelWarmup() {}

    /** Processors from which {@code auto} warms up: on fewer the thread competes with keygen and encoding. */
    static final int AUTO_MIN_PROCESSORS = 4;

    /**
     * Starts the warm-up of {@code kernels} and {@code backend} unless it ran already or
     * {@code hoist.warmup} turns it off: {@code true} always, {@code false} never, {@code auto} (the
     * default) with at least {@link #AUTO_MIN_PROCESSORS} processors.
     */
    public static void start(LimbKernels kernels, NttBackend backend) {
        if (!enabled(
                System.getProperty("hoist.warmup", "auto"), Runtime.getRuntime().availableProcessors())) return;
        if (!STARTED.compareAndSet(false, true)) return;
        int rounds = Integer.getInteger("hoist.warmup.rounds", ROUNDS);
        Thread t = new Thread(() -> run(kernels, backend, rounds), "hoist-warmup");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        thread = t;
        t.start();
    }

    /** Whether a {@code hoist.warmup} setting runs the warm-up on {@code processors} processors. */
    static boolean enabled(String setting, int processors) {
        String v = setting.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "true", "on", "yes", "1" -> true;
            case "auto", "" -> processors >= AUTO_MIN_PROCESSORS;
            default -> false; // false, off, …: as Boolean.parseBoolean read it before auto
        };
    }

    /** Waits for a started warm-up (no-op otherwise). */
    public static void await() throws InterruptedException {
        Thread t = thread;
        if (t != null) t.join();
    }

    /** The warm-up in the calling thread: {@code rounds} calls of every kernel and branch combination. */
    public static void run(LimbKernels k, NttBackend backend, int rounds) {
        final int logN = 10, n = 1 << logN;
        long[] primes = {
            Primes.nttPrimes(logN, 30, 1).get(0),
            Primes.nttPrimes(logN, 50, 1).get(0),
            Primes.nttPrimes(logN, 61, 1).get(0)
        };
        SplittableRandom r = new SplittableRandom(1);
        int maxTerms = 40; // past every prime's Montgomery chunk, so the chunk loop runs more than once
        long[][][] in = new long[3][maxTerms][n];
        long[][] out = new long[4][n];
        long[][][] f = new long[2][maxTerms][];
        NttPermutation idx = Automorphism.nttPermutation(logN, 5);
        NttTables[] tables = new NttTables[primes.length];
        for (int p = 0; p < primes.length; p++) tables[p] = NttTables.of(logN, primes[p]);
        for (int i = 0; i < rounds; i++) {
            int pi = i % primes.length;
            long q = primes[pi];
            for (long[][] a : in) for (long[] limb : a) for (int c = 0; c < n; c += 97) limb[c] = r.nextLong(q);
            for (int o = 0; o < 2; o++) for (int t = 0; t < maxTerms; t++) f[o][t] = (t + o) % 3 == 0 ? null : in[2][t];
            int terms = (i & 1) == 0 ? 3 : maxTerms;
            boolean acc = (i & 2) != 0;
            k.dot2Montgomery(in[0], in[1], (i & 4) != 0 ? null : in[2], terms, out[0], out[1], q, acc);
            k.dot2MontgomeryMulti(
                    in[0],
                    in[1],
                    f,
                    terms,
                    1 + (i & 1),
                    new long[][] {out[2], out[3]},
                    new long[][] {out[0], out[1]},
                    q,
                    acc);
            long w = r.nextLong(q), ws = ModArith.shoupQuotient(w, q);
            k.mulShoup(in[0][0], w, ws, q, out[2], 0, n);
            k.subMulShoup(in[0][1], in[1][1], out[3], w, ws, q);
            long[] wv = new long[terms], wsv = new long[terms];
            for (int t = 0; t < terms; t++) {
                wv[t] = r.nextLong(q);
                wsv[t] = ModArith.shoupQuotient(wv[t], q);
            }
            k.sumShoup(in[1], 0, Math.min(terms, 8), wv, wsv, q, out[2], 0, n);
            for (int c = 0; c < n; c++) in[2][0][c] = r.nextLong(-(q >> 2), q >> 2);
            k.liftSigned(in[2][0], w, ws, q, out[1]);
            k.automorphismNtt(out[0], acc ? null : out[1], out[2], idx, q, acc);
            k.automorphismNtt(out[1], out[0], out[3], idx, q, !acc);
            if (backend instanceof LimbNttBackend && i % 4 == 0) {
                for (int c = 0; c < n; c++) out[0][c] = Long.remainderUnsigned(out[0][c], q);
                backend.forward(new long[][] {out[0]}, new NttTables[] {tables[pi]}, 1);
                backend.inverse(new long[][] {out[0]}, new NttTables[] {tables[pi]}, 1);
            }
        }
    }
}
