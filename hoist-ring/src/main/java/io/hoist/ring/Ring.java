package io.hoist.ring;

import io.hoist.math.ModArith;
import io.hoist.math.Modulus;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;

/**
 * The RNS ring R_{q_0…q_k} = Z[X]/(X^N+1) over a chain of NTT primes, with the engine (NTT backend
 * and counters) its operations run on. A polynomial at level ℓ uses the first ℓ+1 primes.
 *
 * <p>Operations take their output as a parameter (it may alias an input unless stated otherwise)
 * so hot paths allocate nothing; every operation checks ring, level and domain and throws
 * {@link RingMismatchException} naming the mismatch.
 */
public final class Ring {
    private final int logN;
    private final int n;
    private final RnsBasis basis;
    private final NttTables[] tables;
    private final NttEngine engine;

    public Ring(int logN, long[] primes, NttEngine engine) {
        if (logN < 2 || logN > NttTables.MAX_LOG_N) {
            throw new IllegalArgumentException("logN must be in [2, " + NttTables.MAX_LOG_N + "]: " + logN);
        }
        this.logN = logN;
        this.n = 1 << logN;
        this.basis = new RnsBasis(primes);
        this.engine = Objects.requireNonNull(engine, "engine");
        this.tables = new NttTables[primes.length];
        for (int i = 0; i < primes.length; i++) {
            tables[i] = NttTables.of(logN, primes[i]);
            engine.backend().prepare(tables[i]);
        }
    }

    public Ring(int logN, long[] primes) {
        this(logN, primes, NttEngine.defaultEngine());
    }

    public int logN() {
        return logN;
    }

    public int n() {
        return n;
    }

    public int maxLevel() {
        return tables.length - 1;
    }

    public RnsBasis basis() {
        return basis;
    }

    public NttEngine engine() {
        return engine;
    }

    public OpCounters counters() {
        return engine.counters();
    }

    public Modulus modulus(int i) {
        return tables[checkPrime(i)].modulus();
    }

    public long prime(int i) {
        return tables[checkPrime(i)].q();
    }

    public NttTables tables(int i) {
        return tables[checkPrime(i)];
    }

    private int checkPrime(int i) {
        if (i < 0 || i >= tables.length) throw noPrime(i);
        return i;
    }

    private RingMismatchException noPrime(int i) { // out of line: the accessors stay small enough to inline
        return new RingMismatchException("no prime " + i + " in a ring of " + tables.length);
    }

    /** A zero polynomial at {@code level} in {@code domain}. */
    public RnsPoly newPoly(int level, Domain domain) {
        checkLevel(level);
        return new RnsPoly(this, new long[level + 1][n], domain);
    }

    /** Wraps existing limbs (taken, not copied); values must be reduced modulo their primes. */
    public RnsPoly wrap(long[][] limbs, Domain domain) {
        checkLevel(limbs.length - 1);
        for (int i = 0; i < limbs.length; i++) {
            if (limbs[i].length != n)
                throw new IllegalArgumentException(
                        "limb " + i + " has " + limbs[i].length + " coefficients, ring has N=" + n);
        }
        return new RnsPoly(this, limbs, domain);
    }

    private void checkLevel(int level) {
        if (level < 0 || level > maxLevel()) {
            throw new RingMismatchException("level " + level + " outside [0, " + maxLevel() + "] of this ring");
        }
    }

    // ---------------------------------------------------------------- NTT

    /** Forward NTT of all limbs in one backend call; the polynomial must be in the coefficient domain. */
    public void ntt(RnsPoly p) {
        ntt(p, engine.counters());
    }

    /** Forward NTT of all limbs, counted in {@code c}. */
    public void ntt(RnsPoly p, OpCounters c) {
        own(p);
        if (p.domain() != Domain.COEFFICIENT)
            throw new RingMismatchException("ntt: polynomial is already in the NTT domain");
        engine.forward(p.limbs, Arrays.copyOf(tables, p.limbCount()), p.limbCount(), c);
        p.domain = Domain.NTT;
    }

    /** Inverse NTT of all limbs in one backend call. */
    public void intt(RnsPoly p) {
        intt(p, engine.counters());
    }

    /** Inverse NTT of all limbs, counted in {@code c}. */
    public void intt(RnsPoly p, OpCounters c) {
        own(p);
        if (p.domain() != Domain.NTT)
            throw new RingMismatchException("intt: polynomial is already in the coefficient domain");
        engine.inverse(p.limbs, Arrays.copyOf(tables, p.limbCount()), p.limbCount(), c);
        p.domain = Domain.COEFFICIENT;
    }

    // ---------------------------------------------------------------- coefficient-wise arithmetic

