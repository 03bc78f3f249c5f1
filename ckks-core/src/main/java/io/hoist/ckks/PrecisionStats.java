package io.hoist.ckks;

import java.util.Arrays;
import java.util.Locale;

/**
 * Precision of a decrypted result against the expected values, as Lattigo reports it: per slot
 * −log2|error| of the real part, the imaginary part and the L2 (complex modulus) error, summarized
 * by min / avg / median / max / std, plus the largest absolute error. Higher bits = more precise;
 * "min" is the worst slot.
 */
public record PrecisionStats(Summary real, Summary imag, Summary l2, double maxAbsError, int slots) {

    /** Statistics of −log2|error| over the slots. */
    public record Summary(double min, double avg, double median, double max, double std) {
        static Summary of(double[] bits) {
            double[] s = bits.clone();
            Arrays.sort(s);
            double avg = Arrays.stream(s).average().orElse(Double.NaN);
            double var = 0;
            for (double x : s) var += (x - avg) * (x - avg);
            double med = s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
            return new Summary(s[0], avg, med, s[s.length - 1], Math.sqrt(var / s.length));
        }

        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT, "min %.2f, avg %.2f, median %.2f, max %.2f, std %.2f", min, avg, median, max, std);
        }
    }

    /** Errors below 2^-60 count as 60 bits, so exact slots do not give infinities. */
    private static final double FLOOR_BITS = 60;

    public static PrecisionStats of(ComplexVector want, ComplexVector got) {
        if (want.length() != got.length())
            throw new WrongOperandException(
                    "comparing " + got.length() + " slots against " + want.length() + " expected ones");
        int n = want.length();
        if (n == 0) throw new IllegalArgumentException("no slots to compare");
        double[] br = new double[n], bi = new double[n], bl = new double[n];
        double maxAbs = 0;
        for (int i = 0; i < n; i++) {
            double er = Math.abs(want.re(i) - got.re(i)), ei = Math.abs(want.im(i) - got.im(i));
            double el = Math.hypot(er, ei);
            maxAbs = Math.max(maxAbs, el);
            br[i] = bits(er);
            bi[i] = bits(ei);
            bl[i] = bits(el);
        }
        return new PrecisionStats(Summary.of(br), Summary.of(bi), Summary.of(bl), maxAbs, n);
    }

    private static double bits(double err) {
        if (Double.isNaN(err)) return 0;
        return err <= 0 ? FLOOR_BITS : Math.min(FLOOR_BITS, -Math.log(err) / Math.log(2));
    }

    /** The worst slot's L2 precision in bits: the figure thresholds are set on. */
    public double minBits() {
        return l2.min();
    }

    public double avgBits() {
        return l2.avg();
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "precision (bits, %d slots): real [%s], imag [%s], L2 [%s], max |err| %.3e",
                slots,
                real,
                imag,
                l2,
                maxAbsError);
    }
}
