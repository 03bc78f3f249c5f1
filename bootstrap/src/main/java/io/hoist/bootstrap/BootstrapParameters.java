package io.hoist.bootstrap;

import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.InvalidParametersException;
import io.hoist.ckks.SecretDistribution;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What a bootstrapping is made of: the ring, the message's slots, the residual chain the user keeps,
 * the primes of SlotsToCoeffs, EvalMod and CoeffsToSlots (bottom to top, one per level, as Lattigo's
 * bootstrapping parameters), the special primes, the secret and the ephemeral sparse secret of the
 * encapsulation. The CKKS parameters follow: Q = residual ‖ StC ‖ EvalMod ‖ CtS. Immutable and
 * validating; how the DFTs are evaluated is {@link BootstrapPlan}'s business.
 */
public final class BootstrapParameters {
    private final String name;
    private final int logN, logSlots;
    private final int[] residualLogQ, logP;
    private final int stcLogQ, ctsLogQ, stcDepth, ctsDepth;
    private final EvalModParameters evalMod;
    private final int hammingWeight, ephemeralWeight;
    private final int logScale;
    private final CkksParameters ckks;

    private BootstrapParameters(Builder b) {
        this.name = b.name;
        this.logN = b.logN;
        this.logSlots = b.logSlots < 0 ? b.logN - 1 : b.logSlots;
        this.residualLogQ = b.residualLogQ.clone();
        this.logP = b.logP.clone();
        this.stcLogQ = b.stcLogQ;
        this.ctsLogQ = b.ctsLogQ;
        this.stcDepth = b.stcDepth;
        this.ctsDepth = b.ctsDepth;
        this.evalMod = Objects.requireNonNull(b.evalMod, "EvalMod parameters are missing");
        this.hammingWeight = b.hammingWeight;
        this.ephemeralWeight = b.ephemeralWeight;
        this.logScale = b.logScale;
        if (logN < 4 || logN > 17) throw new InvalidParametersException("logN must be in [4, 17], got " + logN);
        if (logSlots < 1 || logSlots > logN - 1)
            throw new InvalidParametersException(
                    "logSlots must be in [1, logN − 1 = " + (logN - 1) + "], got " + logSlots);
        if (residualLogQ.length < 1) throw new InvalidParametersException("the residual chain needs q_0 at least");
        if (ctsDepth < 1 || ctsDepth > logSlots || stcDepth < 1 || stcDepth > logSlots)
            throw new InvalidParametersException("DFT depths must be in [1, logSlots = " + logSlots + "], got CtS "
                    + ctsDepth + ", StC " + stcDepth);
        if (ephemeralWeight < 0 || ephemeralWeight > (1 << logN))
            throw new InvalidParametersException("ephemeral Hamming weight out of range: " + ephemeralWeight);
        if (logScale >= residualLogQ[0] - evalMod.logMessageRatio() + 1)
            throw new InvalidParametersException(String.format(
                    Locale.ROOT,
                    "the message scale 2^%d leaves no room below q_0 = 2^%d for the message ratio 2^%d",
                    logScale,
                    residualLogQ[0],
                    evalMod.logMessageRatio()));
        // |I| after ModRaise is the rounded sum of h + 1 uniforms on [−1/2, 1/2] for the secret ModRaise
        // runs under: K − 1/2 must cover 7 standard deviations (a coefficient beyond it: about 2^−38)
        int h = ephemeralWeight > 0 ? ephemeralWeight : hammingWeight > 0 ? hammingWeight : 2 * (1 << logN) / 3;
        double sigma = Math.sqrt((h + 1) / 12.0);
        if (evalMod.k() - 0.5 < 7 * sigma)
            throw new InvalidParametersException(String.format(
                    Locale.ROOT,
                    "EvalMod K = %d is too small for ModRaise under a secret of weight %d (|I| has σ = %.1f; K must be at least %d)%s",
                    evalMod.k(),
                    h,
                    sigma,
                    (int) Math.ceil(7 * sigma + 0.5),
                    ephemeralWeight > 0 ? "" : "; use the sparse-secret encapsulation (an ephemeral weight)"));
        int[] q = chain();
        CkksParameters.Builder pb = CkksParameters.builder()
                .name(name)
                .logN(logN)
                .logSlots(sparse() ? logSlots + 1 : logSlots)
                .logQ(q)
                .logP(logP)
                .scale(Math.pow(2, logScale))
                .secret(
                        hammingWeight == 0
                                ? SecretDistribution.uniformTernary()
                                : SecretDistribution.sparseTernary(hammingWeight));
        if (b.allowInsecure) pb.allowInsecure();
        this.ckks = pb.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * {@code boot16}: Lattigo's N16QP1546H192H32 — residual 60 + 40 × 9, StC 39 × 3, EvalMod 60 × 8,
     * CtS 56 × 4, P 61 × 5, h = 192 with an ephemeral h = 32, scale 2^40, K = 16, degree 30, three
     * double angles, ratio 2^8. {@code boot15}: a secure set at N = 2^15 (log QP 860 ≤ 881, uniform
     * ternary secret, ephemeral h = 32), EvalMod at 2^52. {@code boot14}: boot16's structure at
     * N = 2^14 for quick runs — NOT secure (log QP 1040 &gt; 438) and labelled so: no N = 2^14 chain
     * within 438 bits bootstraps to useful precision (docs/bootstrapping.md has the numbers).
     */
    public static BootstrapParameters preset(String name) {
        Objects.requireNonNull(name, "preset name is null");
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "boot16" ->
                builder()
                        .name("boot16")
                        .logN(16)
                        .residualLogQ(concat(new int[] {60}, repeat(40, 9)))
                        .stc(39, 3)
                        .cts(56, 4)
                        .logP(repeat(61, 5))
                        .evalMod(EvalModParameters.lattigoDefault())
                        .hammingWeight(192)
                        .ephemeralWeight(32)
                        .logScale(40)
                        .build();
            case "boot15" ->
                builder()
                        .name("boot15")
                        .logN(15)
                        .residualLogQ(55, 40)
                        .stc(36, 2)
                        .cts(52, 3)
                        .logP(55, 55)
                        .evalMod(new EvalModParameters(16, 30, 3, 7, 0, 55))
                        .hammingWeight(0)
                        .ephemeralWeight(32)
                        .logScale(40)
                        .build();
            case "boot14" ->
                builder()
                        .name("boot14")
                        .logN(14)
                        .residualLogQ(60, 40, 40, 40)
                        .stc(45, 2)
                        .cts(56, 3)
                        .logP(61, 61)
                        .evalMod(EvalModParameters.lattigoDefault())
                        .hammingWeight(192)
                        .ephemeralWeight(32)
                        .logScale(40)
                        .allowInsecure()
                        .build();
            default ->
                throw new InvalidParametersException(
                        "unknown bootstrapping preset '" + name + "'; known: " + String.join(", ", presetNames()));
        };
    }

