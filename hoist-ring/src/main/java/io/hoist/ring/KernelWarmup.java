package io.hoist.ring;

import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import io.hoist.random.Prng;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

/**
 * JIT warm-up of the hot limb kernels. They are Vector API code: C2 compiles them well, but until
 * then they run boxed, 10–100× slower, and a kernel C2 compiled from a narrow profile (keygen and
 * encoding call it with few terms, without accumulation) is deoptimised the first time an
 * evaluation takes another branch, and runs slowly again until recompiled. Calling every kernel
 * on small limbs (N = 2^8) with every combination of its branches — small and large primes, one
 * and two outputs, few and many terms, writing and accumulating — compiles each once with a
 * complete profile, so the first evaluation runs at warm speed.
 *
 * <p>{@link #start} does it once per JVM on a daemon thread at minimum priority, overlapping the
 * keygen and encoding that precede any evaluation, on the prime sizes the evaluation will use. While
 * it runs, every other thread calls the scalar twins of {@link TunedLimbKernels} and {@link
 * TunedNttBackend} (bit-identical, so only times change): the transforms first, alone, until the
 * vector forward transform beats the scalar one, then everything else; so keygen and encoding no
 * longer run the vector forms boxed before C2 has them, nor flood C2's queue with the Vector API's
 * fallbacks. With the warm-up started before the demo's test matrix, the demo on 2 processors: keygen
 * 0.41×, encoding 0.67×, first / warm evaluation 1.30 → 1.10 (docs/throughput.md, "Scalar twins while
 * the vector forms compile"). By default with two or
 * more processors; on one it could only compete. {@code -Dhoist.warmup=true} forces it, {@code
 * false} turns it off (the test JVMs, and benchmarks that measure the warm-up itself).
 */
public final class KernelWarmup {
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile Thread thread;
    /**
     * Cleared while the warm-up runs: the other threads then call the scalar twins ({@link #vectorsWarm}).
     * A vector form runs boxed as interpreted or C1 code until C2 has compiled it, and the Vector API's
     * fallbacks it calls there flood C2's queue (docs/throughput.md, "Scalar twins while the vector
     * forms compile").
     */
    private static volatile boolean vectorsOpen = true;
    /**
     * The NTTs' gate, open again as soon as the warm-up has timed the vector forward transform faster than
     * the scalar one on every prime class: key generation and encoding are mostly forward transforms.
     */
    private static volatile boolean nttOpen = true;
    /** The warm-up's own threads, which run the vector forms to compile them. */
    private static final ThreadLocal<Boolean> WARMING = ThreadLocal.withInitial(() -> false);
    /**
     * Rounds per prime class. C2 compiles a method after about 100 interpreted and 600 profiled calls
     * (HotSpot's Tier3MinInvocationThreshold and Tier4MinInvocationThreshold), however long its loops.
     */
    static final int ROUNDS = 800;

    private KernelWarmup() {}

    /** Processors from which {@code auto} warms up: on one the thread only competes with keygen and encoding. */
    static final int AUTO_MIN_PROCESSORS = 2;

    /**
     * Starts the warm-up of {@code kernels} and {@code backend} unless it ran already or
     * {@code hoist.warmup} turns it off: {@code true} always, {@code false} never, {@code auto} (the
     * default) with at least {@link #AUTO_MIN_PROCESSORS} processors. {@code moduli} are the primes
     * the evaluations will use: one of each size class the kernels dispatch on is warmed up ({@link
     * #representatives}), and primes of the other bit lengths in each class a few times ({@link
     * #variants}); none given, a prime of every class.
     */
    public static void start(LimbKernels kernels, NttBackend backend, long... moduli) {
        start(kernels, backend, null, moduli);
    }

