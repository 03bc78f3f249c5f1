package io.hoist.ckks;

import io.hoist.ring.Domain;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * The canonical embedding by the special FFT (HEAAN/Lattigo layout): slot j of a plaintext with n
 * slots is m(ζ^{5^j}) with ζ = e^{iπ/N}, so φ_{5^r} rotates slots left by r and φ_{2N−1}
 * conjugates. With n &lt; N/2 (sparse packing) the coefficients sit at multiples of N/(2n).
 * Thread-safe (tables are read-only).
 */
public final class Encoder {
    private final CkksContext ctx;
    private final int n; // ring degree
    private final SpecialFft fft;

    public Encoder(CkksContext ctx) {
        Objects.requireNonNull(ctx, "ctx is null");
        this.ctx = ctx;
        this.n = ctx.n();
        this.fft = new SpecialFft(ctx.params().logN());
    }

    public CkksContext context() {
        return ctx;
    }

    /** Encodes up to {@code slots} complex values into Q at {@code level} and {@code scale}. */
    public Plaintext encode(ComplexVector values, int level, double scale) {
        Objects.requireNonNull(values, "values is null");
        checkLevel(level);
        checkScale(scale, level);
        double[] real = embed(values, scale);
        RnsPoly p = toPoly(ctx.ringQ(), level, real, ctx.params().logQ() - logQSuffix(level), "Q_" + level);
        ctx.ringQ().ntt(p);
        return Plaintext.wrap(RawAccess.get(), ctx.params(), p, scale);
    }

    /** Encodes real values (imaginary parts zero). */
    public Plaintext encode(double[] values, int level, double scale) {
        Objects.requireNonNull(values, "values is null");
        return encode(ComplexVector.ofReal(values), level, scale);
    }

    /** Encodes at the top level and the default scale. */
    public Plaintext encode(ComplexVector values) {
        Objects.requireNonNull(values, "values is null");
        return encode(values, ctx.params().maxLevel(), ctx.params().defaultScale());
    }

    /** Encodes into QP (Q limbs up to {@code level} plus all P limbs): the form of linear-transform diagonals. */
    public PlaintextQP encodeQP(ComplexVector values, int level, double scale) {
        Objects.requireNonNull(values, "values is null");
        checkLevel(level);
        checkScale(scale, level);
        double[] real = embed(values, scale);
        double logQP = ctx.params().logQ() - logQSuffix(level) + ctx.params().logP();
        RnsPoly q = toPoly(ctx.ringQ(), level, real, logQP, "Q_" + level + "·P");
        RnsPoly p = toPoly(ctx.ringP(), ctx.alpha() - 1, real, logQP, "Q_" + level + "·P");
        ctx.ringQ().ntt(q);
        ctx.ringP().ntt(p);
        return PlaintextQP.wrap(RawAccess.get(), ctx.params(), PolyQP.of(q, p), scale);
    }

    /**
     * The rounded integer coefficients Δ·embed(values): one word per coefficient, the compact form of
     * a plaintext that {@link #liftQP} and {@link #liftQ} expand to limbs. Coefficients must stay
     * below 2^62 in magnitude.
     */
    /**
     * {@link #encodeToIntegers(ComplexVector, double)} of the slot values (re[i], im[i]), one per
     * slot, without copies: {@code re} and {@code im} are used as the FFT's scratch and overwritten.
     * For bulk encoders (the diagonals of a transform) that build the slot vector themselves.
     */
    public long[] encodeToIntegers(double[] re, double[] im, double scale) {
        long[] out = new long[n];
        encodeToIntegers(re, im, scale, out);
        return out;
    }

    /**
     * {@link #encodeToIntegers(double[], double[], double)} into the caller's array of N coefficients
     * (every entry is written), so that a bulk encoder can reuse one buffer for every diagonal.
     */
    public void encodeToIntegers(double[] re, double[] im, double scale, long[] out) {
        integers(re, im, scale, out, false);
    }

