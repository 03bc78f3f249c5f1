package io.hoist.ckks;

import io.hoist.math.ModArith;
import io.hoist.ring.BConv;
import io.hoist.ring.KernelWarmup;
import io.hoist.ring.NttBackend;
import io.hoist.ring.NttBackends;
import io.hoist.ring.NttEngine;
import io.hoist.ring.NttTables;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsBasis;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Everything derived from {@link CkksParameters} that the scheme's operations share: the rings
 * R_Q and R_P on one engine (NTT backend + operation counters), the per-level digit layout of
 * hybrid key switching, and cached basis converters and constants. Immutable and thread-safe.
 */
public final class CkksContext {
    private final CkksParameters params;
    private final NttEngine engine;
    private final Ring ringQ;
    private final Ring ringP;
    private final Map<Long, BConv> bconvs = new ConcurrentHashMap<>();
    /** [P]_{q_j} and [P^-1]_{q_j} with Shoup quotients. */
    final long[] pModQ, pInvModQ, pInvModQShoup;
    /** [q_ℓ^-1]_{q_j} for j &lt; ℓ, indexed [ℓ][j]. */
    final long[][] qLastInv, qLastInvShoup;
    /** [(q_ℓ·P)^-1]_{q_j} for j &lt; ℓ, indexed [ℓ][j]. */
    final long[][] qpLastInv, qpLastInvShoup;

    public CkksContext(CkksParameters params, NttEngine engine) {
        Objects.requireNonNull(engine, "engine is null");
        this.params = Objects.requireNonNull(params, "params");
        this.engine = Objects.requireNonNull(engine, "engine");
        this.ringQ = new Ring(params.logN(), params.qPrimes(), engine);
        this.ringP = new Ring(params.logN(), params.pPrimes(), engine);
        int nq = params.qCount();
        BigInteger bigP = BigInteger.ONE;
        for (long p : params.pPrimes()) bigP = bigP.multiply(BigInteger.valueOf(p));
        pModQ = new long[nq];
        pInvModQ = new long[nq];
        pInvModQShoup = new long[nq];
        for (int j = 0; j < nq; j++) {
            long q = params.q(j);
            pModQ[j] = bigP.mod(BigInteger.valueOf(q)).longValue();
            pInvModQ[j] = ModArith.invMod(pModQ[j], q);
            pInvModQShoup[j] = ModArith.shoupQuotient(pInvModQ[j], q);
        }
        qLastInv = new long[nq][];
        qLastInvShoup = new long[nq][];
        qpLastInv = new long[nq][];
        qpLastInvShoup = new long[nq][];
        for (int l = 1; l < nq; l++) {
            qLastInv[l] = new long[l];
            qLastInvShoup[l] = new long[l];
            qpLastInv[l] = new long[l];
            qpLastInvShoup[l] = new long[l];
            for (int j = 0; j < l; j++) {
                long q = params.q(j);
                qLastInv[l][j] = ModArith.invMod(params.q(l) % q, q);
                qLastInvShoup[l][j] = ModArith.shoupQuotient(qLastInv[l][j], q);
                qpLastInv[l][j] = ModArith.mulModSlow(qLastInv[l][j], pInvModQ[j], q);
                qpLastInvShoup[l][j] = ModArith.shoupQuotient(qpLastInv[l][j], q);
            }
        }
    }

    /** Context on the machine's default NTT backend with fresh counters. */
    public static CkksContext create(CkksParameters params) {
        Objects.requireNonNull(params, "params is null");
        return create(params, null, 1);
    }

    /** Context on the named backend with fresh counters. */
    public static CkksContext create(CkksParameters params, String backend) {
        Objects.requireNonNull(params, "params is null");
        return create(params, backend, 1);
    }

