package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ring.SubringPoly;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A slot vector of period p encoded from one period: the integers of encoding the repeated vector, at
 * a small and a large scale; zeros off the subring Z[X^{N/(2p)}]; a plaintext that decodes to the
 * repeated values.
 */
class PeriodicEncodingTest {

    @ParameterizedTest
    @CsvSource({"10, 1", "10, 2", "10, 16", "10, 256", "11, 8", "11, 128", "12, 1024", "12, 2048"})
    void onePeriodEncodesTheRepeatedVector(int logN, int period) {
        CkksParameters params = CkksParameters.builder()
                .logN(logN)
                .logQ(new int[] {60, 50})
                .logP(new int[] {61})
                .scale(0x1p30)
                .allowInsecure() // the encoder only: no key is made
                .build();
        Encoder encoder = new Encoder(CkksContext.create(params));
        int slots = params.slots(), n = params.n();
        SplittableRandom r = new SplittableRandom(logN * 1000L + period);
        double[] re = new double[period], im = new double[period];
        for (int i = 0; i < period; i++) {
            re[i] = r.nextDouble(-1, 1);
            im[i] = r.nextDouble(-1, 1);
        }
        double[] fullRe = new double[slots], fullIm = new double[slots];
        for (int s = 0; s < slots; s++) {
            fullRe[s] = re[s % period];
            fullIm[s] = im[s % period];
        }
        long[] got = new long[n], want = new long[n];
        for (double scale : new double[] {0x1p20, 0x1p55}) {
            encoder.encodeToIntegersPeriodic(re.clone(), im.clone(), scale, got);
            encoder.encodeToIntegers(fullRe.clone(), fullIm.clone(), scale, want);
            assertArrayEquals(want, got, "the repeated vector's integers at scale " + scale);
        }
        int g = n / (2 * period);
        for (int i = 0; i < n; i++) if (i % g != 0) assertEquals(0, got[i], "coefficient " + i);
        assertTrue(SubringPoly.stride(got) >= Math.min(g, n / 2), "a polynomial in X^" + g);

        Plaintext pt = new Plaintext(params, encoder.liftQ(got, params.maxLevel()), 0x1p55);
        ComplexVector back = encoder.decode(pt);
        for (int s = 0; s < slots; s++) {
            assertTrue(Math.abs(back.re(s) - fullRe[s]) < 1e-9, "slot " + s);
            assertTrue(Math.abs(back.im(s) - fullIm[s]) < 1e-9, "slot " + s);
        }
    }

    @ParameterizedTest
    @CsvSource({"3", "0", "1024"})
    void refusesAPeriodThatIsNotAPowerOfTwoWithinTheSlots(int period) {
        CkksParameters params = CkksParameters.builder()
                .logN(10)
                .logQ(new int[] {50, 40})
                .logP(new int[] {60})
                .allowInsecure()
                .build();
        Encoder encoder = new Encoder(CkksContext.create(params));
        assertThrows(
                WrongOperandException.class,
                () -> encoder.encodeToIntegersPeriodic(
                        new double[period], new double[period], 0x1p30, new long[params.n()]));
    }
}