    public static List<String> presetNames() {
        return List.of("boot16", "boot15", "boot14");
    }

    /** The prime sizes of Q from q_0 up: residual, SlotsToCoeffs, EvalMod, CoeffsToSlots. */
    public int[] chain() {
        int e = evalMod.depth();
        int[] q = new int[residualLogQ.length + stcDepth + e + ctsDepth];
        int c = 0;
        for (int x : residualLogQ) q[c++] = x;
        for (int i = 0; i < stcDepth; i++) q[c++] = stcLogQ;
        for (int i = 0; i < e; i++) q[c++] = evalMod.logScale();
        for (int i = 0; i < ctsDepth; i++) q[c++] = ctsLogQ;
        return q;
    }

    /** The CKKS parameters of the whole chain. */
    public CkksParameters ckks() {
        return ckks;
    }

    public String name() {
        return name;
    }

    public int logN() {
        return logN;
    }

    /** log2 of the message's slots n (the ciphertext carries 2n when sparse). */
    public int logSlots() {
        return logSlots;
    }

    public boolean sparse() {
        return logSlots < logN - 1;
    }

    public int ctsDepth() {
        return ctsDepth;
    }

    public int stcDepth() {
        return stcDepth;
    }

    public EvalModParameters evalMod() {
        return evalMod;
    }

    /** Levels the user keeps after a bootstrap: the residual chain's top. */
    public int outputLevel() {
        return residualLogQ.length - 1;
    }

    public int ephemeralWeight() {
        return ephemeralWeight;
    }

    public boolean encapsulation() {
        return ephemeralWeight > 0;
    }

    /** log2 of the scale the user's ciphertexts come in and go out at. */
    public int logScale() {
        return logScale;
    }

    /** The same parameters with other DFT depths (the sweep's points). */
    public BootstrapParameters withDepths(int cts, int stc, boolean allowInsecure) {
        Builder b = toBuilder();
        b.ctsDepth = cts;
        b.stcDepth = stc;
        b.allowInsecure = allowInsecure || !ckks.secure();
        return b.build();
    }

    /** The same chain on another ring degree (smaller rings are insecure and labelled so): for quick runs and tests. */
    public BootstrapParameters withLogN(int n) {
        Builder b = toBuilder();
        b.logN = n;
        b.logSlots = Math.min(logSlots == logN - 1 ? n - 1 : logSlots, n - 1);
        b.ctsDepth = Math.min(ctsDepth, b.logSlots);
        b.stcDepth = Math.min(stcDepth, b.logSlots);
        b.name = name + (n == logN ? "" : "@2^" + n);
        b.allowInsecure = true;
        return b.build();
    }