    /**
     * {@link #encodeToIntegers(double[], double[], double, long[])} of the slot vector that repeats
     * (re[i], im[i]), i &lt; period, over every slot: period a power of two dividing the slot count.
     * It encodes to a polynomial in X^{N/(2·period)} (docs/ring.md, "Subring NTTs"), found here with an
     * FFT of size period instead of the slot count: the same integers (the full-size FFT's stages over
     * blocks longer than the period only double one copy and zero the rest, exactly). {@code re} and
     * {@code im} are the FFT's scratch and overwritten.
     */
    public void encodeToIntegersPeriodic(double[] re, double[] im, double scale, long[] out) {
        integers(re, im, scale, out, true);
    }

    /** The checks, the FFT of size re.length (the slots, or one period of them) and the read-out at gap N/(2·size). */
    private void integers(double[] re, double[] im, double scale, long[] out, boolean periodic) {
        Objects.requireNonNull(re, "re is null");
        Objects.requireNonNull(im, "im is null");
        Objects.requireNonNull(out, "out is null");
        if (!Double.isFinite(scale) || scale < 2)
            throw new InvalidScaleException("scale must be a finite number ≥ 2, got " + scale);
        int slots = ctx.params().slots(), size = re.length;
        if (!periodic && (size != slots || im.length != slots))
            throw new WrongOperandException("need " + slots + " slot values, got " + re.length + " and " + im.length);
        if (periodic && (im.length != size || Integer.bitCount(size) != 1 || size > slots))
            throw new WrongOperandException("a period needs a power of two of at most " + slots
                    + " values in re and im, got " + re.length + " and " + im.length);
        if (out.length != n) throw new WrongOperandException("need room for " + n + " coefficients, got " + out.length);
        checkFinite(re, im);
        fft.inverseStages(re, im, size);
        // the bit reversal, 1/size, the scale and the rounding in one pass; c·(scale/size) has the
        // bits of c/size·scale (both scale c·scale by a power of two, exactly), without a division
        int gap = n / (2 * size), bits = Integer.numberOfTrailingZeros(size), half = n / 2;
        double factor = scale / size;
        if (gap > 1) Arrays.fill(out, 0L);
        for (int i = 0, k = 0; i < size; i++, k += gap) {
            int j = SpecialFft.bitReverse(i, bits);
            out[k] = round62(re[j] * factor, k);
            out[half + k] = round62(im[j] * factor, half + k);
        }
    }

    private static long round62(double c, int k) {
        if (!(Math.abs(c) < 0x1p62)) {
            throw new EncodingOverflowException(String.format(
                    Locale.ROOT,
                    "coefficient %d reaches 2^%.1f; the one-word form holds at most 2^62",
                    k,
                    Math.log(Math.abs(c)) / Math.log(2)));
        }
        return round(c);
    }

    /**
     * {@link Math#round(double)} for |c| &lt; 2^62, without its branch on the sign (which mispredicts on
     * every other coefficient): ⌊c⌋ plus one when the fraction, exact in a double, is at least 1/2.
     */
    static long round(double c) {
        double f = Math.floor(c);
        return (long) f + (c - f >= 0.5 ? 1 : 0);
    }

    public long[] encodeToIntegers(ComplexVector values, double scale) {
        Objects.requireNonNull(values, "values is null");
        int slots = ctx.params().slots();
        if (values.length() > slots)
            throw new EncodingOverflowException(values.length() + " values do not fit in " + slots + " slots");
        double[] re = new double[slots], im = new double[slots];
        System.arraycopy(values.re(), 0, re, 0, values.length());
        System.arraycopy(values.im(), 0, im, 0, values.length());
        return encodeToIntegers(re, im, scale);
    }

    /** Signed integer coefficients → QP polynomial at {@code level}, NTT domain (one batched call per part). */
    public PolyQP liftQP(long[] coeffs, int level) {
        Objects.requireNonNull(coeffs, "coeffs is null");
        checkLevel(level);
        PolyQP p = PolyQP.of(
                Sampler.fromSigned(ctx.ringQ(), level, coeffs),
                Sampler.fromSigned(ctx.ringP(), ctx.alpha() - 1, coeffs));
        ctx.ringQ().ntt(p.q());
        ctx.ringP().ntt(p.p());
        return p;
    }

    /** Signed integer coefficients → Q polynomial at {@code level}, NTT domain. */
    public RnsPoly liftQ(long[] coeffs, int level) {
        Objects.requireNonNull(coeffs, "coeffs is null");
        checkLevel(level);
        RnsPoly p = Sampler.fromSigned(ctx.ringQ(), level, coeffs);
        ctx.ringQ().ntt(p);
        return p;
    }