    /**
     * Context on the named backend (null: the default) whose limb transforms run on {@code threads}
     * threads per batch; results are bit-identical for every thread count.
     */
    public static CkksContext create(CkksParameters params, String backend, int threads) {
        Objects.requireNonNull(params, "params is null");
        NttBackend b = backend == null ? NttBackends.defaultBackend() : NttBackends.get(backend);
        return new CkksContext(params, new NttEngine(b, new OpCounters(), threads));
    }

    public CkksParameters params() {
        return params;
    }

    public NttEngine engine() {
        return engine;
    }

    public OpCounters counters() {
        return engine.counters();
    }

    public Ring ringQ() {
        return ringQ;
    }

    public Ring ringP() {
        return ringP;
    }

    public int n() {
        return params.n();
    }

    /**
     * Starts the JIT warm-up of this context's kernels on a daemon thread ({@link KernelWarmup#start}:
     * once per JVM, and per {@code hoist.warmup}), on the size classes of its primes, so that it can
     * overlap key generation and encoding. Constructing a context starts nothing: a library does not
     * start threads behind its users' backs.
     */
    public void startKernelWarmup() {
        // the key inner products' terms at the top level only: each count is a method of its own for C2, and
        // compiling the lower levels' too made CoeffsToSlots' keygen, gated beside the warm-up, 10 % slower
        startKernelWarmup(new int[] {params.maxLevel()});
    }

    /**
     * {@link #startKernelWarmup()} for key switches at each of {@code levels}: the key inner products' digit
     * counts there are compiled, each in every round of the warm-up. Bootstrapping switches keys from the top
     * down to SlotsToCoeffs ({@code BootstrapPlan.keySwitchLevels}); warmed at the top's count only, its first
     * EvalMod compiled the other counts for 2 s.
     *
     * @throws LevelMismatchException if a level is outside the chain
     */
    public void startKernelWarmup(int[] levels) {
        Objects.requireNonNull(levels, "levels is null");
        if (levels.length == 0) throw new IllegalArgumentException("no level to warm the key switches of");
        for (int l : levels)
            if (l < 0 || l > params.maxLevel())
                throw new LevelMismatchException(
                        "a key switch at level " + l + " under a chain of levels 0 to " + params.maxLevel());
        int[] digits = Arrays.stream(levels).map(params::beta).distinct().toArray();
        KernelWarmup.start(engine.kernels(), engine.backend(), digits, params.qpPrimes(params.maxLevel()));
    }

    /**
     * Waits until the kernel warm-up started in this JVM has ended; returns whether one was still running (false at
     * once when none was started or it has ended).
     */
    public boolean awaitKernelWarmup() throws InterruptedException {
        return KernelWarmup.await();
    }

    public int alpha() {
        return params.alpha();
    }
    /** [P]_{q_j}. */
    public long pModQ(int j) {
        params.q(j); // checks j
        return pModQ[j];
    }

    /** Prime of QP limb j at level ℓ: q_j for j ≤ ℓ, p_{j−ℓ−1} after. */
    public long primeQP(int level, int j) {
        checkQP(level, j);
        return j <= level ? params.q(j) : params.p(j - level - 1);
    }

    /** NTT tables of QP limb j at level ℓ. */
    public NttTables tablesQP(int level, int j) {
        checkQP(level, j);
        return j <= level ? ringQ.tables(j) : ringP.tables(j - level - 1);
    }

    /** The digit that Q prime j belongs to. */
    public int digitOf(int j) {
        params.q(j); // checks j
        return j / params.alpha();
    }

    /** First Q prime index of digit t. */
    public int digitStart(int t) {
        checkDigit(t);
        return t * params.alpha();
    }

    /** One past the last Q prime index of digit t at level ℓ (the last digit may be shorter). */
    public int digitEnd(int t, int level) {
        checkDigit(t);
        params.q(level); // checks the level
        return Math.min((t + 1) * params.alpha(), level + 1);
    }