    /** The same chain with other EvalMod parameters (the EvalMod levels follow its depth). */
    public BootstrapParameters withEvalMod(EvalModParameters em, boolean allowInsecure) {
        Builder b = toBuilder();
        b.evalMod = em;
        b.allowInsecure = allowInsecure || !ckks.secure();
        return b.build();
    }

    /** The same chain without (0) or with another ephemeral sparse secret. */
    public BootstrapParameters withEphemeralWeight(int h) {
        Builder b = toBuilder();
        b.ephemeralWeight = h;
        return b.build();
    }

    /** The same parameters with another message size (sparse packing below logN − 1). */
    public BootstrapParameters withLogSlots(int s) {
        Builder b = toBuilder();
        b.logSlots = s;
        b.ctsDepth = Math.min(ctsDepth, Math.max(1, s));
        b.stcDepth = Math.min(stcDepth, Math.max(1, s));
        b.allowInsecure = !ckks.secure();
        return b.build();
    }

    private Builder toBuilder() {
        Builder b = new Builder();
        b.name = name;
        b.logN = logN;
        b.logSlots = logSlots;
        b.residualLogQ = residualLogQ.clone();
        b.logP = logP.clone();
        b.stcLogQ = stcLogQ;
        b.ctsLogQ = ctsLogQ;
        b.stcDepth = stcDepth;
        b.ctsDepth = ctsDepth;
        b.evalMod = evalMod;
        b.hammingWeight = hammingWeight;
        b.ephemeralWeight = ephemeralWeight;
        b.logScale = logScale;
        b.allowInsecure = !ckks.secure();
        return b;
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "BootstrapParameters[%s, N=2^%d, slots=2^%d, residual %s, StC %d×%d, EvalMod %d×%d, CtS %d×%d, P %s, %s%s]",
                name,
                logN,
                logSlots,
                Arrays.toString(residualLogQ),
                stcDepth,
                stcLogQ,
                evalMod.depth(),
                evalMod.logScale(),
                ctsDepth,
                ctsLogQ,
                Arrays.toString(logP),
                ckks.secret(),
                encapsulation() ? ", ephemeral h=" + ephemeralWeight : "");
    }

    static int[] repeat(int bits, int count) {
        int[] a = new int[count];
        Arrays.fill(a, bits);
        return a;
    }

    static int[] concat(int[] a, int[] b) {
        int[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** Builder; every setter validates at {@link #build}. */
    public static final class Builder {
        private String name = "custom";
        private int logN, logSlots = -1;
        private int[] residualLogQ = {}, logP = {};
        private int stcLogQ, ctsLogQ, stcDepth, ctsDepth;
        private EvalModParameters evalMod;
        private int hammingWeight, ephemeralWeight, logScale = 40;
        private boolean allowInsecure;

        public Builder name(String n) {
            this.name = Objects.requireNonNull(n);
            return this;
        }

        public Builder logN(int v) {
            this.logN = v;
            return this;
        }

        /** Message slots 2^v (default logN − 1, dense packing). */
        public Builder logSlots(int v) {
            // negative values are refused, not read as "all slots": only the builder's own default is
            if (v < 1) throw new InvalidParametersException("logSlots must be ≥ 1: " + v);
            this.logSlots = v;
            return this;
        }

        /** q_0 and the levels the user keeps. */
        public Builder residualLogQ(int... bits) {
            this.residualLogQ = bits.clone();
            return this;
        }

        /** SlotsToCoeffs: {@code depth} levels of {@code bits}-bit primes. */
        public Builder stc(int bits, int depth) {
            this.stcLogQ = bits;
            this.stcDepth = depth;
            return this;
        }

        /** CoeffsToSlots: {@code depth} levels of {@code bits}-bit primes at the top. */
        public Builder cts(int bits, int depth) {
            this.ctsLogQ = bits;
            this.ctsDepth = depth;
            return this;
        }

        public Builder logP(int... bits) {
            this.logP = bits.clone();
            return this;
        }

        public Builder evalMod(EvalModParameters p) {
            this.evalMod = p;
            return this;
        }

        /** The secret's Hamming weight (0: uniform ternary). */
        public Builder hammingWeight(int h) {
            this.hammingWeight = h;
            return this;
        }

        /** The ephemeral sparse secret's weight for the encapsulation (0: none, ModRaise under the main secret). */
        public Builder ephemeralWeight(int h) {
            this.ephemeralWeight = h;
            return this;
        }

        /** log2 of the user's scale Δ. */
        public Builder logScale(int v) {
            this.logScale = v;
            return this;
        }

        public Builder allowInsecure() {
            this.allowInsecure = true;
            return this;
        }

        public BootstrapParameters build() {
            return new BootstrapParameters(this);
        }
    }
}