    /**
     * {@link #start(LimbKernels, NttBackend, long...)} with the numbers of terms of the evaluations' key inner
     * products (their digit counts): each has a straight-line method of its own ({@link FusedDotKernels}), which
     * C2 compiles in 13–83 MB of arena, so the warm-up compiles only these, each in every round; null: all of
     * them, the largest every round and the others in turn.
     */
    public static void start(LimbKernels kernels, NttBackend backend, int[] dotTerms, long... moduli) {
        if (!enabled(
                System.getProperty("hoist.warmup", "auto"), Runtime.getRuntime().availableProcessors())) return;
        if (!STARTED.compareAndSet(false, true)) return;
        int rounds = Integer.getInteger("hoist.warmup.rounds", ROUNDS);
        long[] primes = representatives(moduli), others = variants(moduli);
        int[] fused = fusedTerms(dotTerms);
        Thread t = new Thread(() -> runThenOpen(kernels, backend, rounds, primes, others, fused), "hoist-warmup");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        thread = t;
        shutGates();
        t.start();
    }

    /** Shuts both gates: until they open, other threads run the scalar twins. */
    static void shutGates() {
        vectorsOpen = false;
        nttOpen = false;
        Prng.holdLanes(true);
    }

    /** {@link #runThenOpen(LimbKernels, NttBackend, int, long[], long[], int[])} with every fused dot product. */
    static void runThenOpen(LimbKernels k, NttBackend backend, int rounds, long[] primes, long[] others) {
        runThenOpen(k, backend, rounds, primes, others, null);
    }

    /** The warm-up on the calling thread, which runs the vector forms meanwhile; both gates open when it ends, however it ends. */
    static void runThenOpen(
            LimbKernels k, NttBackend backend, int rounds, long[] primes, long[] others, int[] fusedTerms) {
        WARMING.set(true);
        try {
            Prng.warmCipher(); // first: keygen streams AES-CTR from its start
            run(k, backend, rounds, primes, others, fusedTerms);
        } finally {
            WARMING.remove();
            nttOpen = true;
            vectorsOpen = true;
            Prng.holdLanes(false);
        }
    }

    /**
     * Whether the calling thread runs the vector forms of {@link TunedLimbKernels} and {@link
     * TunedNttBackend}: always, except while a warm-up started by {@link #start}
     * compiles them (its own threads excepted). Every form is bit-identical, so this changes times only.
     *
     * <p>No branch on the gate (an open flag and {@code |}; javac compiles {@code !} and {@code ||} to branches): code
     * C2 compiled during the warm-up had seen it shut only, and deoptimized at its first call after it opened.
     */
    static boolean vectorsWarm() {
        return vectorsOpen | WARMING.get();
    }

    /** As {@link #vectorsWarm}, for the NTTs, whose gate opens first. */
    static boolean nttWarm() {
        return nttOpen | WARMING.get();
    }

    /** Rounds in a row, per prime, in which the vector forward NTT beats the scalar one before its gate opens. */
    static final int NTT_FASTER_ROUNDS = 3;