    /**
     * Encodes N real coefficients directly as the plaintext polynomial Σ round(Δ·t_k)·X^k (no
     * embedding): the input of CoeffsToSlots, whose slots then hold the decoding of t.
     */
    public Plaintext encodeCoefficients(double[] coefficients, int level, double scale) {
        Objects.requireNonNull(coefficients, "coefficients is null");
        checkLevel(level);
        checkScale(scale, level);
        if (coefficients.length > n)
            throw new EncodingOverflowException(coefficients.length + " coefficients do not fit a ring of degree " + n);
        double[] coef = new double[n];
        for (int k = 0; k < coefficients.length; k++) {
            if (!Double.isFinite(coefficients[k]))
                throw new EncodingOverflowException("coefficient " + k + " is not finite");
            coef[k] = coefficients[k] * scale;
        }
        RnsPoly p = toPoly(ctx.ringQ(), level, coef, ctx.params().logQ() - logQSuffix(level), "Q_" + level);
        ctx.ringQ().ntt(p);
        return Plaintext.wrap(RawAccess.get(), ctx.params(), p, scale);
    }

    /** The N coefficients of a plaintext (centred CRT) divided by its scale: the inverse of {@link #encodeCoefficients}. */
    public double[] coefficients(Plaintext pt) {
        Objects.requireNonNull(pt, "pt is null");
        checkParams(pt);
        RnsPoly c = pt.poly(RawAccess.get()).copy();
        if (c.domain() == Domain.NTT) ctx.ringQ().intt(c);
        double[] out = centeredCoefficients(c);
        for (int k = 0; k < n; k++) out[k] /= pt.scale();
        return out;
    }

    /** Decodes a plaintext into its {@code slots} complex values. */
    public ComplexVector decode(Plaintext pt) {
        Objects.requireNonNull(pt, "pt is null");
        checkParams(pt);
        RnsPoly c = pt.poly(RawAccess.get()).copy();
        if (c.domain() == Domain.NTT) ctx.ringQ().intt(c);
        return decodeCoefficients(c, pt.scale());
    }

    /** Decodes coefficient-domain residues (CRT, centered) divided by {@code scale}. */
    ComplexVector decodeCoefficients(RnsPoly c, double scale) {
        int slots = ctx.params().slots();
        int gap = n / (2 * slots);
        double[] coef = centeredCoefficients(c);
        double[] re = new double[slots], im = new double[slots];
        for (int i = 0; i < slots; i++) {
            re[i] = coef[i * gap] / scale;
            im[i] = coef[n / 2 + i * gap] / scale;
        }
        fft.forward(re, im, slots);
        return new ComplexVector(re, im);
    }

    private void checkParams(Plaintext pt) {
        if (!pt.params().equals(ctx.params()))
            throw new ParameterMismatchException("plaintext encoded under other parameters than this encoder's");
    }

    private double logQSuffix(int level) {
        double s = 0;
        for (int j = level + 1; j <= ctx.params().maxLevel(); j++)
            s += Math.log(ctx.params().q(j)) / Math.log(2);
        return s;
    }

    /** A scale must be finite, at least 2 and leave room below Q_ℓ/2 for a message of magnitude 1. */
    private void checkScale(double scale, int level) {
        if (!Double.isFinite(scale) || scale < 2)
            throw new InvalidScaleException("scale must be a finite number ≥ 2, got " + scale);
        double logQ = ctx.params().logQ() - logQSuffix(level);
        if (!(Math.log(scale) / Math.log(2) < logQ - 1)) {
            throw new InvalidScaleException(String.format(
                    Locale.ROOT,
                    "scale 2^%.1f does not fit the modulus 2^%.1f at level %d",
                    Math.log(scale) / Math.log(2),
                    logQ,
                    level));
        }
    }

    private void checkLevel(int level) {
        ctx.params().checkLevel(level);
    }

