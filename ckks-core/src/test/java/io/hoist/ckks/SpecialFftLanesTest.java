package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lane form of every FFT stage against its scalar twin, bit for bit, in both directions and at
 * every block size (the small ones stay scalar, the large ones take lanes); the whole transforms,
 * whose three smallest stages run fused, against the scalar stages one by one; and the encoder's
 * fused read-out (bit reversal, 1/slots, scale, rounding in one pass) against the plain sequence of
 * scalar stages, bit reversal, division and rounding.
 */
class SpecialFftLanesTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8, 12})
    void everyStageOnLanesGivesTheScalarBits(int logSize) {
        SpecialFft fft = new SpecialFft(logSize + 1);
        int size = 1 << logSize;
        SplittableRandom r = new SplittableRandom(9100 + logSize);
        for (int len = 2; len <= size; len <<= 1) {
            double[][] x = random(r, size);
            double[][] lanes = copy(x), scalar = copy(x);
            fft.forwardStage(lanes[0], lanes[1], size, len);
            fft.forwardStageScalar(scalar[0], scalar[1], size, len);
            assertBits(scalar, lanes, "forward stage " + len + " of " + size);
            lanes = copy(x);
            scalar = copy(x);
            fft.inverseStage(lanes[0], lanes[1], size, len);
            fft.inverseStageScalar(scalar[0], scalar[1], size, len);
            assertBits(scalar, lanes, "inverse stage " + len + " of " + size);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 8, 12})
    void transformsWithFusedSmallStagesGiveTheStageByStageBits(int logSize) {
        SpecialFft fft = new SpecialFft(logSize + 1);
        int size = 1 << logSize;
        SplittableRandom r = new SplittableRandom(9300 + logSize);
        double[][] x = random(r, size);
        double[][] got = copy(x), want = copy(x);
        fft.forward(got[0], got[1], size);
        SpecialFft.bitReverse(want[0], want[1], size);
        for (int len = 2; len <= size; len <<= 1) fft.forwardStageScalar(want[0], want[1], size, len);
        assertBits(want, got, "forward of " + size);
        got = copy(x);
        want = copy(x);
        fft.inverseStages(got[0], got[1], size);
        for (int len = size; len >= 2; len >>= 1) fft.inverseStageScalar(want[0], want[1], size, len);
        assertBits(want, got, "inverse stages of " + size);
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 11})
    void fusedEncodingIsTheStagesThenReversalDivisionAndRounding(int logN) {
        CkksParameters params = params(logN);
        Encoder encoder = new Encoder(CkksContext.create(params));
        SpecialFft fft = new SpecialFft(logN);
        int slots = params.slots(), n = params.n(), gap = n / (2 * slots);
        SplittableRandom r = new SplittableRandom(logN);
        double scale = 0x1p40;
        double[][] x = random(r, slots);
        long[] got = encoder.encodeToIntegers(copy(x)[0], copy(x)[1], scale);

        double[] re = x[0].clone(), im = x[1].clone();
        for (int len = slots; len >= 2; len >>= 1) fft.inverseStageScalar(re, im, slots, len);
        SpecialFft.bitReverse(re, im, slots);
        long[] want = new long[n];
        for (int i = 0; i < slots; i++) {
            want[i * gap] = Math.round(re[i] / slots * scale);
            want[n / 2 + i * gap] = Math.round(im[i] / slots * scale);
        }
        assertArrayEquals(want, got);
    }

    @Test
    void aValueTooLargeNamesItsCoefficient() {
        CkksParameters params = params(10);
        Encoder encoder = new Encoder(CkksContext.create(params));
        double[] re = new double[params.slots()], im = new double[params.slots()];
        Arrays.fill(re, 0x1p30); // the constant 2^30: coefficient 0 is 2^30 · 2^40
        var e = assertThrows(EncodingOverflowException.class, () -> encoder.encodeToIntegers(re, im, 0x1p40));
        assertEquals(true, e.getMessage().startsWith("coefficient 0 reaches 2^70.0"), e.getMessage());
    }

    @Test
    void roundingIsMathRoundBelowTwoToThe62() {
        double[] edges = {
            0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            -0.49999999999999994,
            0.5000000000000001,
            -0.5000000000000001,
            0x1p-1074,
            -0x1p-1074,
            0x1p52 - 0.5,
            -0x1p52 + 0.5,
            0x1p52 + 1,
            0x1p53 + 2,
            -0x1p53 - 2,
            Math.nextDown(0x1p62),
            -Math.nextDown(0x1p62),
            4503599627370495.5,
            -4503599627370495.5
        };
        for (double c : edges) assertEquals(Math.round(c), Encoder.round(c), "round(" + c + ")");
        SplittableRandom r = new SplittableRandom(62);
        for (int i = 0; i < 200_000; i++) {
            double c = Math.scalb(r.nextDouble(-1, 1), r.nextInt(0, 62));
            double t = (r.nextBoolean() ? Math.floor(c) : c) + (r.nextInt(4) == 0 ? 0.5 : 0); // many exact ties
            assertEquals(Math.round(t), Encoder.round(t), "round(" + t + ")");
        }
    }

    private static CkksParameters params(int logN) {
        return CkksParameters.builder()
                .logN(logN)
                .logQ(new int[] {50, 40})
                .logP(new int[] {60})
                .scale(0x1p40)
                .allowInsecure() // the encoder only: no key is made
                .build();
    }

    private static double[][] random(SplittableRandom r, int size) {
        double[][] x = new double[2][size];
        for (int i = 0; i < size; i++) {
            x[0][i] = r.nextDouble(-1, 1);
            x[1][i] = r.nextDouble(-1, 1);
        }
        return x;
    }

    private static double[][] copy(double[][] x) {
        return new double[][] {x[0].clone(), x[1].clone()};
    }

    private static void assertBits(double[][] want, double[][] got, String what) {
        for (int p = 0; p < 2; p++)
            for (int i = 0; i < want[p].length; i++)
                assertEquals(
                        Double.doubleToRawLongBits(want[p][i]),
                        Double.doubleToRawLongBits(got[p][i]),
                        what + (p == 0 ? ", re[" : ", im[") + i + "]");
    }
}