    public void add(RnsPoly a, RnsPoly b, RnsPoly out) {
        same(a, b, out, "add");
        perLimb(a.limbCount(), (from, to) -> {
            for (int i = from; i < to; i++) LimbKernels.addMod(a.limbs[i], b.limbs[i], out.limbs[i], prime(i));
        });
        out.domain = a.domain;
    }

    /**
     * out = a + c for the constant polynomial c, an integer of any size (reduced per prime): in the NTT
     * domain every value moves by c, so no transform is needed. out may be a.
     */
    public void addInteger(RnsPoly a, BigInteger c, RnsPoly out) {
        same(a, a, out, "addInteger");
        if (a.domain != Domain.NTT) throw new RingMismatchException("addInteger expects an NTT-domain polynomial");
        perLimb(a.limbCount(), (from, to) -> {
            for (int i = from; i < to; i++) {
                long q = prime(i);
                LimbKernels.addScalarMod(
                        a.limbs[i], c.mod(BigInteger.valueOf(q)).longValue(), out.limbs[i], q);
            }
        });
        out.domain = a.domain;
    }

    /** In place, limb by limb: a becomes a − b and b becomes a + b ({@link #sub} and {@link #add}'s residues). */
    public void sumAndDifference(RnsPoly a, RnsPoly b) {
        same(a, b, b, "sumAndDifference");
        if (a == b || a.limbs[0] == b.limbs[0])
            throw new IllegalArgumentException("sumAndDifference writes both operands: they must not share limbs");
        perLimb(a.limbCount(), (from, to) -> {
            for (int i = from; i < to; i++) LimbKernels.sumAndDifference(a.limbs[i], b.limbs[i], prime(i));
        });
    }

    public void sub(RnsPoly a, RnsPoly b, RnsPoly out) {
        same(a, b, out, "sub");
        perLimb(a.limbCount(), (from, to) -> {
            for (int i = from; i < to; i++) LimbKernels.subMod(a.limbs[i], b.limbs[i], out.limbs[i], prime(i));
        });
        out.domain = a.domain;
    }

    public void neg(RnsPoly a, RnsPoly out) {
        same(a, a, out, "neg");
        perLimb(a.limbCount(), (from, to) -> {
            for (int i = from; i < to; i++) {
                final long q = prime(i);
                final long[] x = a.limbs[i], z = out.limbs[i];
                for (int k = 0; k < n; k++) z[k] = (q - x[k]) & -((x[k] | -x[k]) >>> 63); // 0 stays 0, branch-free
            }
        });
        out.domain = a.domain;
    }

    /** out = a ⊙ b (NTT domain: the ring product). */
    public void mulCoeffs(RnsPoly a, RnsPoly b, RnsPoly out) {
        same(a, b, out, "mulCoeffs");
        perLimb(a.limbCount(), (from, to) -> {
            for (int i = from; i < to; i++)
                engine.kernels().mulMod(a.limbs[i], b.limbs[i], out.limbs[i], prime(i), false);
        });
        out.domain = a.domain;
        counters().add(Op.MOD_MULS, (long) a.limbCount() * n);
    }

    /** out += a ⊙ b. */
    public void mulCoeffsAdd(RnsPoly a, RnsPoly b, RnsPoly out) {
        same(a, b, out, "mulCoeffsAdd");
        if (out.domain() != a.domain()) {
            throw new RingMismatchException(
                    "mulCoeffsAdd: accumulator in " + out.domain() + ", operands in " + a.domain());
        }
        perLimb(a.limbCount(), (from, to) -> {
            for (int i = from; i < to; i++)
                engine.kernels().mulMod(a.limbs[i], b.limbs[i], out.limbs[i], prime(i), true);
        });
        counters().add(Op.MOD_MULS, (long) a.limbCount() * n);
    }

    /** out = a0 ⊙ b0 + a1 ⊙ b1 (the cross term of a tensor product); out must not alias an operand. */
    public void mulCoeffsSum(RnsPoly a0, RnsPoly b0, RnsPoly a1, RnsPoly b1, RnsPoly out) {
        same(a0, b0, out, "mulCoeffsSum");
        same(a1, b1, out, "mulCoeffsSum");
        if (a1.domain() != a0.domain())
            throw new RingMismatchException("mulCoeffsSum: operands in " + a0.domain() + " and " + a1.domain());
        for (RnsPoly x : new RnsPoly[] {a0, b0, a1, b1}) {
            if (x.limbs[0] == out.limbs[0]) throw new IllegalArgumentException("mulCoeffsSum: out aliases an operand");
        }
        perLimb(a0.limbCount(), (from, to) -> {
            for (int i = from; i < to; i++)
                engine.kernels().mulModSum(a0.limbs[i], b0.limbs[i], a1.limbs[i], b1.limbs[i], out.limbs[i], prime(i));
        });
        out.domain = a0.domain;
        counters().add(Op.MOD_MULS, 2L * a0.limbCount() * n);
    }