    /** values → N real coefficients times the scale (not yet rounded). */
    private double[] embed(ComplexVector values, double scale) {
        int slots = ctx.params().slots();
        if (values.length() > slots) {
            throw new EncodingOverflowException(values.length() + " values do not fit in " + slots + " slots");
        }
        double[] re = new double[slots], im = new double[slots];
        System.arraycopy(values.re(), 0, re, 0, values.length());
        System.arraycopy(values.im(), 0, im, 0, values.length());
        return embedInPlace(re, im, scale);
    }

    /** Δ·(special inverse FFT of the slot values) laid out as N coefficients; re and im (one per slot) are the FFT's scratch. */
    private double[] embedInPlace(double[] re, double[] im, double scale) {
        if (!(scale > 0) || Double.isInfinite(scale))
            throw new EncodingOverflowException("scale must be positive and finite: " + scale);
        checkFinite(re, im);
        int slots = re.length;
        fft.inverseStages(re, im, slots);
        double[] coef = new double[n];
        int gap = n / (2 * slots), bits = Integer.numberOfTrailingZeros(slots);
        for (int i = 0; i < slots; i++) {
            int j = SpecialFft.bitReverse(i, bits);
            coef[i * gap] = re[j] / slots * scale;
            coef[n / 2 + i * gap] = im[j] / slots * scale;
        }
        return coef;
    }

    private static void checkFinite(double[] re, double[] im) {
        for (int i = 0; i < re.length; i++) {
            if (!Double.isFinite(re[i]) || !Double.isFinite(im[i]))
                throw new EncodingOverflowException("value " + i + " is not finite");
        }
    }

    /** Rounds and reduces the coefficients modulo each prime of {@code ring} up to {@code level}. */
    private RnsPoly toPoly(Ring ring, int level, double[] coef, double logModulus, String modulusName) {
        double max = 0;
        for (double c : coef) max = Math.max(max, Math.abs(c));
        if (!Double.isFinite(max) || (max >= 1 && Math.log(max) / Math.log(2) >= logModulus - 1)) {
            throw new EncodingOverflowException(String.format(
                    Locale.ROOT,
                    "encoded coefficients reach 2^%.1f but the modulus %s has only %.1f bits: lower the scale or the values",
                    Math.log(max) / Math.log(2),
                    modulusName,
                    logModulus));
        }
        RnsPoly p = ring.newPoly(level, Domain.COEFFICIENT);
        for (int k = 0; k < n; k++) {
            double c = coef[k];
            if (Math.abs(c) < 0x1p62) {
                long v = round(c);
                for (int i = 0; i <= level; i++) {
                    long q = ring.prime(i);
                    long r = v % q;
                    p.limb(i)[k] = r < 0 ? r + q : r;
                }
            } else {
                BigInteger v =
                        new BigDecimal(c).setScale(0, RoundingMode.HALF_EVEN).toBigIntegerExact();
                for (int i = 0; i <= level; i++)
                    p.limb(i)[k] = v.mod(BigInteger.valueOf(ring.prime(i))).longValue();
            }
        }
        return p;
    }

    /** Centered CRT reconstruction of every coefficient, as doubles. */
    private double[] centeredCoefficients(RnsPoly c) {
        double[] out = new double[n];
        int limbs = c.limbCount();
        if (limbs == 1) {
            long q = c.ring().prime(0), half = q >>> 1;
            long[] l = c.limb(0);
            for (int k = 0; k < n; k++) out[k] = l[k] > half ? (double) (l[k] - q) : (double) l[k];
            return out;
        }
        var basis = c.ring().basis().prefix(limbs);
        BigInteger bigQ = basis.product(), half = bigQ.shiftRight(1);
        BigInteger[] qHat = new BigInteger[limbs];
        long[] qHatInv = new long[limbs];
        for (int i = 0; i < limbs; i++) {
            qHat[i] = basis.qHat(i);
            qHatInv[i] = basis.qHatInvModQi(i);
        }
        for (int k = 0; k < n; k++) {
            BigInteger x = BigInteger.ZERO;
            for (int i = 0; i < limbs; i++) {
                long y = basis.modulus(i).mul(c.limb(i)[k], qHatInv[i]);
                x = x.add(qHat[i].multiply(BigInteger.valueOf(y)));
            }
            x = x.mod(bigQ);
            if (x.compareTo(half) > 0) x = x.subtract(bigQ);
            out[k] = x.doubleValue();
        }
        return out;
    }
}