    /**
     * One prime per size class the kernels dispatch on (below 2^31: one-word products; below 2^50: the
     * FMA forms; below 2^61: the 64-bit vector forms; above: the scalar twin), in the order given: the
     * modulus itself where it is an NTT prime of degree 2^8 (any NTT prime of N ≥ 2^8 is), else one
     * of its bit length (at least 20) that is; every class when none is given. A class the evaluation never
     * reaches is not warmed: each costs its share of a core while keygen and encoding run.
     */
    static long[] representatives(long... moduli) {
        if (moduli == null || moduli.length == 0) {
            return new long[] {
                Primes.nttPrimes(LOG_N, 30, 1).get(0),
                Primes.nttPrimes(LOG_N, 50, 1).get(0),
                Primes.nttPrimes(LOG_N, 61, 1).get(0)
            };
        }
        long[] out = new long[4];
        boolean[] seen = new boolean[4];
        int count = 0;
        for (long q : moduli) {
            if (q < 3) throw new IllegalArgumentException("not a prime modulus: " + q);
            int c = sizeClass(q);
            if (seen[c]) continue;
            seen[c] = true;
            boolean ntt = (q - 1) % (2L << LOG_N) == 0;
            // a prime of q's bit length (or 20 bits) ≡ 1 mod 2^11 stays in q's class: the bounds are powers of two
            out[count++] = ntt ? q : nttPrimeOfBits(bits(q));
        }
        return Arrays.copyOf(out, count);
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

    /** Waits for a started warm-up to end; returns whether one was still running (false at once otherwise). */
    public static boolean await() throws InterruptedException {
        Thread t = thread;
        if (t == null || !t.isAlive()) return false;
        t.join();
        return true;
    }

    /** The warm-up in the calling thread: {@code rounds} calls of every kernel and branch combination, every class. */
    public static void run(LimbKernels k, NttBackend backend, int rounds) {
        run(k, backend, rounds, representatives());
    }

    /**
     * Degree of the warm-up's limbs: short, so that a round is cheap even before C2 has compiled it (it
     * runs beside keygen and encoding on the same processors); C2 counts calls, not their length. 2^8
     * against 2^10: demo encoding 0.85×, wall 0.95× (0.84× and 0.93× under AVX2), warm evaluations equal.
     */
    static final int LOG_N = 8;

    /**
     * {@code rounds} rounds per prime in {@code primes}, each calling every kernel in one combination of
     * its branches: one and two outputs, few terms and more than a
     * Montgomery chunk, writing and accumulating, both NTT directions. C2 compiles a method only after
     * about 600 calls from its profiled form, so every method gets about {@code rounds} calls.
     */
    static void run(LimbKernels k, NttBackend backend, int rounds, long[] primes) {
        run(k, backend, rounds, primes, new long[0]);
    }

    /**
     * {@link #run(LimbKernels, NttBackend, int, long[])}, and one round in {@link #VARIANT_EVERY} for each
     * prime of {@code others} (its combinations cycle all the same).
     */
    static void run(LimbKernels k, NttBackend backend, int rounds, long[] primes, long[] others) {
        run(k, backend, rounds, primes, others, null);
    }

    /** {@link #run(LimbKernels, NttBackend, int, long[], long[])}, the fused dot products at {@code fusedTerms}. */
    static void run(LimbKernels k, NttBackend backend, int rounds, long[] primes, long[] others, int[] fusedTerms) {
        long[] all = Arrays.copyOf(primes, primes.length + others.length);
        System.arraycopy(others, 0, all, primes.length, others.length);
        int[] named = fusedTerms(fusedTerms);
        // counts the caller named each every round: bootstrapping's EvalMod relinearizes at three of them, and in
        // turn they reached C2 only in its first run, which then spent 2 s compiling them
        Bench b = new Bench(
                k, backend, all, fmaCoverage(backend, all), named == null ? ALL_FUSED_TERMS : named, named != null);
        // the transforms first, alone, until they beat their scalar twins: key generation and encoding,
        // which run beside the warm-up, are mostly transforms and wait for them (scalar until then).
        // After `rounds` of them C2 has them in any case: the gate opens even where the scalar twin
        // stays faster on the warm-up's short limbs
        for (int i = 0; i < rounds && !nttOpen; i++) {
            for (int pi = 0; pi < all.length; pi++) b.ntt(pi);
            b.cover();
        }
        nttOpen = true;
        // a round holds no loop of its own, so this driver stays below C2's thresholds: compiling it,
        // with every kernel inlined, took 0.5 s of the only C2 thread on 2 processors and served no caller
        for (int i = 0; i < rounds; i++) {
            for (int pi = 0; pi < primes.length; pi++)
                if (i % FRESH_THREAD_EVERY == FRESH_THREAD_EVERY - 1) onFreshThread(b, i, pi);
                else b.round(i, pi);
            if (i % VARIANT_EVERY == 0)
                for (int vi = 0; vi < others.length; vi++) b.round(i / VARIANT_EVERY, primes.length + vi);
            b.cover();
        }
    }

    /** Every number of terms a fused dot product takes. */
    static final int[] ALL_FUSED_TERMS =
            IntStream.rangeClosed(1, FusedDotKernels.MAX_TERMS).toArray();

    /**
     * The distinct counts of {@code terms} that {@link FusedDotKernels} takes, sorted; null when none is named
     * (null, or no count in range): then every count is warmed, the largest every round and the others in turn.
     */
    static int[] fusedTerms(int[] terms) {
        if (terms == null) return null;
        int[] t = Arrays.stream(terms)
                .filter(c -> c >= 1 && c <= FusedDotKernels.MAX_TERMS)
                .distinct()
                .sorted()
                .toArray();
        return t.length == 0 ? null : t;
    }

    /**
     * The rate of the {@link #variants}' rounds: enough to show C2 their branches, a small share of the
     * warm-up's cost.
     */
    static final int VARIANT_EVERY = 8;

    /**
     * Primes of {@code moduli} whose bit length differs from their class's representative's: the
     * smallest and the largest such length per class, as NTT primes of degree 2^8. Some kernels branch
     * on the prime's size within a class (the FMA transforms reduce at stages that depend on it, the
     * dot products' Montgomery chunks are as long as it allows): with the representative alone, C2
     * compiled the other sizes' branches as traps, and under {@code -XX:UseAVX=2} the n13 preset's
     * 40-bit primes deoptimised the FMA inverse NTT in the first evaluation, which then ran as C1 code
     * for the rest of it.
     */
    static long[] variants(long... moduli) {
        if (moduli == null || moduli.length == 0) return new long[0];
        long[] reps = representatives(moduli);
        long[] out = new long[2 * reps.length];
        int count = 0;
        for (long r : reps) {
            int c = sizeClass(r), bits = bits(r), lo = bits, hi = bits;
            for (long q : moduli)
                if (sizeClass(q) == c) {
                    lo = Math.min(lo, bits(q));
                    hi = Math.max(hi, bits(q));
                }
            if (lo != bits) out[count++] = nttPrimeOfBits(lo);
            if (hi != bits && hi != lo) out[count++] = nttPrimeOfBits(hi);
        }
        return Arrays.copyOf(out, count);
    }

    /** Bit lengths of primes whose FMA transforms at the warm-up's degree take every kind of pass together. */
    static final int[] FMA_COVERAGE_BITS = {30, FmaNtt.MAX_BITS - 1};

    /**
     * Where {@code backend} runs some prime of {@code warmed} in FMA lanes, the {@link #FMA_COVERAGE_BITS}
     * primes, whose FMA transforms the warm-up runs in every round. A transform's passes are fixed by its
     * prime and degree ({@link FmaNtt#forwardPlan}): with four lanes or more, at 2^8 a 49-bit prime takes
     * every forward kind and every inverse one but the paired stages, which a 30-bit prime takes. With the
     * evaluation's primes alone, C2 compiled the drivers without a kind that the first evaluation, at a
     * higher degree, took; it deoptimised there.
     */
    static long[] fmaCoverage(NttBackend backend, long... warmed) {
        if (!(backend instanceof TunedNttBackend tuned) || Arrays.stream(warmed).noneMatch(tuned::runsFma))
            return new long[0];
        return Arrays.stream(FMA_COVERAGE_BITS)
                .mapToLong(KernelWarmup::nttPrimeOfBits)
                .toArray();
    }

    private static int bits(long q) {
        return 64 - Long.numberOfLeadingZeros(q);
    }

    private static int sizeClass(long q) {
        return q < VectorDotKernels.SMALL_Q ? 0 : q < FmaDotKernels.MAX_Q ? 1 : q < VectorLimbKernels.MAX_Q ? 2 : 3;
    }

    /** An NTT prime of degree 2^8 with {@code bits} bits (at least 20): the class bounds are powers of two. */
    private static long nttPrimeOfBits(int bits) {
        return Primes.nttPrimes(LOG_N, Math.max(20, bits), 1).get(0);
    }

    /**
     * Every this many rounds, one runs on a thread that has not called the kernels yet. Their per-thread
     * scratch is a {@link ThreadLocal}; C2 compiles the lookup's first-call branches, never taken on the
     * warm-up's one thread, as uncommon traps, and the engine's threads (or the caller's) took them in
     * the first evaluation: the dot product and sumShoup deoptimised there and were compiled again
     * (150–180 ms of C2 time on 2 processors). Taken here, the traps are recorded and the recompiled
     * kernels keep those branches.
     */
    static final int FRESH_THREAD_EVERY = 100;

    private static void onFreshThread(Bench b, int i, int pi) {
        Throwable[] failed = new Throwable[1];
        Thread t = new Thread(
                () -> {
                    WARMING.set(true);
                    try {
                        b.round(i, pi);
                    } catch (Throwable e) { // rethrown on the warm-up thread below
                        failed[0] = e;
                    }
                },
                "hoist-warmup-fresh");
        t.setDaemon(true);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("kernel warm-up interrupted", e);
        }
        Throwable f = failed[0];
        if (f instanceof RuntimeException e) throw e;
        if (f instanceof Error e) throw e;
        if (f != null) throw new IllegalStateException("kernel warm-up failed on a fresh thread", f);
    }

