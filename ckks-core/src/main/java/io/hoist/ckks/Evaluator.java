package io.hoist.ckks;

import io.hoist.math.ModArith;
import io.hoist.ring.Domain;
import io.hoist.ring.LimbKernels;
import io.hoist.ring.LimbPool;
import io.hoist.ring.Op;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ObjIntConsumer;

/**
 * Homomorphic operations on ciphertexts. Every operation returns a new ciphertext and leaves its
 * inputs untouched (a result may share limbs it did not change with an input: both are immutable); the
 * evaluator holds only immutable state (context, evaluation keys), so one instance can be shared by any
 * number of threads. The {@code …Mutable} operations and {@link #mutableCopy} return a {@link
 * MutableCiphertext} instead, for a chain of in-place steps whose intermediate results nobody else reads.
 *
 * <p>Binary operations require the same parameters, level and scale (relative tolerance 1e-9) and
 * throw a typed {@link CkksException} naming the mismatch otherwise; use {@link #dropLevel} and
 * {@link #rescale} to align operands explicitly.
 */
public final class Evaluator {
    private final CkksContext ctx;
    private final CkksParameters params;
    private final Ring rq;
    private final KeySwitcher ks;
    private final RelinearizationKey rlk;
    private final RotationKeySet rotations;
    /** Temporaries of key switching (digits, inner products, ModDown outputs) are borrowed here and returned. */
    private final LimbPool pool;
    /** {@link #mulByI}'s i^e in the NTT domain, by e, made on first use or by {@link #prepareMulByI}. */
    private final RnsPoly[] powersOfI = new RnsPoly[4];

    private final OperandChecks checks;
    private final Rotator rotator;

    public Evaluator(CkksContext ctx, RelinearizationKey rlk, RotationKeySet rotations) {
        Objects.requireNonNull(ctx, "ctx is null");
        this.ctx = ctx;
        this.params = ctx.params();
        this.rq = ctx.ringQ();
        this.ks = new KeySwitcher(ctx);
        if (rlk != null && !rlk.key().params().equals(params))
            throw new ParameterMismatchException("relinearization key made under other parameters");
        if (rotations != null && !rotations.params().equals(params))
            throw new ParameterMismatchException("rotation keys made under other parameters");
        this.rlk = rlk;
        this.rotations = rotations == null ? RotationKeySet.empty(params) : rotations;
        this.pool = new LimbPool(ctx.n());
        this.checks = new OperandChecks(params);
        this.rotator = new Rotator(ctx, ks, this.rotations, pool);
    }

    public Evaluator(CkksContext ctx) {
        Objects.requireNonNull(ctx, "ctx is null");
        this(ctx, null, null);
    }

    public CkksContext context() {
        return ctx;
    }

    /** Bytes this evaluator's limb pool holds (idle and lent): key-switching temporaries and scratch ciphertexts. */
    public long pooledBytes() {
        return pool.retainedBytes();
    }

    public KeySwitcher keySwitcher() {
        return ks;
    }

    public RotationKeySet rotationKeys() {
        return rotations;
    }

    // ------------------------------------------------------------------ addition

