package io.hoist.ckks;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * An immutable vector of complex numbers (real and imaginary parts of equal length). The arrays
 * given are copied and {@link #re()}/{@link #im()} return copies; {@link #re(int)} and
 * {@link #im(int)} read single entries without copying.
 */
public final class ComplexVector {
    private final double[] re;
    private final double[] im;

    /** Copies {@code re} and {@code im}. */
    public ComplexVector(double[] re, double[] im) {
        this(re.clone(), im.clone(), true);
    }

    /** Takes the arrays (internal results that nobody else holds). */
    private ComplexVector(double[] re, double[] im, boolean owned) {
        if (re.length != im.length)
            throw new IllegalArgumentException(
                    "real and imaginary parts differ in length: " + re.length + " vs " + im.length);
        this.re = re;
        this.im = im;
    }

    static ComplexVector wrap(double[] re, double[] im) {
        return new ComplexVector(re, im, true);
    }

    public static ComplexVector zeros(int n) {
        checkLength(n);
        return wrap(new double[n], new double[n]);
    }

    public static ComplexVector ofReal(double... re) {
        return wrap(re.clone(), new double[re.length]);
    }

    /** A copy of the real parts. */
    public double[] re() {
        return re.clone();
    }

    /** A copy of the imaginary parts. */
    public double[] im() {
        return im.clone();
    }

    public double re(int i) {
        return re[i];
    }

    public double im(int i) {
        return im[i];
    }

    /** Uniform in the unit square [−1, 1] + i[−1, 1] (test data, not key material). */
    public static ComplexVector random(SplittableRandom r, int n) {
        checkLength(n);
        double[] a = new double[n], b = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = 2 * r.nextDouble() - 1;
            b[i] = 2 * r.nextDouble() - 1;
        }
        return wrap(a, b);
    }

    public int length() {
        return re.length;
    }

    public ComplexVector copy() {
        return this;
    }

    public ComplexVector add(ComplexVector o) {
        checkSameLength(o);
        double[] a = new double[length()], b = new double[length()];
        for (int i = 0; i < a.length; i++) {
            a[i] = re[i] + o.re[i];
            b[i] = im[i] + o.im[i];
        }
        return wrap(a, b);
    }

    public ComplexVector sub(ComplexVector o) {
        checkSameLength(o);
        double[] a = new double[length()], b = new double[length()];
        for (int i = 0; i < a.length; i++) {
            a[i] = re[i] - o.re[i];
            b[i] = im[i] - o.im[i];
        }
        return wrap(a, b);
    }

    /** Slot-wise product. */
    public ComplexVector mul(ComplexVector o) {
        checkSameLength(o);
        double[] a = new double[length()], b = new double[length()];
        for (int i = 0; i < a.length; i++) {
            a[i] = re[i] * o.re[i] - im[i] * o.im[i];
            b[i] = re[i] * o.im[i] + im[i] * o.re[i];
        }
        return wrap(a, b);
    }

    public ComplexVector scale(double c) {
        double[] a = new double[length()], b = new double[length()];
        for (int i = 0; i < a.length; i++) {
            a[i] = re[i] * c;
            b[i] = im[i] * c;
        }
        return wrap(a, b);
    }

    /** Left rotation: out[t] = this[(t + k) mod n]. */
    public ComplexVector rotate(int k) {
        int n = length();
        double[] a = new double[n], b = new double[n];
        for (int t = 0; t < n; t++) {
            int s = Math.floorMod(t + k, n);
            a[t] = re[s];
            b[t] = im[s];
        }
        return wrap(a, b);
    }

    public ComplexVector conjugate() {
        double[] b = new double[length()];
        for (int i = 0; i < b.length; i++) b[i] = -im[i];
        return wrap(re.clone(), b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ComplexVector c && Arrays.equals(c.re, re) && Arrays.equals(c.im, im);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(re) * 31 + Arrays.hashCode(im);
    }

    @Override
    public String toString() {
        return "ComplexVector[n=" + length() + "]";
    }

    private void checkSameLength(ComplexVector o) {
        if (o.length() != length())
            throw new WrongOperandException("vectors of " + length() + " and " + o.length() + " slots");
    }

    private static void checkLength(int n) {
        if (n < 0) throw new IllegalArgumentException("slot count must be >= 0: " + n);
    }
}