    /**
     * Every coefficient of {@code limbs} uniform below q, from {@code seed}: kernels branch on their data (a carry, a
     * correction by q), and C2 lays each branch out from the profile it has. On the warm-up's earlier limbs, zero but
     * one coefficient in 97, it laid out as a rarely taken jump a branch that real data takes half the time (the scalar
     * subMulShoup, 4× slower under UseAVX=2: docs/benchmarks.md, forty-sixth and forty-seventh sessions). A
     * multiplicative sequence scaled by q: about 0.5 ns a coefficient.
     */
    static void fillUniform(long[][][] limbs, long q, long seed) {
        long s = seed | 1;
        for (long[][] a : limbs)
            for (long[] limb : a)
                for (int c = 0; c < limb.length; c++) {
                    s *= 0x9E3779B97F4A7C15L;
                    limb[c] = Math.unsignedMultiplyHigh(s ^ (s >>> 29), q);
                }
    }

    /** The warm-up's limbs and tables, and one round of kernel calls. */
    private static final class Bench {
        /** Past every prime's Montgomery chunk: the chunk loop runs more than once. */
        private static final int MAX_TERMS = 40;

        private final LimbKernels k;
        private final NttBackend backend;
        private final long[] primes;
        private final int n = 1 << LOG_N;
        private final SplittableRandom r = new SplittableRandom(1);
        /**
         * Bytes for {@link Prng#warmLanes}: zero words, copied, then an all-ones word, which every prime's mask
         * keeps above q, so the last vector stops the run (both branches compiled, none a trap).
         */
        private final byte[] stream = new byte[8 * n];

