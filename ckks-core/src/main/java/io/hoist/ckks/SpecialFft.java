package io.hoist.ckks;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The special FFT of the canonical embedding (HEAAN/Lattigo layout), stage by stage, so that the
 * encoder and the homomorphic DFT of bootstrapping (CoeffsToSlots/SlotsToCoeffs) share one
 * definition of every butterfly and twiddle.
 *
 * <p>Decode direction ({@link #forward}, Lattigo's {@code fftPlainVec}): bit reversal, then
 * Cooley–Tukey stages of block size m = 2, 4, …, n with y_a = x_a + ω·x_b, y_b = x_a − ω·x_b.
 * Encode direction ({@link #inverse}, {@code ifftPlainVec}): Gentleman–Sande stages m = n, …, 2 with
 * y_a = x_a + x_b, y_b = ω̄·(x_a − x_b), then bit reversal and 1/n. Here ω = ζ^{(5^j mod 4m)·2N/(4m)},
 * ζ = e^{iπ/N}, for the butterfly j &lt; m/2 of a block (docs/coeffs-to-slots.md). Thread-safe.
 */
public final class SpecialFft {
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    /** Stages whose half-block holds at least this many butterflies run on lanes. */
    private static final int LANES = D.length();

    private final int ringDegree;
    private final int m; // 2N, the order of ζ
    private final double[] ksiRe, ksiIm; // ζ^k, k = 0 … 2N
    private final int[] rotGroup; // 5^j mod 2N, j < N/2
    /** Per stage (index log2 of the block size): ω and ω̄ of its butterflies, read from ksi once so the loops do no division. */
    private final double[][] fwdRe, fwdIm, invRe, invIm;

    public SpecialFft(int logN) {
        if (logN < 1 || logN > 20) throw new InvalidParametersException("logN must be in [1, 20], got " + logN);
        ringDegree = 1 << logN;
        m = 2 * ringDegree;
        ksiRe = new double[m + 1];
        ksiIm = new double[m + 1];
        for (int k = 0; k <= m; k++) {
            double ang = 2 * Math.PI * k / m;
            ksiRe[k] = Math.cos(ang);
            ksiIm[k] = Math.sin(ang);
        }
        rotGroup = new int[Math.max(1, ringDegree / 2)];
        long g = 1;
        for (int j = 0; j < rotGroup.length; j++) {
            rotGroup[j] = (int) g;
            g = g * 5 % m;
        }
        int stages = Integer.numberOfTrailingZeros(Math.max(2, ringDegree / 2)) + 1;
        fwdRe = new double[stages][];
        fwdIm = new double[stages][];
        invRe = new double[stages][];
        invIm = new double[stages][];
        for (int s = 1, len = 2; s < stages; s++, len <<= 1) {
            int h = len >> 1;
            fwdRe[s] = new double[h];
            fwdIm[s] = new double[h];
            invRe[s] = new double[h];
            invIm[s] = new double[h];
            for (int j = 0; j < h; j++) {
                fwdRe[s][j] = ksiRe[twiddleIndex(len, j)];
                fwdIm[s][j] = ksiIm[twiddleIndex(len, j)];
                invRe[s][j] = ksiRe[inverseTwiddleIndex(len, j)];
                invIm[s][j] = ksiIm[inverseTwiddleIndex(len, j)];
            }
        }
    }

    public int ringDegree() {
        return ringDegree;
    }

    /** Re ω for butterfly j of a block of size {@code blockSize} (decode direction). */
    public double twiddleRe(int blockSize, int j) {
        checkButterfly(blockSize, j);
        return ksiRe[twiddleIndex(blockSize, j)];
    }

    public double twiddleIm(int blockSize, int j) {
        checkButterfly(blockSize, j);
        return ksiIm[twiddleIndex(blockSize, j)];
    }
    /** Re ω̄ for butterfly j of a block of size {@code blockSize} (encode direction), read from the table as ζ^{2N−k}. */
    public double inverseTwiddleRe(int blockSize, int j) {
        checkButterfly(blockSize, j);
        return ksiRe[inverseTwiddleIndex(blockSize, j)];
    }

    public double inverseTwiddleIm(int blockSize, int j) {
        checkButterfly(blockSize, j);
        return ksiIm[inverseTwiddleIndex(blockSize, j)];
    }

    private int twiddleIndex(int blockSize, int j) { // unchecked: the stage loops stay within their blocks
        int lenq = blockSize << 2;
        return (int) ((long) (rotGroup[j] % lenq) * m / lenq);
    }

    private int inverseTwiddleIndex(int blockSize, int j) {
        int lenq = blockSize << 2;
        return (int) ((long) (lenq - rotGroup[j] % lenq) * m / lenq);
    }

    /** Decode direction: coefficient-side values → slot values, in place ({@code size} a power of two ≤ N/2). */
    public void forward(double[] re, double[] im, int size) {
        checkArrays(re, im, size);
        bitReverse(re, im, size);
        int len = 2;
        if (size >= 8) {
            smallStagesInOnePass(re, im, size, true);
            len = 16;
        }
        for (; len <= size; len <<= 1) forwardStage(re, im, size, len);
    }

    /** Encode direction: slot values → coefficient-side values, in place, including bit reversal and 1/size. */
    public void inverse(double[] re, double[] im, int size) {
        checkArrays(re, im, size);
        inverseStages(re, im, size);
        bitReverse(re, im, size);
        for (int i = 0; i < size; i++) {
            re[i] /= size;
            im[i] /= size;
        }
    }

    /**
     * The stages of {@link #inverse} without its bit reversal and 1/size: value i of the result is
     * at index {@code bitReverse(i, log2 size)}, for callers that read it out once in that order.
     */
    public void inverseStages(double[] re, double[] im, int size) {
        checkSize(size);
        int last = size >= 8 ? 16 : 2;
        for (int len = size; len >= last; len >>= 1) inverseStage(re, im, size, len);
        if (size >= 8) smallStagesInOnePass(re, im, size, false);
    }

    /**
     * One Cooley–Tukey stage of block size {@code len} (decode direction). Half-blocks of at least
     * one vector run on lanes with the same multiplications and additions in the same order (no
     * fused multiply-add), so both forms give the same bits.
     */
    public void forwardStage(double[] re, double[] im, int size, int len) {
        checkStage(re, im, size, len);
        if ((len >> 1) >= LANES && LANES > 1) forwardStageLanes(re, im, size, len);
        else forwardStageScalar(re, im, size, len);
    }

    void forwardStageScalar(double[] re, double[] im, int size, int len) {
        int lenh = len >> 1;
        final double[] wr = fwdRe[Integer.numberOfTrailingZeros(len)], wi = fwdIm[Integer.numberOfTrailingZeros(len)];
        for (int i = 0; i < size; i += len) {
            for (int j = 0; j < lenh; j++) {
                int a = i + j, b = i + j + lenh;
                double vr = re[b] * wr[j] - im[b] * wi[j];
                double vi = re[b] * wi[j] + im[b] * wr[j];
                double ur = re[a], ui = im[a];
                re[a] = ur + vr;
                im[a] = ui + vi;
                re[b] = ur - vr;
                im[b] = ui - vi;
            }
        }
    }

    private void forwardStageLanes(double[] re, double[] im, int size, int len) {
        int lenh = len >> 1;
        final double[] wr = fwdRe[Integer.numberOfTrailingZeros(len)], wi = fwdIm[Integer.numberOfTrailingZeros(len)];
        for (int i = 0; i < size; i += len) {
            for (int j = 0; j < lenh; j += LANES) {
                int a = i + j, b = a + lenh;
                DoubleVector xr = DoubleVector.fromArray(D, re, b), xi = DoubleVector.fromArray(D, im, b);
                DoubleVector cr = DoubleVector.fromArray(D, wr, j), ci = DoubleVector.fromArray(D, wi, j);
                DoubleVector vr = xr.mul(cr).sub(xi.mul(ci)), vi = xr.mul(ci).add(xi.mul(cr));
                DoubleVector ur = DoubleVector.fromArray(D, re, a), ui = DoubleVector.fromArray(D, im, a);
                ur.add(vr).intoArray(re, a);
                ui.add(vi).intoArray(im, a);
                ur.sub(vr).intoArray(re, b);
                ui.sub(vi).intoArray(im, b);
            }
        }
    }

    /** One Gentleman–Sande stage of block size {@code len} (encode direction); lanes as in {@link #forwardStage}. */
    public void inverseStage(double[] re, double[] im, int size, int len) {
        checkStage(re, im, size, len);
        if ((len >> 1) >= LANES && LANES > 1) inverseStageLanes(re, im, size, len);
        else inverseStageScalar(re, im, size, len);
    }

    void inverseStageScalar(double[] re, double[] im, int size, int len) {
        int lenh = len >> 1;
        final double[] wr = invRe[Integer.numberOfTrailingZeros(len)], wi = invIm[Integer.numberOfTrailingZeros(len)];
        for (int i = 0; i < size; i += len) {
            for (int j = 0; j < lenh; j++) {
                int a = i + j, b = i + j + lenh;
                double ur = re[a] + re[b], ui = im[a] + im[b];
                double dr = re[a] - re[b], di = im[a] - im[b];
                re[a] = ur;
                im[a] = ui;
                re[b] = dr * wr[j] - di * wi[j];
                im[b] = dr * wi[j] + di * wr[j];
            }
        }
    }

    private void inverseStageLanes(double[] re, double[] im, int size, int len) {
        int lenh = len >> 1;
        final double[] wr = invRe[Integer.numberOfTrailingZeros(len)], wi = invIm[Integer.numberOfTrailingZeros(len)];
        for (int i = 0; i < size; i += len) {
            for (int j = 0; j < lenh; j += LANES) {
                int a = i + j, b = a + lenh;
                DoubleVector ar = DoubleVector.fromArray(D, re, a), ai = DoubleVector.fromArray(D, im, a);
                DoubleVector br = DoubleVector.fromArray(D, re, b), bi = DoubleVector.fromArray(D, im, b);
                DoubleVector dr = ar.sub(br), di = ai.sub(bi);
                DoubleVector cr = DoubleVector.fromArray(D, wr, j), ci = DoubleVector.fromArray(D, wi, j);
                ar.add(br).intoArray(re, a);
                ai.add(bi).intoArray(im, a);
                dr.mul(cr).sub(di.mul(ci)).intoArray(re, b);
                dr.mul(ci).add(di.mul(cr)).intoArray(im, b);
            }
        }
    }

    /**
     * The stages of block 2, 4 and 8 in one pass, each block of eight values in registers: decode
     * direction ({@code forward}, blocks 2, 4, 8) or encode direction (blocks 8, 4, 2), with the
     * same products and sums per value as {@link #forwardStageScalar} and {@link #inverseStageScalar},
     * so the same bits, without three passes of one- to four-butterfly inner loops (they took two
     * thirds of an FFT of 4096 values). Scalar code: it needs no Vector API compilation before it runs
     * at speed.
     */
    void smallStagesInOnePass(double[] re, double[] im, int size, boolean forward) {
        final double[][] tr = forward ? fwdRe : invRe, ti = forward ? fwdIm : invIm;
        final double[] w2r = tr[1], w2i = ti[1], w4r = tr[2], w4i = ti[2], w8r = tr[3], w8i = ti[3];
        for (int i = 0; i < size; i += 8) {
            double r0 = re[i],
                    r1 = re[i + 1],
                    r2 = re[i + 2],
                    r3 = re[i + 3],
                    r4 = re[i + 4],
                    r5 = re[i + 5],
                    r6 = re[i + 6],
                    r7 = re[i + 7];
            double i0 = im[i],
                    i1 = im[i + 1],
                    i2 = im[i + 2],
                    i3 = im[i + 3],
                    i4 = im[i + 4],
                    i5 = im[i + 5],
                    i6 = im[i + 6],
                    i7 = im[i + 7];
            if (forward) {
                double vr, vi;
                // blocks of 2
                vr = r1 * w2r[0] - i1 * w2i[0];
                vi = r1 * w2i[0] + i1 * w2r[0];
                r1 = r0 - vr;
                i1 = i0 - vi;
                r0 += vr;
                i0 += vi;
                vr = r3 * w2r[0] - i3 * w2i[0];
                vi = r3 * w2i[0] + i3 * w2r[0];
                r3 = r2 - vr;
                i3 = i2 - vi;
                r2 += vr;
                i2 += vi;
                vr = r5 * w2r[0] - i5 * w2i[0];
                vi = r5 * w2i[0] + i5 * w2r[0];
                r5 = r4 - vr;
                i5 = i4 - vi;
                r4 += vr;
                i4 += vi;
                vr = r7 * w2r[0] - i7 * w2i[0];
                vi = r7 * w2i[0] + i7 * w2r[0];
                r7 = r6 - vr;
                i7 = i6 - vi;
                r6 += vr;
                i6 += vi;
                // blocks of 4 at 0 and 4: x_j and x_{j+2}
                vr = r2 * w4r[0] - i2 * w4i[0];
                vi = r2 * w4i[0] + i2 * w4r[0];
                r2 = r0 - vr;
                i2 = i0 - vi;
                r0 += vr;
                i0 += vi;
                vr = r3 * w4r[1] - i3 * w4i[1];
                vi = r3 * w4i[1] + i3 * w4r[1];
                r3 = r1 - vr;
                i3 = i1 - vi;
                r1 += vr;
                i1 += vi;
                vr = r6 * w4r[0] - i6 * w4i[0];
                vi = r6 * w4i[0] + i6 * w4r[0];
                r6 = r4 - vr;
                i6 = i4 - vi;
                r4 += vr;
                i4 += vi;
                vr = r7 * w4r[1] - i7 * w4i[1];
                vi = r7 * w4i[1] + i7 * w4r[1];
                r7 = r5 - vr;
                i7 = i5 - vi;
                r5 += vr;
                i5 += vi;
                // block of 8: x_j and x_{j+4} with ω_j
                vr = r4 * w8r[0] - i4 * w8i[0];
                vi = r4 * w8i[0] + i4 * w8r[0];
                r4 = r0 - vr;
                i4 = i0 - vi;
                r0 += vr;
                i0 += vi;
                vr = r5 * w8r[1] - i5 * w8i[1];
                vi = r5 * w8i[1] + i5 * w8r[1];
                r5 = r1 - vr;
                i5 = i1 - vi;
                r1 += vr;
                i1 += vi;
                vr = r6 * w8r[2] - i6 * w8i[2];
                vi = r6 * w8i[2] + i6 * w8r[2];
                r6 = r2 - vr;
                i6 = i2 - vi;
                r2 += vr;
                i2 += vi;
                vr = r7 * w8r[3] - i7 * w8i[3];
                vi = r7 * w8i[3] + i7 * w8r[3];
                r7 = r3 - vr;
                i7 = i3 - vi;
                r3 += vr;
                i3 += vi;
            } else {
                double dr, di;
                // block of 8: x_j and x_{j+4} with ω̄_j
                dr = r0 - r4;
                di = i0 - i4;
                r0 += r4;
                i0 += i4;
                r4 = dr * w8r[0] - di * w8i[0];
                i4 = dr * w8i[0] + di * w8r[0];
                dr = r1 - r5;
                di = i1 - i5;
                r1 += r5;
                i1 += i5;
                r5 = dr * w8r[1] - di * w8i[1];
                i5 = dr * w8i[1] + di * w8r[1];
                dr = r2 - r6;
                di = i2 - i6;
                r2 += r6;
                i2 += i6;
                r6 = dr * w8r[2] - di * w8i[2];
                i6 = dr * w8i[2] + di * w8r[2];
                dr = r3 - r7;
                di = i3 - i7;
                r3 += r7;
                i3 += i7;
                r7 = dr * w8r[3] - di * w8i[3];
                i7 = dr * w8i[3] + di * w8r[3];
                // blocks of 4 at 0 and 4: x_j and x_{j+2}
                dr = r0 - r2;
                di = i0 - i2;
                r0 += r2;
                i0 += i2;
                r2 = dr * w4r[0] - di * w4i[0];
                i2 = dr * w4i[0] + di * w4r[0];
                dr = r1 - r3;
                di = i1 - i3;
                r1 += r3;
                i1 += i3;
                r3 = dr * w4r[1] - di * w4i[1];
                i3 = dr * w4i[1] + di * w4r[1];
                dr = r4 - r6;
                di = i4 - i6;
                r4 += r6;
                i4 += i6;
                r6 = dr * w4r[0] - di * w4i[0];
                i6 = dr * w4i[0] + di * w4r[0];
                dr = r5 - r7;
                di = i5 - i7;
                r5 += r7;
                i5 += i7;
                r7 = dr * w4r[1] - di * w4i[1];
                i7 = dr * w4i[1] + di * w4r[1];
                // blocks of 2
                dr = r0 - r1;
                di = i0 - i1;
                r0 += r1;
                i0 += i1;
                r1 = dr * w2r[0] - di * w2i[0];
                i1 = dr * w2i[0] + di * w2r[0];
                dr = r2 - r3;
                di = i2 - i3;
                r2 += r3;
                i2 += i3;
                r3 = dr * w2r[0] - di * w2i[0];
                i3 = dr * w2i[0] + di * w2r[0];
                dr = r4 - r5;
                di = i4 - i5;
                r4 += r5;
                i4 += i5;
                r5 = dr * w2r[0] - di * w2i[0];
                i5 = dr * w2i[0] + di * w2r[0];
                dr = r6 - r7;
                di = i6 - i7;
                r6 += r7;
                i6 += i7;
                r7 = dr * w2r[0] - di * w2i[0];
                i7 = dr * w2i[0] + di * w2r[0];
            }
            re[i] = r0;
            re[i + 1] = r1;
            re[i + 2] = r2;
            re[i + 3] = r3;
            re[i + 4] = r4;
            re[i + 5] = r5;
            re[i + 6] = r6;
            re[i + 7] = r7;
            im[i] = i0;
            im[i + 1] = i1;
            im[i + 2] = i2;
            im[i + 3] = i3;
            im[i + 4] = i4;
            im[i + 5] = i5;
            im[i + 6] = i6;
            im[i + 7] = i7;
        }
    }

    /** The bit-reversal permutation of the first {@code size} entries. */
    public static void bitReverse(double[] re, double[] im, int size) {
        if (size < 2) return;
        int shift = 32 - Integer.numberOfTrailingZeros(size);
        for (int i = 1; i < size; i++) {
            int j = Integer.reverse(i) >>> shift; // one intrinsic instead of a carry loop per index
            if (i < j) {
                double t = re[i];
                re[i] = re[j];
                re[j] = t;
                t = im[i];
                im[i] = im[j];
                im[j] = t;
            }
        }
    }

    /** The bit reversal of {@code i} in {@code bits} bits. */
    public static int bitReverse(int i, int bits) {
        return bits == 0 ? 0 : Integer.reverse(i) >>> (32 - bits);
    }

    private void checkButterfly(int blockSize, int j) {
        if (blockSize < 2
                || Integer.bitCount(blockSize) != 1
                || blockSize > Math.max(2, ringDegree / 2)
                || j < 0
                || j >= blockSize / 2) {
            throw new IllegalArgumentException("no butterfly " + j + " in a block of size " + blockSize
                    + " (blocks are powers of two in [2, N/2])");
        }
    }

    private void checkStage(double[] re, double[] im, int size, int len) {
        checkSize(size);
        if (len < 2 || Integer.bitCount(len) != 1 || len > size)
            throw new IllegalArgumentException(
                    "stage block size must be a power of two in [2, " + size + "], got " + len);
        if (re.length < size || im.length < size)
            throw new IllegalArgumentException(
                    "vectors of " + re.length + " and " + im.length + " values for an FFT of size " + size);
    }

    private void checkSize(int size) {
        if (Integer.bitCount(size) != 1 || size > Math.max(1, ringDegree / 2)) {
            throw new IllegalArgumentException(
                    "FFT size must be a power of two ≤ N/2 = " + ringDegree / 2 + ", got " + size);
        }
    }

    private void checkArrays(double[] re, double[] im, int size) {
        checkSize(size);
        if (re.length < size || im.length < size)
            throw new IllegalArgumentException(
                    "an FFT of size " + size + " on arrays of " + re.length + " and " + im.length + " values");
    }
}