    /** out = c·a for an integer constant c (reduced per prime). */
    public void mulScalar(RnsPoly a, long c, RnsPoly out) {
        same(a, a, out, "mulScalar");
        perLimb(a.limbCount(), (from, to) -> {
            for (int i = from; i < to; i++) {
                final long q = prime(i);
                final long w = modulus(i).fromSigned(c), ws = ModArith.shoupQuotient(w, q);
                engine.kernels().mulShoup(a.limbs[i], w, ws, q, out.limbs[i], 0, n);
            }
        });
        out.domain = a.domain;
        counters().add(Op.MOD_MULS, (long) a.limbCount() * n);
    }

    /** out = c·a for an integer constant of any size (reduced per prime). */
    public void mulScalar(RnsPoly a, BigInteger c, RnsPoly out) {
        same(a, a, out, "mulScalar");
        perLimb(a.limbCount(), (from, to) -> {
            for (int i = from; i < to; i++) {
                final long q = prime(i);
                final long w = c.mod(BigInteger.valueOf(q)).longValue(), ws = ModArith.shoupQuotient(w, q);
                engine.kernels().mulShoup(a.limbs[i], w, ws, q, out.limbs[i], 0, n);
            }
        });
        out.domain = a.domain;
        counters().add(Op.MOD_MULS, (long) a.limbCount() * n);
    }

    /** out = φ_g(a) in a's domain; out must not alias a. */
    public void automorphism(RnsPoly a, long g, RnsPoly out) {
        same(a, a, out, "automorphism");
        if (a.limbs[0] == out.limbs[0]) throw new IllegalArgumentException("automorphism cannot run in place");
        if (a.domain() == Domain.NTT) {
            NttPermutation idx = Automorphism.nttPermutation(logN, g);
            for (int i = 0; i < a.limbCount(); i++) Automorphism.applyNtt(a.limbs[i], out.limbs[i], idx);
        } else {
            for (int i = 0; i < a.limbCount(); i++)
                Automorphism.applyCoefficient(a.limbs[i], out.limbs[i], g, prime(i), logN);
        }
        out.domain = a.domain;
        counters().add(Op.AUTOMORPHISM_LIMBS, a.limbCount());
    }

    /**
     * Runs {@code body} over limbs [0, count) of this ring's size: on the engine's threads once there are {@link
     * #PARALLEL_WORDS} words, else here; with one thread, from a worker, or below that size, one call. The body
     * must treat every limb on its own (then the bits do not depend on the threads).
     */
    public void perLimb(int count, Parallel.RangeBody body) {
        if ((long) count * n >= PARALLEL_WORDS) Parallel.forEachChunk(engine.threads(), count, body);
        else body.run(0, count);
    }

    /**
     * Words from which the coefficient-wise operations spread their limbs over the engine's threads: 2^16 (half a
     * MB), where a limb's product takes tens of µs against a few µs to hand a task to a worker.
     */
    public static final long PARALLEL_WORDS = 1L << 16;

    // ---------------------------------------------------------------- checks

    private void own(RnsPoly p) {
        if (p.ring() != this && !sameAs(p.ring()))
            throw new RingMismatchException("polynomial belongs to a different ring");
    }

    /**
     * Whether {@code o} is the same ring: same degree and the same primes (its engine may differ).
     * Polynomials of equal rings are interchangeable, so objects from two contexts with equal
     * parameters mix.
     */
    public boolean sameAs(Ring o) {
        if (o == this) return true;
        if (o.logN != logN || o.tables.length != tables.length) return false;
        for (int i = 0; i < tables.length; i++) if (o.tables[i].q() != tables[i].q()) return false;
        return true;
    }

    private void same(RnsPoly a, RnsPoly b, RnsPoly out, String op) {
        own(a);
        own(b);
        own(out);
        if (a.level() != b.level() || a.level() != out.level()) {
            throw new RingMismatchException(
                    op + ": level mismatch (" + a.level() + ", " + b.level() + " → " + out.level() + ")");
        }
        if (a.domain() != b.domain()) {
            throw new RingMismatchException(op + ": domain mismatch (" + a.domain() + " vs " + b.domain() + ")");
        }
    }

    @Override
    public String toString() {
        return "Ring[N=2^" + logN + ", " + tables.length + " primes, backend="
                + engine.backend().name() + "]";
    }
}