        private final long[][][] in = new long[3][MAX_TERMS][n];
        private final long[][] out = new long[4][n];
        private final long[][] outA, outB, limb0;
        private final long[][][] f = new long[2][MAX_TERMS][], fPacked = new long[2][MAX_TERMS][];
        /** Two outputs with the same terms: the paired kernels ({@link FmaDotKernels#groupBlock}, {@link VectorDotKernels#dualBlock}). */
        private final long[][][] fPair = new long[2][MAX_TERMS][];
        /** Four outputs with the same terms: the FMA form's four ({@link FmaDotKernels#groupBlock}). */
        private final long[][][] fQuad = new long[4][MAX_TERMS][];

        private final int[][] fOff4 = new int[4][MAX_TERMS];
        private final long[][] quad0 = new long[4][n], quad1 = new long[4][n];
        /** Every output limb, refilled each round by {@link #fill}. */
        private final long[][][] outputs = {out, quad0, quad1};
        /** Word offsets of the terms' factors: given, as an evaluation gives them for diagonals held in slabs. */
        private final int[][] fOff = new int[2][MAX_TERMS];

        private final long[][] packed = new long[MAX_TERMS][n / 2];
        private final NttPermutation idx = Automorphism.nttPermutation(LOG_N, 5);
        private final NttTables[][] tables;
        /** The {@link #fmaCoverage} primes' tables, whose FMA transforms run directly every round. */
        private final NttTables[] coverage;

        private final boolean limbBackend;
        /** Per prime, the rounds in a row in which the vector forward NTT beat its scalar twin. */
        private final int[] faster;

        /**
         * Limbs borrowed and returned per round: every evaluation borrows and returns thousands, and C2
         * compiled {@link LimbPool#get} and {@link LimbPool#put} (with the identity set they inline) in
         * the first evaluation, 40–50 ms of its only thread on two processors. The identity set they
         * inline must see here what it sees there, or C2 compiles the other branches as traps that the
         * first evaluation takes: probes that collide and wrap and deletions that close (85 out fill
         * the set's table to its third, as an evaluation's hundreds do), and growth (a fresh pool).
         */
        private static final int POOL_LIMBS = 85;