    /**
     * Builds ahead the basis conversions of key switching at {@code level} (Decompose's per digit,
     * ModDown's, and ModDown's merged with the rescale), as Lattigo's evaluators hold theirs from creation;
     * otherwise they are built on first use, in a first evaluation.
     *
     * @throws IllegalArgumentException if {@code level} is outside [0, L]
     */
    public void prepareKeySwitching(int level) {
        if (level < 0 || level > params.maxLevel())
            throw new IllegalArgumentException("level " + level + " outside [0, " + params.maxLevel() + "]");
        for (int t = 0; t < params.beta(level); t++) decomposeConv(level, t);
        modDownConv(level);
        if (level > 0) modDownRescaleConv(level);
    }

    /** Basis conversions built so far (for tests). */
    int conversionsBuilt() {
        return bconvs.size();
    }

    /** BConv from digit t's primes to the other primes of Q_ℓ followed by all of P (Decompose). */
    BConv decomposeConv(int level, int t) {
        return conv(DECOMPOSE, level, t);
    }

    /** BConv P → Q_ℓ (ModDown). */
    BConv modDownConv(int level) {
        return conv(MOD_DOWN, level, 0);
    }

    /** BConv {q_ℓ} ∪ P → Q_{ℓ−1} (ModDown merged with rescale). */
    BConv modDownRescaleConv(int level) {
        return conv(MOD_DOWN_RESCALE, level, 0);
    }

    private static final int DECOMPOSE = 0, MOD_DOWN = 1, MOD_DOWN_RESCALE = 2;

    /**
     * The conversion of {@code kind} at {@code level} (digit {@code t} for Decompose), built on first use.
     * A look-up first, and the building lambda only on a miss: every key switch asks, and
     * computeIfAbsent's larger code was compiled by C2 in a first evaluation when these calls took it
     * over its threshold.
     */
    private BConv conv(int kind, int level, int t) {
        long key = key(kind, level, t);
        BConv c = bconvs.get(key);
        return c != null ? c : bconvs.computeIfAbsent(key, k -> buildConv(kind, level, t));
    }

    private BConv buildConv(int kind, int level, int t) {
        long[] qs = params.qPrimes(), ps = params.pPrimes();
        return switch (kind) {
            case DECOMPOSE -> {
                int s = digitStart(t), e = digitEnd(t, level);
                long[] to = new long[(level + 1 - (e - s)) + params.alpha()];
                int c = 0;
                for (int j = 0; j <= level; j++) if (j < s || j >= e) to[c++] = qs[j];
                for (long p : ps) to[c++] = p;
                yield new BConv(new RnsBasis(Arrays.copyOfRange(qs, s, e)), new RnsBasis(to));
            }
            case MOD_DOWN -> new BConv(new RnsBasis(ps), new RnsBasis(Arrays.copyOf(qs, level + 1)));
            case MOD_DOWN_RESCALE -> {
                long[] from = new long[1 + ps.length];
                from[0] = qs[level];
                System.arraycopy(ps, 0, from, 1, ps.length);
                yield new BConv(new RnsBasis(from), new RnsBasis(Arrays.copyOf(qs, level)));
            }
            default -> throw new AssertionError("conversion kind " + kind);
        };
    }

    private static long key(int kind, int level, int t) {
        return ((long) kind << 40) | ((long) level << 20) | t;
    }

    @Override
    public String toString() {
        return "CkksContext[" + params + ", backend=" + engine.backend().name() + "]";
    }

    private void checkQP(int level, int j) {
        // the exceptions are made out of line: primeQP and tablesQP stay small enough to inline in the kernels' loops
        if (level < 0 || level > params.maxLevel() || j < 0 || j > level + params.alpha()) throw badQP(level, j);
    }

    private CkksException badQP(int level, int j) {
        params.checkLevel(level);
        return new WrongOperandException(
                "no QP limb " + j + " at level " + level + ": limbs 0 … " + (level + params.alpha()));
    }

    private void checkDigit(int t) {
        if (t < 0 || t >= params.beta())
            throw new WrongOperandException("no digit " + t + ": digits 0 … " + (params.beta() - 1));
    }
}