    public Ciphertext add(Ciphertext a, Ciphertext b) {
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(b, "b is null");
        checks.checkPair(a, b, true);
        int deg = Math.max(a.degree(), b.degree());
        RnsPoly[] out = new RnsPoly[deg + 1];
        for (int i = 0; i <= deg; i++) {
            if (i <= a.degree() && i <= b.degree()) {
                out[i] = rq.newPoly(a.level(), Domain.NTT);
                rq.add(a.poly(i, RawAccess.get()), b.poly(i, RawAccess.get()), out[i]);
            } else out[i] = (i <= a.degree() ? a.poly(i, RawAccess.get()) : b.poly(i, RawAccess.get())).copy();
        }
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), out);
    }

    public Ciphertext sub(Ciphertext a, Ciphertext b) {
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(b, "b is null");
        checks.checkPair(a, b, true);
        int deg = Math.max(a.degree(), b.degree());
        RnsPoly[] out = new RnsPoly[deg + 1];
        for (int i = 0; i <= deg; i++) {
            out[i] = rq.newPoly(a.level(), Domain.NTT);
            if (i <= a.degree() && i <= b.degree())
                rq.sub(a.poly(i, RawAccess.get()), b.poly(i, RawAccess.get()), out[i]);
            else if (i <= a.degree()) rq.add(a.poly(i, RawAccess.get()), out[i], out[i]);
            else rq.neg(b.poly(i, RawAccess.get()), out[i]);
        }
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), out);
    }

    public Ciphertext negate(Ciphertext a) {
        Objects.requireNonNull(a, "a is null");
        checks.checkParams(a);
        RnsPoly[] out = new RnsPoly[a.degree() + 1];
        for (int i = 0; i < out.length; i++) {
            out[i] = rq.newPoly(a.level(), Domain.NTT);
            rq.neg(a.poly(i, RawAccess.get()), out[i]);
        }
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), out);
    }

    public Ciphertext add(Ciphertext a, Plaintext p) {
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(p, "p is null");
        checks.checkPlain(a, p, true);
        RnsPoly[] out = newFirstPoly(a);
        rq.add(a.poly(0, RawAccess.get()), p.poly(RawAccess.get()).atLevel(a.level()), out[0]);
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), out);
    }

    public Ciphertext sub(Ciphertext a, Plaintext p) {
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(p, "p is null");
        checks.checkPlain(a, p, true);
        RnsPoly[] out = newFirstPoly(a);
        rq.sub(a.poly(0, RawAccess.get()), p.poly(RawAccess.get()).atLevel(a.level()), out[0]);
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), out);
    }

    /** Adds the complex constant c to every slot (encoded at the ciphertext's scale, of any size). */
    public Ciphertext addConstant(Ciphertext a, double re, double im) {
        Objects.requireNonNull(a, "a is null");
        checks.checkParams(a);
        RnsPoly[] out = newFirstPoly(a);
        addConstant(a.poly(0, RawAccess.get()), out[0], a.scale(), re, im);
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), out);
    }

    /** out = in + (re + i·im) encoded at {@code scale} (out may be in): the c_0 part of {@link #addConstant}. */
    void addConstant(RnsPoly in, RnsPoly out, double scale, double re, double im) {
        if (!Double.isFinite(re) || !Double.isFinite(im))
            throw new EncodingOverflowException("constant is not finite: " + re + " + " + im + "i");
        int level = in.level();
        BigInteger kre = fitting(scaledInteger(re, scale), level, "constant");
        if (im == 0) { // a real constant is the same in every NTT value: no polynomial, no transform
            rq.addInteger(in, kre, out);
            return;
        }
        RnsPoly c = rq.newPoly(level, Domain.COEFFICIENT);
        c.setCoefficient(0, kre);
        c.setCoefficient(ctx.n() / 2, fitting(scaledInteger(im, scale), level, "constant")); // X^{N/2}: i everywhere
        rq.ntt(c);
        rq.add(in, c, out);
    }

    /**
     * Multiplies every slot by the real constant c, encoded as the integer round(c·constantScale) of
     * any size: the scale becomes a.scale()·constantScale (rescale afterwards to bring it back). With
     * constantScale = q_ℓ and a rescale, this is Lattigo's MulByConst at the cost of one level.
     */
    public Ciphertext mulConstant(Ciphertext a, double c, double constantScale) {
        Objects.requireNonNull(a, "a is null");
        checks.checkParams(a);
        BigInteger k = encodeConstant(c, constantScale, a.level(), "constant");
        RnsPoly[] out = new RnsPoly[a.degree() + 1];
        for (int i = 0; i < out.length; i++) {
            out[i] = rq.newPoly(a.level(), Domain.NTT);
            rq.mulScalar(a.poly(i, RawAccess.get()), k, out[i]);
        }
        ctx.counters().increment(Op.CONST_MUL);
        return Ciphertext.wrap(
                RawAccess.get(), params, checks.checkProductScale(a.scale() * constantScale, a.level()), out);
    }

    /**
     * Σ_t c_t·a_t as one new ciphertext at {@code level} and scale {@code scale} (OpenFHE's EvalLinearWSum): each
     * c_t encoded as {@link #mulConstant} encodes it, the integer round(c_t·constantScales[t]), each a_t read at
     * {@code level} (at or below its own) without a copy. The same residues, scale and counts as {@link #atLevel},
     * {@link #mulConstant} and {@link #add} term by term, but one ciphertext allocated instead of two or three per
     * term (the polynomial evaluator's leaf sums made most of bootstrapping's garbage).
     *
     * @throws InvalidScaleException if a product's scale a_t.scale()·constantScales[t] is not {@code scale} (to a
     *     relative 1e-9), or does not fit the modulus at {@code level}
     * @throws LevelMismatchException if {@code level} is negative or above a term's level
     * @throws EncodingOverflowException if a coefficient is not finite or its integer would wrap
     */
    public Ciphertext linearCombination(
            List<Ciphertext> terms, double[] coefficients, double[] constantScales, int level, double scale) {
        return linearCombinationMutable(terms, coefficients, constantScales, level, scale)
                .freeze();
    }

    /**
     * {@link #linearCombination} into a {@link MutableCiphertext}, for a caller that goes on in place (a
     * constant added, a rescale).
     */
    public MutableCiphertext linearCombinationMutable(
            List<Ciphertext> terms, double[] coefficients, double[] constantScales, int level, double scale) {
        return linearCombinationMutable(terms, coefficients, constantScales, level, scale, null);
    }

    /**
     * {@link #linearCombinationMutable(List, double[], double[], int, double)} made in {@code scratch} (pooled limbs;
     * see {@link Scratch}), or in fresh memory where it is null.
     *
     * @throws WrongOperandException if {@code scratch} was made for other parameters
     * @throws IllegalStateException if {@code scratch} is closed
     */
    public MutableCiphertext linearCombinationMutable(
            List<Ciphertext> terms,
            double[] coefficients,
            double[] constantScales,
            int level,
            double scale,
            Scratch scratch) {
        checkScratch(scratch);
        Objects.requireNonNull(terms, "terms is null");
        Objects.requireNonNull(coefficients, "coefficients is null");
        Objects.requireNonNull(constantScales, "constantScales is null");
        int m = terms.size();
        if (m == 0 || coefficients.length != m || constantScales.length != m)
            throw new IllegalArgumentException(m + " terms, " + coefficients.length + " coefficients and "
                    + constantScales.length + " constant scales: they must match and be at least one");
        BigInteger[] k = new BigInteger[m];
        int deg = 0;
        for (int t = 0; t < m; t++) {
            Ciphertext a = Objects.requireNonNull(terms.get(t), "term " + t + " is null");
            checks.checkParams(a);
            if (level < 0 || level > a.level())
                throw new LevelMismatchException("term " + t + " is at level " + a.level() + ", read at " + level);
            double c = coefficients[t], cs = constantScales[t];
            k[t] = encodeConstant(c, cs, level, "coefficient " + t);
            double product = checks.checkProductScale(a.scale() * cs, level);
            if (Math.abs(product / scale - 1) > 1e-9)
                throw new InvalidScaleException(
                        "term " + t + " lands at scale " + product + ", not the combination's " + scale);
            deg = Math.max(deg, a.degree());
        }
        LimbKernels kernels = ctx.engine().kernels();
        RnsPoly[] out = new RnsPoly[deg + 1];
        for (int i = 0; i <= deg; i++) out[i] = newPoly(level, scratch); // sumShoup writes every coefficient
        final int degree = deg;
        rq.perLimb(level + 1, (from, to) -> {
            long[][] y = new long[m][];
            long[] kw = new long[m], kws = new long[m], w = new long[m], ws = new long[m];
            for (int j = from; j < to; j++) {
                long q = rq.prime(j);
                for (int t = 0; t < m; t++) {
                    kw[t] = k[t].mod(BigInteger.valueOf(q)).longValue();
                    kws[t] = ModArith.shoupQuotient(kw[t], q);
                }
                for (int i = 0; i <= degree; i++) {
                    int present = 0; // the terms with a polynomial i
                    for (int t = 0; t < m; t++) {
                        Ciphertext a = terms.get(t);
                        if (i > a.degree()) continue;
                        y[present] = a.poly(i, RawAccess.get()).limb(j);
                        w[present] = kw[t];
                        ws[present] = kws[t];
                        present++;
                    }
                    if (present > 0) kernels.sumShoup(y, 0, present, w, ws, q, out[i].limb(j), 0, ctx.n());
                }
            }
        });
        long products = 0; // a term's polynomials, each at every limb
        for (Ciphertext a : terms) products += a.degree() + 1;
        ctx.counters().add(Op.CONST_MUL, m);
        ctx.counters().add(Op.MOD_MULS, products * (level + 1) * ctx.n());
        return new MutableCiphertext(this, params, scale, out, scratch);
    }

    /** A mutable copy of {@code a}, for a chain of in-place operations ({@link MutableCiphertext}). */
    public MutableCiphertext mutableCopy(Ciphertext a) {
        Objects.requireNonNull(a, "a is null");
        checks.checkParams(a);
        return new MutableCiphertext(this, params, a.scale(), copyPolys(a));
    }

    /** acc += b with {@link #add}'s checks (b's degree at most acc's): {@link MutableCiphertext#add}. */
    void addInPlace(RnsPoly[] acc, double accScale, Ciphertext b) {
        Objects.requireNonNull(b, "b is null");
        checks.checkParams(b);
        int level = acc[0].level();
        if (b.level() != level)
            throw new LevelMismatchException(
                    "operands at levels " + level + " and " + b.level() + "; drop the higher one with dropLevel");
        if (b.degree() > acc.length - 1)
            throw new WrongOperandException("a degree-" + b.degree()
                    + " ciphertext cannot be added in place to a degree-" + (acc.length - 1) + " one");
        OperandChecks.checkScale(accScale, b.scale());
        for (int i = 0; i <= b.degree(); i++) rq.add(acc[i], b.poly(i, RawAccess.get()), acc[i]);
    }

    /** acc += round(c·constantScale)·b, b read at acc's level (no copy): {@link MutableCiphertext#addScaled}. */
    void addScaled(RnsPoly[] acc, double accScale, Ciphertext b, double c, double constantScale) {
        Objects.requireNonNull(b, "b is null");
        checks.checkParams(b);
        int level = acc[0].level();
        if (b.level() < level)
            throw new LevelMismatchException("b is at level " + b.level() + ", below the accumulator's " + level);
        if (b.degree() > acc.length - 1)
            throw new WrongOperandException("a degree-" + b.degree() + " term cannot be added in place to a degree-"
                    + (acc.length - 1) + " ciphertext");
        BigInteger k = encodeConstant(c, constantScale, level, "constant");
        OperandChecks.checkScale(accScale, checks.checkProductScale(b.scale() * constantScale, level));
        LimbKernels kernels = ctx.engine().kernels();
        rq.perLimb(level + 1, (from, to) -> {
            long[][] y = new long[2][];
            long[] w = {1, 0}, ws = new long[2];
            for (int j = from; j < to; j++) {
                long q = rq.prime(j);
                w[1] = k.mod(BigInteger.valueOf(q)).longValue();
                ws[0] = ModArith.shoupQuotient(1, q);
                ws[1] = ModArith.shoupQuotient(w[1], q);
                for (int i = 0; i <= b.degree(); i++) {
                    y[0] = acc[i].limb(j); // the sum reads a coefficient's terms before it writes it: in place
                    y[1] = b.poly(i, RawAccess.get()).limb(j);
                    kernels.sumShoup(y, 0, 2, w, ws, q, acc[i].limb(j), 0, ctx.n());
                }
            }
        });
        ctx.counters().increment(Op.CONST_MUL);
        ctx.counters().add(Op.MOD_MULS, (long) (b.degree() + 1) * (level + 1) * ctx.n());
    }

    /**
     * The same ciphertext read at another scale: its polynomials are unchanged, so every slot's
     * value is multiplied by a.scale()/scale. Bootstrapping uses it to fold a known factor into the
     * scale instead of spending a level on it.
     */
    public Ciphertext withScale(Ciphertext a, double scale) {
        Objects.requireNonNull(a, "a is null");
        checks.checkParams(a);
        return a.withScale(scale);
    }

    /**
     * Switches a degree-1 ciphertext from the key s_in to s_out with the switching key s_in → s_out
     * (made at the ciphertext's level or above): the sparse-secret encapsulation of bootstrapping.
     */
    public Ciphertext switchKeys(Ciphertext a, SwitchingKey key) {
        return switchKeys(a, key, null);
    }

    /**
     * {@link #switchKeys(Ciphertext, SwitchingKey)} made in {@code scratch} (pooled limbs; see {@link Scratch}), or
     * in fresh memory where it is null.
     */
    public Ciphertext switchKeys(Ciphertext a, SwitchingKey key, Scratch scratch) {
        checkScratch(scratch);
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(key, "key is null");
        checks.checkRotatable(a);
        if (!key.params().equals(params))
            throw new ParameterMismatchException("switching key made under other parameters");
        if (key.level() < a.level())
            throw new LevelMismatchException(
                    "switching key made at level " + key.level() + " cannot switch a ciphertext at level " + a.level());
        PolyQP[] digits = rotator.decomposePooled(a.poly(1, RawAccess.get()));
        try {
            // the key switch writes every coefficient of both
            RnsPoly c0 = newPoly(a.level(), scratch), c1 = newPoly(a.level(), scratch);
            ks.keySwitch(digits, key, 1, a.poly(0, RawAccess.get()), null, c0, c1, pool, ctx.counters());
            return Ciphertext.wrap(RawAccess.get(), params, a.scale(), c0, c1);
        } finally {
            rotator.release(digits);
        }
    }

    /**
     * round(c·constantScale) as an integer of any size, checked: c finite, the scale positive and finite, the
     * integer below half the modulus at {@code level}. {@code what} names c in the errors.
     */
    private BigInteger encodeConstant(double c, double constantScale, int level, String what) {
        if (!Double.isFinite(c)) throw new EncodingOverflowException(what + " is not finite: " + c);
        if (!(constantScale > 0) || Double.isInfinite(constantScale))
            throw new InvalidScaleException(what + ": its scale must be positive and finite, got " + constantScale);
        return fitting(scaledInteger(c, constantScale), level, what + " times its scale");
    }

    /** k itself if |k| stays below half the modulus at {@code level}, else a typed error (it would wrap). */
    private BigInteger fitting(BigInteger k, int level, String what) {
        double logQ = 0;
        for (int j = 0; j <= level; j++) logQ += Math.log(params.q(j)) / Math.log(2);
        if (k.bitLength() >= logQ - 1)
            throw new EncodingOverflowException(what + " needs " + k.bitLength() + " bits; the modulus at level "
                    + level + " has " + Math.round(logQ) + " (it would wrap)");
        return k;
    }

    /** round(c·scale) as an exact integer (c and scale finite). */
    static BigInteger scaledInteger(double c, double scale) {
        return new BigDecimal(c)
                .multiply(new BigDecimal(scale))
                .setScale(0, RoundingMode.HALF_EVEN)
                .toBigInteger();
    }

    /**
     * Multiplies every slot by i^power exactly: X^{N/2} evaluates to i in every slot, so this is a
     * product with the monomial ±X^{N/2} or ±1 — no level, no noise, no key.
     */
    public Ciphertext mulByI(Ciphertext a, int power) {
        Objects.requireNonNull(a, "a is null");
        checks.checkParams(a);
        int e = Math.floorMod(power, 4);
        if (e == 0) return Ciphertext.wrap(RawAccess.get(), params, a.scale(), copyPolys(a));
        RnsPoly mono = powerOfI(e, a.level());
        RnsPoly[] out = new RnsPoly[a.degree() + 1];
        for (int i = 0; i < out.length; i++) {
            out[i] = rq.newPoly(a.level(), Domain.NTT);
            rq.mulCoeffs(a.poly(i, RawAccess.get()), mono, out[i]);
        }
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), out);
    }

    /**
     * a + b·i^power (same level and scale) in one pass: {@code add(a, mulByI(b, power))}'s residues, one ciphertext
     * made, in {@code scratch} (pooled limbs; see {@link Scratch}) or in fresh memory where it is null.
     */
    public Ciphertext addMulByI(Ciphertext a, Ciphertext b, int power, Scratch scratch) {
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(b, "b is null");
        checkScratch(scratch);
        checks.checkPair(a, b, true);
        if (a.degree() != b.degree())
            throw new WrongOperandException("a degree-" + a.degree() + " and a degree-" + b.degree()
                    + " ciphertext: a + b·i^power takes equal degrees");
        int e = Math.floorMod(power, 4);
        RnsPoly[] out = new RnsPoly[a.degree() + 1];
        for (int i = 0; i < out.length; i++) {
            out[i] = newPoly(a.level(), scratch);
            RnsPoly pa = a.poly(i, RawAccess.get()), pb = b.poly(i, RawAccess.get());
            if (e == 0) rq.add(pa, pb, out[i]);
            else {
                pa.copyTo(out[i]);
                rq.mulCoeffsAdd(pb, powerOfI(e, a.level()), out[i]); // out += b·i^e, as add(a, mulByI(b, e))
            }
        }
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), out);
    }

    /**
     * {@link #mulByI} over a's own limbs: a was made in {@code scratch} and is spent (it may not be read afterwards);
     * the result, held there, has the same residues as {@code mulByI(a, power)} without a new ciphertext.
     *
     * @throws IllegalStateException if a is not a whole ciphertext alive in {@code scratch}
     */
    public Ciphertext mulByIInPlace(Ciphertext a, int power, Scratch scratch) {
        Objects.requireNonNull(a, "a is null");
        checks.checkParams(a);
        requireHeld(scratch, a);
        int e = Math.floorMod(power, 4);
        if (e == 0) return a;
        RnsPoly mono = powerOfI(e, a.level());
        RnsPoly[] out = new RnsPoly[a.degree() + 1];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.poly(i, RawAccess.get());
            rq.mulCoeffs(out[i], mono, out[i]);
        }
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), out);
    }

    /**
     * [a + b, a − b] written over the limbs of b and a, both made in {@code scratch} and spent (neither may be read
     * afterwards): the residues of {@link #add} and {@link #sub} without a new ciphertext (CoeffsToSlots' split of w
     * and its conjugate). Both results are held in the scratch.
     *
     * @throws IllegalStateException if a or b is not a whole ciphertext alive in {@code scratch}
     */
    public List<Ciphertext> sumAndDifferenceInPlace(Ciphertext a, Ciphertext b, Scratch scratch) {
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(b, "b is null");
        checks.checkPair(a, b, true);
        if (a.degree() != b.degree())
            throw new WrongOperandException("a degree-" + a.degree() + " and a degree-" + b.degree()
                    + " ciphertext: the sum and difference in place need equal degrees");
        requireHeld(scratch, a);
        requireHeld(scratch, b);
        if (a.poly(0, RawAccess.get()).limb(0) == b.poly(0, RawAccess.get()).limb(0))
            throw new WrongOperandException("the sum and difference in place write both operands: a and b are one");
        RnsPoly[] sum = new RnsPoly[a.degree() + 1], diff = new RnsPoly[sum.length];
        for (int i = 0; i < sum.length; i++) {
            diff[i] = a.poly(i, RawAccess.get());
            sum[i] = b.poly(i, RawAccess.get());
            rq.sumAndDifference(diff[i], sum[i]);
        }
        return List.of(
                Ciphertext.wrap(RawAccess.get(), params, a.scale(), sum),
                Ciphertext.wrap(RawAccess.get(), params, a.scale(), diff));
    }

    private void requireHeld(Scratch scratch, Ciphertext a) {
        Objects.requireNonNull(scratch, "scratch is null");
        checkScratch(scratch);
        if (!scratch.holds(a))
            throw new IllegalStateException(
                    "an operation in place takes a whole ciphertext made in its scratch and still alive there");
    }

    /**
     * Makes the i^power that {@link #mulByI}, {@link #mulByIInPlace} and {@link #addMulByI} multiply by, for every
     * level up to {@code level}, now, at setup: otherwise the first call transforms it, and that call's counts
     * include those transforms (CoeffsToSlots' first evaluation would count more than its second). A power divisible
     * by 4 needs nothing; a later call above {@code level} still makes (and counts) a table of its own.
     *
     * @throws LevelMismatchException if {@code level} is outside [0, maxLevel]
     */
    public void prepareMulByI(int power, int level) {
        if (level < 0 || level > params.maxLevel())
            throw new LevelMismatchException("level " + level + " outside [0, " + params.maxLevel() + "]");
        int e = Math.floorMod(power, 4);
        if (e != 0) powerOfI(e, level);
    }

    /**
     * i^e as a ring element in the NTT domain (X^{N/2}, −1 or −X^{N/2}), read at {@code level}: transformed once
     * and kept (made again only for a higher level), not at every call.
     */
    private RnsPoly powerOfI(int e, int level) {
        synchronized (powersOfI) {
            RnsPoly m = powersOfI[e];
            if (m == null || m.level() < level) {
                m = rq.newPoly(level, Domain.COEFFICIENT);
                m.setCoefficient(e % 2 == 0 ? 0 : ctx.n() / 2, e >= 2 ? -1 : 1);
                rq.ntt(m);
                powersOfI[e] = m;
            }
            return m.atLevel(level);
        }
    }

    // ------------------------------------------------------------------ multiplication

    /** ct ⊙ pt: scales multiply; the plaintext may sit at a higher level (its prefix is used). */
    public Ciphertext mulPlain(Ciphertext a, Plaintext p) {
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(p, "p is null");
        checks.checkPlain(a, p, false);
        RnsPoly[] out = new RnsPoly[a.degree() + 1];
        RnsPoly pp = p.poly(RawAccess.get()).atLevel(a.level());
        for (int i = 0; i < out.length; i++) {
            out[i] = rq.newPoly(a.level(), Domain.NTT);
            rq.mulCoeffs(a.poly(i, RawAccess.get()), pp, out[i]);
        }
        ctx.counters().increment(Op.PT_MUL);
        return Ciphertext.wrap(
                RawAccess.get(), params, checks.checkProductScale(a.scale() * p.scale(), a.level()), out);
    }

    /** Multiplies by an integer constant (scale unchanged). */
    public Ciphertext mulInteger(Ciphertext a, long c) {
        Objects.requireNonNull(a, "a is null");
        checks.checkParams(a);
        RnsPoly[] in = new RnsPoly[a.degree() + 1], out = new RnsPoly[in.length];
        for (int i = 0; i < out.length; i++) {
            in[i] = a.poly(i, RawAccess.get());
            out[i] = rq.newPoly(a.level(), Domain.NTT);
        }
        mulInteger(in, out, c);
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), out);
    }

    /** out_i = c·in_i (out may be in). */
    void mulInteger(RnsPoly[] in, RnsPoly[] out, long c) {
        for (int i = 0; i < out.length; i++) rq.mulScalar(in[i], c, out[i]);
    }

    /** Tensor product (d_0, d_1, d_2) of two degree-1 ciphertexts; relinearize afterwards. */
    public Ciphertext mul(Ciphertext a, Ciphertext b) {
        double scale = checkTensorOperands(a, b);
        int l = a.level();
        RnsPoly d0 = rq.newPoly(l, Domain.NTT), d1 = rq.newPoly(l, Domain.NTT), d2 = rq.newPoly(l, Domain.NTT);
        tensor(a, b, d0, d1, d2);
        return Ciphertext.wrap(RawAccess.get(), params, scale, d0, d1, d2);
    }

    /** The checks of {@link #mul}; returns the product's scale. */
    private double checkTensorOperands(Ciphertext a, Ciphertext b) {
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(b, "b is null");
        checks.checkPair(a, b, false);
        if (a.degree() != 1 || b.degree() != 1)
            throw new WrongOperandException("mul expects two degree-1 ciphertexts (relinearize first)");
        return checks.checkProductScale(a.scale() * b.scale(), a.level());
    }

    /** (d_0, d_1, d_2) = (a_0·b_0, a_0·b_1 + a_1·b_0, a_1·b_1), NTT domain. */
    private void tensor(Ciphertext a, Ciphertext b, RnsPoly d0, RnsPoly d1, RnsPoly d2) {
        rq.mulCoeffs(a.poly(0, RawAccess.get()), b.poly(0, RawAccess.get()), d0);
        rq.mulCoeffsSum(
                a.poly(0, RawAccess.get()),
                b.poly(1, RawAccess.get()),
                a.poly(1, RawAccess.get()),
                b.poly(0, RawAccess.get()),
                d1);
        rq.mulCoeffs(a.poly(1, RawAccess.get()), b.poly(1, RawAccess.get()), d2);
        ctx.counters().increment(Op.CT_MUL);
    }

    /** Switches the s² part of a degree-2 ciphertext back to s. */
    public Ciphertext relinearize(Ciphertext a) {
        Objects.requireNonNull(a, "a is null");
        checks.checkParams(a);
        if (a.degree() != 2)
            throw new WrongOperandException("relinearize expects a degree-2 ciphertext, got degree " + a.degree());
        requireRelinearizationKey();
        int level = a.level();
        PolyQP[] digits = rotator.decomposePooled(a.poly(2, RawAccess.get()));
        try {
            RnsPoly c0 = rq.newPoly(level, Domain.NTT), c1 = rq.newPoly(level, Domain.NTT);
            ks.keySwitch(
                    digits,
                    rlk.key(),
                    1,
                    a.poly(0, RawAccess.get()),
                    a.poly(1, RawAccess.get()),
                    c0,
                    c1,
                    pool,
                    ctx.counters());
            ctx.counters().increment(Op.RELINEARIZE);
            return Ciphertext.wrap(RawAccess.get(), params, a.scale(), c0, c1);
        } finally {
            rotator.release(digits);
        }
    }

    /**
     * {@code relinearize(mul(a, b))}, bit for bit, without the intermediate ciphertext: d_0 and d_1 are
     * written into the result and the key switch adds into them in place, d_2 lives in pooled limbs
     * until Decompose has read it (three fewer fresh polynomials per product).
     */
    public Ciphertext mulRelin(Ciphertext a, Ciphertext b) {
        return mulRelinMutable(a, b).freeze();
    }

    /**
     * {@link #mulRelin} into a {@link MutableCiphertext}, for a caller that goes on in place (the
     * polynomial evaluator's T_{a+b} = 2·T_a·T_b − T_{a−b}, then rescaled: one ciphertext made, not five).
     */
    public MutableCiphertext mulRelinMutable(Ciphertext a, Ciphertext b) {
        return mulRelinMutable(a, b, null);
    }

    /**
     * {@link #mulRelinMutable(Ciphertext, Ciphertext)} made in {@code scratch} (pooled limbs; see {@link Scratch}),
     * or in fresh memory where it is null.
     *
     * @throws WrongOperandException if {@code scratch} was made for other parameters
     * @throws IllegalStateException if {@code scratch} is closed
     */
    public MutableCiphertext mulRelinMutable(Ciphertext a, Ciphertext b, Scratch scratch) {
        checkScratch(scratch);
        double scale = checkTensorOperands(a, b);
        RelinearizationKey key = requireRelinearizationKey();
        int level = a.level();
        // the tensor writes every coefficient of d_0 and d_1 before the key switch adds into them
        RnsPoly c0 = newPoly(level, scratch), c1 = newPoly(level, scratch);
        PolyQP[] digits;
        long[][] d2Limbs = pool.get(level + 1);
        try {
            RnsPoly d2 = rq.wrap(d2Limbs, Domain.NTT);
            tensor(a, b, c0, c1, d2);
            digits = rotator.decomposePooled(d2);
        } finally {
            pool.put(d2Limbs);
        }
        try {
            ks.keySwitch(digits, key.key(), 1, c0, c1, c0, c1, pool, ctx.counters());
            ctx.counters().increment(Op.RELINEARIZE);
        } finally {
            rotator.release(digits);
        }
        return new MutableCiphertext(this, params, scale, new RnsPoly[] {c0, c1}, scratch);
    }

    /**
     * A scratch for the intermediate ciphertexts of one computation, in this evaluator's limb pool (see
     * {@link Scratch}); close it when done. Any evaluator of the same parameters may make its results there.
     */
    public Scratch scratch() {
        return new Scratch(rq, pool);
    }

    private void checkScratch(Scratch scratch) {
        if (scratch != null) scratch.requireOpenFor(rq);
    }

    /** A polynomial at {@code level} in the NTT domain: pooled with arbitrary contents, or fresh zeros. */
    private RnsPoly newPoly(int level, Scratch scratch) {
        return scratch == null ? rq.newPoly(level, Domain.NTT) : scratch.newPoly(level);
    }

    private RelinearizationKey requireRelinearizationKey() {
        if (rlk == null)
            throw new MissingRelinearizationKeyException("no relinearization key was given to this evaluator");
        return rlk;
    }

    /** Divides by the last prime q_ℓ (rounded) and drops it: level ℓ−1, scale / q_ℓ. */
    public Ciphertext rescale(Ciphertext a) {
        Objects.requireNonNull(a, "a is null");
        checks.checkParams(a);
        if (a.level() == 0) throw new LevelMismatchException("cannot rescale a ciphertext at level 0");
        RnsPoly[] in = new RnsPoly[a.degree() + 1], out = new RnsPoly[in.length];
        for (int i = 0; i < out.length; i++) {
            in[i] = a.poly(i, RawAccess.get());
            out[i] = rq.newPoly(a.level() - 1, Domain.NTT);
        }
        rescale(in, out);
        return Ciphertext.wrap(RawAccess.get(), params, a.scale() / params.q(a.level()), out);
    }

    /** out_i = rescale(in_i), out one level lower (out_i may be in_i viewed there). */
    void rescale(RnsPoly[] in, RnsPoly[] out) {
        ks.rescale(in, out, pool, ctx.counters());
        ctx.counters().increment(Op.RESCALE);
    }

    /**
     * Drops the last {@code count} primes without dividing (scale unchanged). The result shares a's
     * remaining limbs (both are immutable), so it costs no copy.
     */
    public Ciphertext dropLevel(Ciphertext a, int count) {
        Objects.requireNonNull(a, "a is null");
        checks.checkParams(a);
        if (count < 0 || count > a.level())
            throw new LevelMismatchException("cannot drop " + count + " levels from level " + a.level());
        RnsPoly[] out = new RnsPoly[a.degree() + 1];
        for (int i = 0; i < out.length; i++) out[i] = a.poly(i, RawAccess.get()).atLevel(a.level() - count);
        return Ciphertext.wrap(RawAccess.get(), params, a.scale(), out);
    }

    /** Drops levels down to {@code level}. */
    public Ciphertext atLevel(Ciphertext a, int level) {
        Objects.requireNonNull(a, "a is null");
        return dropLevel(a, a.level() - level);
    }

    // ------------------------------------------------------------------ rotations

    /** Left rotation of the slots by k (negative k rotates right). */
    public Ciphertext rotate(Ciphertext a, int k) {
        Objects.requireNonNull(a, "a is null");
        checks.checkRotatable(a);
        return rotator.rotate(a, k);
    }

    /**
     * The automorphism X → X^g with its key, for any odd g (rotations are g = 5^k mod 2N reduced by
     * the slot count; the trace of sparse bootstrapping needs 5^k for k beyond it).
     */
    public Ciphertext automorphism(Ciphertext a, long galoisElement) {
        Objects.requireNonNull(a, "a is null");
        checks.checkRotatable(a);
        long g = Math.floorMod(galoisElement, 2L * ctx.n());
        if ((g & 1) == 0) throw new WrongOperandException("Galois element must be odd: " + galoisElement);
        if (g == 1) return a.copy(); // the identity needs no key
        return rotator.automorphism(a, g);
    }

    /** Complex conjugation of every slot. */
    public Ciphertext conjugate(Ciphertext a) {
        Objects.requireNonNull(a, "a is null");
        checks.checkRotatable(a);
        return rotator.conjugate(a);
    }

    /** Rotations by every k in {@code ks}, sharing one Decompose (hoisting). */
    public Map<Integer, Ciphertext> rotateHoisted(Ciphertext a, int... steps) {
        Objects.requireNonNull(a, "a is null");
        checks.checkRotatable(a);
        return rotator.rotateHoisted(a, steps);
    }

    /**
     * {@link #rotateHoisted(Ciphertext, int...)} handing each rotation to {@code each} (with its step)
     * as soon as it is made, in the order of {@code steps}, duplicates once: a caller that uses them one
     * at a time never holds them all (eight at N = 2^16 and 25 levels are 0.2 GB). Every key is checked
     * before any work; an exception from {@code each} stops the rotations.
     */
    public void rotateHoisted(Ciphertext a, int[] steps, ObjIntConsumer<Ciphertext> each) {
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(steps, "steps is null");
        Objects.requireNonNull(each, "each is null");
        checks.checkRotatable(a);
        rotator.rotateHoisted(a, steps, each);
    }

    /** Decompose(c_1) of a ciphertext: the shared first step of hoisted rotations. */
    public PolyQP[] decompose(Ciphertext a) {
        Objects.requireNonNull(a, "a is null");
        checks.checkRotatable(a);
        return ks.decompose(a.poly(1, RawAccess.get()));
    }

    /**
     * Lazy hoisted rotation (spec §2.4): (φ_g(P·c_0 + ⟨D, SWK_g.b⟩), φ_g(⟨D, SWK_g.a⟩)) over Q_ℓ·P,
     * without ModDown, from the digits of {@link #decompose}. Rotation by 0 gives (P·c_0, P·c_1).
     */
    public CiphertextQP rotateHoistedLazy(Ciphertext a, PolyQP[] digits, int k) {
        Objects.requireNonNull(a, "a is null");
        Objects.requireNonNull(digits, "digits is null");
        checks.checkRotatable(a);
        int level = ks.checkDigits(digits);
        if (level != a.level())
            throw new LevelMismatchException(
                    "digits at level " + level + " for a ciphertext at level " + a.level() + ": decompose it again");
        if (Math.floorMod(k, params.slots()) == 0)
            return CiphertextQP.wrap(
                    RawAccess.get(),
                    params,
                    ks.timesP(a.poly(0, RawAccess.get())),
                    ks.timesP(a.poly(1, RawAccess.get())),
                    a.scale());
        GaloisKey key = rotations.forRotation(k);
        PolyQP[] r = ks.switchAndPermute(digits, ks.timesP(a.poly(0, RawAccess.get())), key);
        return CiphertextQP.wrap(RawAccess.get(), params, r[0], r[1], a.scale());
    }

    /** ModDown of both parts of a QP ciphertext: back to Q at the same level and scale. */
    public Ciphertext modDown(CiphertextQP c) {
        Objects.requireNonNull(c, "c is null");
        checks.checkParams(c);
        return Ciphertext.wrap(
                RawAccess.get(), params, c.scale(), ks.modDown(c.a(RawAccess.get())), ks.modDown(c.b(RawAccess.get())));
    }

    /** ModDown merged with rescale of both parts: level ℓ−1, scale / q_ℓ. */
    public Ciphertext modDownRescale(CiphertextQP c) {
        Objects.requireNonNull(c, "c is null");
        checks.checkParams(c);
        if (c.level() == 0) throw new LevelMismatchException("modDownRescale needs a level above 0 to rescale from");
        return Ciphertext.wrap(
                RawAccess.get(),
                params,
                c.scale() / params.q(c.level()),
                ks.modDownRescale(c.a(RawAccess.get())),
                ks.modDownRescale(c.b(RawAccess.get())));
    }

    /** A new c_0 at a's level, the other parts shared with a (immutable, unchanged by the operation). */
    private RnsPoly[] newFirstPoly(Ciphertext a) {
        RnsPoly[] out = new RnsPoly[a.degree() + 1];
        out[0] = rq.newPoly(a.level(), Domain.NTT);
        for (int i = 1; i < out.length; i++) out[i] = a.poly(i, RawAccess.get());
        return out;
    }

    private RnsPoly[] copyPolys(Ciphertext a) {
        RnsPoly[] out = new RnsPoly[a.degree() + 1];
        for (int i = 0; i < out.length; i++) out[i] = a.poly(i, RawAccess.get()).copy();
        return out;
    }
}