        private static final int FRESH_POOL_EVERY = 16;
        private LimbPool pool;
        private final long[][] twin = new long[1][n];
        private final NttBackend scalarNtt = NttBackends.scalar();
        private final long[] wv = new long[MAX_TERMS], wsv = new long[MAX_TERMS];
        /**
         * A basis conversion between the warm-up's primes (first half to the rest), run once a round:
         * until it was, C2 compiled its estimate loop (on stack and whole) in the first evaluation
         * (docs/benchmarks.md, twenty-third session). Null with fewer than two distinct primes.
         */
        private final BConv bconv;

        private final long[][] bIn, bY, bOut;
        private final long[] bU = new long[n];
        private final long[][] ew = new long[2][n];

        /** The fused dot products' numbers of terms: the largest every round, the others every round or in turn. */
        private final int[] fusedTerms;

        private final boolean everyRound;

        Bench(LimbKernels k, NttBackend backend, long[] primes, long[] coverage, int[] fusedTerms, boolean everyRound) {
            this.k = k;
            this.fusedTerms = fusedTerms;
            this.everyRound = everyRound;
            this.coverage = new NttTables[coverage.length];
            for (int c = 0; c < coverage.length; c++) this.coverage[c] = NttTables.of(LOG_N, coverage[c]);
            this.backend = backend;
            this.primes = primes;
            this.tables = new NttTables[primes.length][];
            for (int p = 0; p < primes.length; p++) tables[p] = new NttTables[] {NttTables.of(LOG_N, primes[p])};
            for (int o = 0; o < 2; o++)
                for (int t = 0; t < MAX_TERMS; t++) {
                    f[o][t] = (t + o) % 3 == 0 ? null : in[2][t];
                    fPacked[o][t] = f[o][t] == null ? null : packed[t];
                    fPair[o][t] = t % 3 == 0 ? null : in[2 - o][t];
                    fQuad[o][t] = fQuad[o + 2][t] = fPair[o][t];
                }
            this.outA = new long[][] {out[2], out[3]};
            this.outB = new long[][] {out[0], out[1]};
            this.limb0 = new long[][] {out[0]};
            this.limbBackend = backend instanceof LimbNttBackend;
            for (int c = 0; c < n; c++) out[0][c] = r.nextLong(); // reduced per prime before each transform
            Arrays.fill(stream, 8 * n - 8, 8 * n, (byte) -1);
            this.faster = new int[primes.length];
            long[] distinct = Arrays.stream(primes).distinct().toArray();
            int h = distinct.length / 2;
            this.bconv = h == 0
                    ? null
                    : new BConv(
                            new RnsBasis(Arrays.copyOf(distinct, h)),
                            new RnsBasis(Arrays.copyOfRange(distinct, h, distinct.length)));
            this.bIn = new long[h][n];
            this.bY = new long[h][n];
            this.bOut = new long[distinct.length - h][n];
            for (int i = 0; i < h; i++) for (int c = 0; c < n; c++) bIn[i][c] = r.nextLong(distinct[i]);
        }

