package io.hoist.ckks;

import io.hoist.ring.Automorphism;
import io.hoist.ring.NttTables;
import io.hoist.ring.Ring;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Immutable RNS-CKKS parameters: ring degree, slots, the Q chain q_0 … q_L and the special primes
 * p_0 … p_{α−1} of hybrid key switching, default scale, secret distribution and error width.
 *
 * <p>β = ⌈(ℓ+1)/α⌉ digits at level ℓ, for any α (the last digit may be shorter). Built from prime
 * bit sizes ({@link Builder#logQ}, primes generated deterministically, nearest below 2^bits and
 * distinct) or explicit primes. An insecure set (log QP over {@link SecurityBound}) is refused
 * unless {@link Builder#allowInsecure()} is called, and then {@link #secure()} is false.
 */
public final class CkksParameters {
    public static final double DEFAULT_SIGMA = 3.2;

    private final String name;
    private final int logN;
    private final int logSlots;
    private final long[] q;
    private final long[] p;
    private final double defaultScale;
    private final SecretDistribution secret;
    private final double sigma;
    private final boolean secure;

    private CkksParameters(Builder b, long[] q, long[] p) {
        this.name = b.name;
        this.logN = b.logN;
        this.logSlots = b.logSlots < 0 ? b.logN - 1 : b.logSlots;
        this.q = q;
        this.p = p;
        this.defaultScale = b.scale != 0 ? b.scale : Math.pow(2, Math.round(Math.log(q[q.length - 1]) / Math.log(2)));
        this.secret = b.secret;
        this.sigma = b.sigma;
        this.secure = logQP() <= SecurityBound.maxLogQP(logN, secret) && SecurityBound.sigmaCovered(sigma);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The shipped presets: {@code n13}, {@code n14}, {@code n15}, {@code n16} (spec parameters.md);
     * {@code boot16}, Lattigo's bootstrapping set N16QP1546H192 (CoeffsToSlots on the four 56-bit
     * primes at the top, SlotsToCoeffs on the three 39-bit ones); {@code boot14}, a small secure set
     * in its image (log QP 367 ≤ 387, h = 192) for quick CoeffsToSlots runs.
     */
    public static CkksParameters preset(String name) {
        return Presets.of(name);
    }

    public static List<String> presetNames() {
        return List.of("n13", "n14", "n15", "n16", "boot16", "boot14");
    }

    public String name() {
        return name;
    }

    public int logN() {
        return logN;
    }

    public int n() {
        return 1 << logN;
    }

    public int logSlots() {
        return logSlots;
    }

    public int slots() {
        return 1 << logSlots;
    }
    /** Top level L (L+1 primes in Q). */
    public int maxLevel() {
        return q.length - 1;
    }

    public int qCount() {
        return q.length;
    }

    public long q(int i) {
        if (i < 0 || i >= q.length) throw noPrime("q", i, q.length); // out of line: a small, inlined accessor
        return q[i];
    }

    private static CkksException noPrime(String chain, int i, int count) {
        String what = "no prime " + chain + "_" + i + ": " + chain + "_0 … " + chain + "_" + (count - 1);
        return chain.equals("q") ? new LevelMismatchException(what) : new WrongOperandException(what);
    }

    /** Whether {@code r} is this parameter set's Q ring: degree N and the primes q_0 … q_L (on any engine). */
    public boolean isRingQ(Ring r) {
        return sameChain(r, q);
    }

    /** Whether {@code r} is this parameter set's P ring: degree N and the special primes p_0 … p_{α−1}. */
    public boolean isRingP(Ring r) {
        return sameChain(r, p);
    }

    private boolean sameChain(Ring r, long[] primes) {
        if (r.logN() != logN || r.maxLevel() != primes.length - 1) return false;
        for (int i = 0; i < primes.length; i++) if (r.prime(i) != primes[i]) return false;
        return true;
    }

    public long[] qPrimes() {
        return q.clone();
    }
    /** α, the number of special primes. */
    public int alpha() {
        return p.length;
    }

    public long p(int i) {
        if (i < 0 || i >= p.length) throw noPrime("p", i, p.length);
        return p[i];
    }

    public long[] pPrimes() {
        return p.clone();
    }

    /** The primes of the QP limbs at {@code level}: q_0 … q_ℓ then p_0 … p_{α−1} (a fresh array). */
    public long[] qpPrimes(int level) {
        if (level < 0 || level > maxLevel())
            throw new LevelMismatchException("level " + level + " outside [0, " + maxLevel() + "]");
        long[] out = Arrays.copyOf(q, level + 1 + p.length);
        System.arraycopy(p, 0, out, level + 1, p.length);
        return out;
    }

    public double defaultScale() {
        return defaultScale;
    }

    public SecretDistribution secret() {
        return secret;
    }

    public double sigma() {
        return sigma;
    }
    /** Whether log QP is within the 128-bit bound for N and σ is in the range the bound covers ({@link SecurityBound#sigmaCovered}). */
    public boolean secure() {
        return secure;
    }

    /** β at level ℓ: ⌈(ℓ+1)/α⌉ digits. */
    /** {@code level} if it lies in [0, L], else a {@link LevelMismatchException} naming it: every level check's. */
    public int checkLevel(int level) {
        if (level < 0 || level > maxLevel())
            throw new LevelMismatchException("level " + level + " outside [0, " + maxLevel() + "]");
        return level;
    }

    public int beta(int level) {
        checkLevel(level);
        return (level + 1 + p.length - 1) / p.length;
    }

    public int beta() {
        return beta(maxLevel());
    }

    /** The Galois element 5^(k mod slots) mod 2N that rotates the slot vector left by k (k may be negative). */
    public long galoisElementForRotation(int k) {
        return Automorphism.galoisElement(logN, Math.floorMod(k, slots()));
    }

    /** The Galois element 2N − 1 of complex conjugation. */
    public long galoisElementForConjugation() {
        return Automorphism.conjugationElement(logN);
    }

    public double logQ() {
        double s = 0;
        for (long x : q) s += Math.log(x) / Math.log(2);
        return s;
    }

    public double logP() {
        double s = 0;
        for (long x : p) s += Math.log(x) / Math.log(2);
        return s;
    }

    public double logQP() {
        return logQ() + logP();
    }

    /** "secure" or "NOT SECURE (log QP = … > bound …)" for reports. */
    public String securityLabel() {
        return SecurityBound.label(this);
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) return true; // every key switch checks its key's parameters, nearly always the context's own
        return o instanceof CkksParameters c
                && c.logN == logN
                && c.logSlots == logSlots
                && Arrays.equals(c.q, q)
                && Arrays.equals(c.p, p)
                && c.defaultScale == defaultScale
                && c.secret.equals(secret)
                && c.sigma == sigma;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(q) * 31 + Arrays.hashCode(p) + logN * 7 + logSlots;
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "CkksParameters[%sN=2^%d, slots=2^%d, L+1=%d, α=%d, β=%d, log QP=%.1f, scale=2^%.1f, %s, %s]",
                name == null ? "" : name + ", ",
                logN,
                logSlots,
                q.length,
                p.length,
                beta(),
                logQP(),
                Math.log(defaultScale) / Math.log(2),
                secret,
                secure ? "secure" : "NOT SECURE");
    }

    /** Builder; {@link #build()} checks everything and names what is wrong. */
    public static final class Builder {
        private String name;
        private int logN = -1;
        private int logSlots = -1;
        private int[] logQ;
        private int[] logP;
        private long[] qPrimes;
        private long[] pPrimes;
        private double scale;
        private SecretDistribution secret = SecretDistribution.uniformTernary();
        private double sigma = DEFAULT_SIGMA;
        private boolean allowInsecure;

        public Builder name(String n) {
            this.name = n;
            return this;
        }

        public Builder logN(int v) {
            this.logN = v;
            return this;
        }

        public Builder logSlots(int v) {
            if (v < 0) throw new InvalidParametersException("logSlots must be ≥ 0, got " + v);
            this.logSlots = v;
            return this;
        }
        /** Bit sizes of q_0 … q_L, first to last (primes generated). */
        public Builder logQ(int... bits) {
            this.logQ = bits.clone();
            this.qPrimes = null;
            return this;
        }
        /** Bit sizes of p_0 … p_{α−1} (primes generated). */
        public Builder logP(int... bits) {
            this.logP = bits.clone();
            this.pPrimes = null;
            return this;
        }

        public Builder qPrimes(long... primes) {
            this.qPrimes = primes.clone();
            this.logQ = null;
            return this;
        }

        public Builder pPrimes(long... primes) {
            this.pPrimes = primes.clone();
            this.logP = null;
            return this;
        }
        /** The default scale Δ: finite, at least 2, and below Q_L/2 (checked by {@link #build}). */
        public Builder scale(double s) {
            if (!Double.isFinite(s) || s < 2)
                throw new InvalidScaleException("scale must be a finite number ≥ 2, got " + s);
            this.scale = s;
            return this;
        }

        public Builder secret(SecretDistribution s) {
            this.secret = Objects.requireNonNull(s, "the secret distribution is null");
            return this;
        }

        public Builder sigma(double s) {
            this.sigma = s;
            return this;
        }
        /** Accepts parameters over the 128-bit bound (tests, studies); reports then say NOT SECURE. */
        public Builder allowInsecure() {
            this.allowInsecure = true;
            return this;
        }

        public CkksParameters build() {
            if (logN < 2 || logN > NttTables.MAX_LOG_N)
                throw new InvalidParametersException("logN must be in [2, " + NttTables.MAX_LOG_N + "], got " + logN);
            if (logSlots > logN - 1)
                throw new InvalidParametersException(
                        "at most N/2 = 2^" + (logN - 1) + " slots, asked for 2^" + logSlots);
            if (logQ == null && qPrimes == null)
                throw new InvalidParametersException("no Q primes: call logQ(...) or qPrimes(...)");
            if (logP == null && pPrimes == null)
                throw new InvalidParametersException("no P primes: call logP(...) or pPrimes(...)");
            if (!(sigma > 0) || !(sigma <= Sampler.MAX_SIGMA))
                throw new InvalidParametersException(
                        "sigma must be in (0, " + Sampler.MAX_SIGMA + "] (the sampler's table), got " + sigma);
            if (secret.hammingWeight() > (1 << logN))
                throw new InvalidParametersException("Hamming weight " + secret.hammingWeight() + " exceeds N");
            Set<Long> used = new HashSet<>();
            if (qPrimes != null) for (long x : qPrimes) used.add(x);
            if (pPrimes != null) for (long x : pPrimes) used.add(x);
            PrimeSupply.check(logN, qPrimes == null ? logQ : null, pPrimes == null ? logP : null, used);
            long[] q = qPrimes != null ? qPrimes.clone() : PrimeSupply.generate(logN, logQ, used);
            long[] p = pPrimes != null ? pPrimes.clone() : PrimeSupply.generate(logN, logP, used);
            if (q.length == 0) throw new InvalidParametersException("Q needs at least one prime");
            if (p.length == 0)
                throw new InvalidParametersException("P needs at least one prime (hybrid key switching)");
            Set<Long> all = new HashSet<>();
            for (long x : q) {
                NttTables.of(logN, x);
                if (!all.add(x)) throw new InvalidParametersException("prime " + x + " appears twice");
            }
            for (long x : p) {
                NttTables.of(logN, x);
                if (!all.add(x)) throw new InvalidParametersException("prime " + x + " appears twice");
            }
            CkksParameters params = new CkksParameters(this, q, p);
            double logQTop = params.logQ();
            if (!(Math.log(params.defaultScale) / Math.log(2) < logQTop - 1)) {
                throw new InvalidScaleException(String.format(
                        Locale.ROOT,
                        "default scale 2^%.1f does not fit the modulus 2^%.1f (it must stay below Q/2)",
                        Math.log(params.defaultScale) / Math.log(2),
                        logQTop));
            }
            if (!params.secure && !allowInsecure && !SecurityBound.sigmaCovered(sigma)) {
                throw new InsecureParametersException(SecurityBound.sigmaReason(sigma)
                        + "; call allowInsecure() (or pass --insecure) to use it anyway");
            }
            if (!params.secure && !allowInsecure) {
                throw new InsecureParametersException(String.format(
                        Locale.ROOT,
                        "log QP = %.1f exceeds the 128-bit bound %d for N = 2^%d with a %s secret (%s); call allowInsecure() (or pass --insecure) to use it anyway",
                        params.logQP(),
                        SecurityBound.maxLogQP(logN, secret),
                        logN,
                        secret,
                        SecurityBound.rule(secret)));
            }
            return params;
        }
    }
}
