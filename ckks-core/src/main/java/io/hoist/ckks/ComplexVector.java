package io.hoist.ckks;

import java.util.Arrays;
import java.util.SplittableRandom;

/** A vector of complex numbers as two double arrays (real and imaginary parts of equal length). */
public record ComplexVector(double[] re, double[] im) {
    public ComplexVector {
        if (re.length != im.length) throw new IllegalArgumentException("real and imaginary parts differ in length: " + re.length + " vs " + im.length);
    }

    public static ComplexVector zeros(int n) {
        return new ComplexVector(new double[n], new double[n]);
    }

    public static ComplexVector ofReal(double... re) {
        return new ComplexVector(re.clone(), new double[re.length]);
    }

    /** Uniform in the unit square [−1, 1] + i[−1, 1] (test data, not key material). */
    public static ComplexVector random(SplittableRandom r, int n) {
        double[] a = new double[n], b = new double[n];
        for (int i = 0; i < n; i++) { a[i] = 2 * r.nextDouble() - 1; b[i] = 2 * r.nextDouble() - 1; }
        return new ComplexVector(a, b);
    }

    public int length() {
        return re.length;
    }

    public ComplexVector copy() {
        return new ComplexVector(re.clone(), im.clone());
    }

    public ComplexVector add(ComplexVector o) {
        double[] a = new double[length()], b = new double[length()];
        for (int i = 0; i < a.length; i++) { a[i] = re[i] + o.re[i]; b[i] = im[i] + o.im[i]; }
        return new ComplexVector(a, b);
    }

    public ComplexVector sub(ComplexVector o) {
        double[] a = new double[length()], b = new double[length()];
        for (int i = 0; i < a.length; i++) { a[i] = re[i] - o.re[i]; b[i] = im[i] - o.im[i]; }
        return new ComplexVector(a, b);
    }

    /** Slot-wise product. */
    public ComplexVector mul(ComplexVector o) {
        double[] a = new double[length()], b = new double[length()];
        for (int i = 0; i < a.length; i++) {
            a[i] = re[i] * o.re[i] - im[i] * o.im[i];
            b[i] = re[i] * o.im[i] + im[i] * o.re[i];
        }
        return new ComplexVector(a, b);
    }

    public ComplexVector scale(double c) {
        double[] a = new double[length()], b = new double[length()];
        for (int i = 0; i < a.length; i++) { a[i] = re[i] * c; b[i] = im[i] * c; }
        return new ComplexVector(a, b);
    }

    /** Left rotation: out[t] = this[(t + k) mod n]. */
    public ComplexVector rotate(int k) {
        int n = length();
        double[] a = new double[n], b = new double[n];
        for (int t = 0; t < n; t++) { int s = Math.floorMod(t + k, n); a[t] = re[s]; b[t] = im[s]; }
        return new ComplexVector(a, b);
    }

    public ComplexVector conjugate() {
        double[] b = new double[length()];
        for (int i = 0; i < b.length; i++) b[i] = -im[i];
        return new ComplexVector(re.clone(), b);
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
}