        void round(int i, int pi) {
            long q = primes[pi];
            // the random stream's lanes too, held meanwhile (Prng.holdLanes): run boxed until C2 had them, they
            // made the n13 keygen, which runs beside the warm-up, 1.3–2× slower
            Prng.warmLanes(stream, q, out[3]);
            fill(q);
            // 5 terms (3 present in the pairs and fours) and 40 (26 present): the grouped FMA kernels take two terms
            // per pass, and an odd one left over is a branch the first evaluation must not find uncompiled
            int terms = (i & 1) == 0 ? 5 : MAX_TERMS;
            boolean acc = (i & 2) != 0;
            // two outputs of few terms past the fused forms' reach: the blocked kernels' branch (5 terms would
            // compile the fused method of 5, 83 MB of C2's arena, where the evaluations need other counts)
            k.dot2Montgomery(
                    in[0], in[1], in[2], terms == 5 ? FusedDotKernels.MAX_TERMS + 1 : terms, out[0], out[1], q, acc);
            k.dot2Montgomery(in[0], in[1], null, terms, out[2], null, q, !acc);
            // a key inner product's few terms, in the evaluations' counts (FusedDotKernels): the largest, the top
            // level's, every round (with one count a round in turn, C2 had it only in the first evaluation of
            // CoeffsToSlots at boot16), any others in turn every VARIANT_EVERY rounds (each compiled method takes
            // C2 13–83 MB of arena, and C2 time beside keygen)
            int top = fusedTerms[fusedTerms.length - 1];
            k.dot2Montgomery(in[0], in[1], in[2], top, out[0], out[1], q, !acc);
            if (everyRound) {
                // writing only, as the relinearizations at those counts do: with both branches in the profile
                // EvalMod's warm bootstrap took 6.86–7.16 s against 6.63–7.00 (3 rounds)
                for (int other : fusedTerms)
                    if (other != top) k.dot2Montgomery(in[0], in[1], in[2], other, out[0], out[1], q, false);
            } else {
                int other = fusedTerms[(i / VARIANT_EVERY) % fusedTerms.length];
                if (i % VARIANT_EVERY == 0 && other != top)
                    k.dot2Montgomery(in[0], in[1], in[2], other, out[0], out[1], q, acc);
            }
            k.dot2MontgomeryMulti(in[0], in[1], f, fOff, false, terms, 1 + (i & 1), outA, outB, q, acc);
            // the four on one round in four (every terms/accumulate combination), else the pair: both
            // paths compiled with every branch, and the warm-up, which still runs beside the first
            // evaluation on two processors, about 5 % longer than with pairs alone (8 % with the four
            // every other round)
            if ((i & 12) != 12) k.dot2MontgomeryMulti(in[0], in[1], fPair, fOff, false, terms, 2, outA, outB, q, !acc);
            else k.dot2MontgomeryMulti(in[0], in[1], fQuad, fOff4, false, terms, 4, quad0, quad1, q, !acc);
            // and a short pair in every round: the grouped kernels' driver, called once per pair or four
            // here but hundreds of times per evaluation, reached C2's threshold in the first evaluation
            // in about one run in three (45–50 ms of C2 there); three terms present, so the odd one left
            // over (the integer pairs' singles) is called every round too: with five terms every other
            // round, C2 compiled it whole in the demo's first evaluation in one run of two (40 ms)
            k.dot2MontgomeryMulti(in[0], in[1], fPair, fOff, false, 5, 2, outA, outB, q, acc);
            if (PackedLimbs.packs(q, n)) {
                pack(terms);
                k.dot2MontgomeryMulti(in[0], in[1], fPacked, fOff, true, terms, 2 - (i & 1), outA, outB, q, !acc);
            }
            long w = r.nextLong(q), ws = ModArith.shoupQuotient(w, q);
            elementWise(w, q);
            k.mulShoup(in[0][0], w, ws, q, out[2], 0, n);
            k.subMulShoup(in[0][1], in[1][1], out[3], w, ws, q);
            weights(q, terms);
            k.sumShoup(in[1], 0, (i & 4) != 0 ? 1 : (i & 1) == 0 ? 3 : 8, wv, wsv, q, out[2], 0, n);
            // a tensor product's outer terms (and mulCoeffsAdd), three calls a round: these dispatchers hold no loop,
            // and with C2's queue full of the kernels their own compilation came at the warm-up's end or in the first
            // bootstrap (40–60 ms there in half the boot14 runs)
            for (int c = 0; c < 3; c++) {
                k.mulModSum(in[c & 1][0], in[1 - (c & 1)][0], in[0][1], in[1][1], out[3], q);
                k.mulMod(in[0][1], in[1][1], out[3], q, acc ^ (c == 1));
            }
            signed(in[2][0], q);
            k.liftSigned(in[2][0], w, ws, q, out[1]);
            k.automorphismNtt(out[0], acc ? null : out[1], out[2], idx, q, acc);
            k.automorphismNtt(out[1], out[0], out[3], idx, q, !acc);
            k.automorphismNtt(out[2], null, out[3], idx, q, false);
            // the key switch adds with this directly, not through the kernels: until the warm-up ran it,
            // C2 compiled it (on stack and whole) in the first evaluation
            LimbKernels.addMod(out[0], out[1], out[2], q);
            if (pi == 0) convert();
            ntt(pi);
            borrowAndReturn(i);
        }

        private void convert() {
            if (bconv == null) return;
            bconv.prepare(bIn, bY, bU, n, null, k);
            bconv.convert(bY, bU, bOut, 0, bOut.length, n, null, k);
        }

        /**
         * The element-wise steps that EvalMod, ModRaise and the rescale call directly, not through the kernels: C2
         * compiled them in the first bootstrap (sumAndDifference, centre and addScalarMod, 40 ms at boot14).
         */
        private void elementWise(long c, long q) {
            LimbKernels.addScalarMod(in[0][0], c, ew[0], q);
            System.arraycopy(in[1][0], 0, ew[1], 0, n);
            LimbKernels.sumAndDifference(ew[0], ew[1], q);
            LimbKernels.centre(ew[1], q);
        }

        /**
         * {@link #POOL_LIMBS} limbs borrowed, then returned in another order; from a fresh pool every
         * {@link #FRESH_POOL_EVERY} rounds.
         */
        private void borrowAndReturn(int i) {
            if (i % FRESH_POOL_EVERY == 0) pool = new LimbPool(n);
            long[][] a = pool.get(POOL_LIMBS);
            for (int t = 0; t < POOL_LIMBS; t++) pool.put(a[t * 37 % POOL_LIMBS]);
        }

        /** A forward and an inverse transform modulo prime {@code pi}, the forward one timed against its scalar twin while the NTTs' gate is shut. */
        void ntt(int pi) {
            if (!limbBackend) return;
            reduce(out[0], primes[pi]);
            long t0 = System.nanoTime();
            backend.forward(limb0, tables[pi], 1);
            long vector = System.nanoTime() - t0;
            backend.inverse(limb0, tables[pi], 1);
            if (!nttOpen) timeScalarTwin(pi, vector);
        }

        /** Both FMA transforms modulo each {@link #fmaCoverage} prime, on the scalar twin's scratch limb reduced first. */
        void cover() {
            for (NttTables t : coverage) {
                FmaNtt f = ((TunedNttBackend) backend).fmaTransform(t); // made once, then looked up
                if (f == null) continue;
                reduce(twin[0], f.modulus());
                f.forward(twin[0]);
                f.inverse(twin[0]);
            }
        }

        /**
         * Opens the NTTs' gate once the vector forward transform ({@code vector} ns) has beaten the scalar
         * one on the same limb {@link #NTT_FASTER_ROUNDS} rounds in a row for every prime: C2 has then
         * compiled it (boxed, it is many times slower than the scalar twin).
         */
        private void timeScalarTwin(int pi, long vector) {
            System.arraycopy(limb0[0], 0, twin[0], 0, n);
            long t0 = System.nanoTime();
            scalarNtt.forward(twin, tables[pi], 1);
            long scalar = System.nanoTime() - t0;
            faster[pi] = vector < scalar ? faster[pi] + 1 : 0;
            for (int f : faster) if (f < NTT_FASTER_ROUNDS) return;
            nttOpen = true;
        }

        /** Inputs and outputs dense below q: accumulating calls add into outputs that held another prime's residues. */
        private void fill(long q) {
            fillUniform(in, q, r.nextLong());
            fillUniform(outputs, q, r.nextLong());
        }

        /** The terms' factors packed (this round's prime packs, so {@link #fill} left them below 2^31). */
        private void pack(int terms) {
            for (int t = 0; t < terms; t++) PackedLimbs.pack(in[2][t], packed[t]);
        }

        private void weights(long q, int terms) {
            for (int t = 0; t < terms; t++) {
                wv[t] = r.nextLong(q);
                wsv[t] = ModArith.shoupQuotient(wv[t], q);
            }
        }

        private void signed(long[] limb, long q) {
            for (int c = 0; c < n; c++) limb[c] = r.nextLong(-(q >> 2), q >> 2);
        }

        private static void reduce(long[] limb, long q) {
            for (int c = 0; c < limb.length; c++) limb[c] = Long.remainderUnsigned(limb[c], q);
        }
    }
}
