package io.hoist.lt.dft;

import static org.junit.jupiter.api.Assertions.*;

import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.SpecialFft;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The factorisation against the plaintext special FFT, and the §9.3 counts from the plans alone. */
class HomomorphicDftTest {
    private static final HomomorphicDft.Kind CTS = HomomorphicDft.Kind.COEFFS_TO_SLOTS,
            STC = HomomorphicDft.Kind.SLOTS_TO_COEFFS;

    /** The matrices in turn; a matrix smaller than the vector acts on its period (the slots are replicated). */
    static ComplexVector apply(List<LinearTransform> ms, ComplexVector x) {
        for (LinearTransform m : ms) {
            int d = m.dimension();
            if (d == x.length()) {
                x = m.apply(x);
                continue;
            }
            double[] re = new double[d], im = new double[d];
            System.arraycopy(x.re(), 0, re, 0, d);
            System.arraycopy(x.im(), 0, im, 0, d);
            x = replicate(m.apply(new ComplexVector(re, im)), x.length() / d);
        }
        return x;
    }

    private static double maxDiff(ComplexVector a, ComplexVector b) {
        double d = 0;
        for (int i = 0; i < a.length(); i++) d = Math.max(d, Math.hypot(a.re(i) - b.re(i), a.im(i) - b.im(i)));
        return d;
    }

    private static ComplexVector bitReversed(ComplexVector x) {
        int n = x.length(), bits = Integer.numberOfTrailingZeros(n);
        double[] re = new double[n], im = new double[n];
        for (int t = 0; t < n; t++) {
            re[t] = x.re(SpecialFft.bitReverse(t, bits));
            im[t] = x.im(SpecialFft.bitReverse(t, bits));
        }
        return new ComplexVector(re, im);
    }

    @Test
    void eachStageIsOneButterflyLayerOfTheSpecialFft() {
        SplittableRandom rnd = new SplittableRandom(1);
        for (int logSlots = 1; logSlots <= 7; logSlots++) {
            int n = 1 << logSlots;
            SpecialFft fft = new SpecialFft(logSlots + 1);
            ComplexVector x = ComplexVector.random(rnd, n);
            var enc = DftFactorization.stages(fft, logSlots, CTS);
            var dec = DftFactorization.stages(fft, logSlots, STC);
            assertEquals(logSlots, enc.size());
            double[] re = x.re(), im = x.im();
            for (int e = 0; e < logSlots; e++) {
                ComplexVector want = enc.get(e).apply(new ComplexVector(re, im));
                fft.inverseStage(re, im, n, n >> e);
                assertTrue(maxDiff(want, new ComplexVector(re, im)) < 1e-12, "encode stage " + e + " at n=" + n);
                assertTrue(enc.get(e).diagonalCount() <= 3);
            }
            re = bitReversed(x).re();
            im = bitReversed(x).im();
            for (int e = 0; e < logSlots; e++) {
                ComplexVector want = dec.get(e).apply(new ComplexVector(re, im));
                fft.forwardStage(re, im, n, 2 << e);
                assertTrue(maxDiff(want, new ComplexVector(re, im)) < 1e-12, "decode stage " + e + " at n=" + n);
            }
        }
    }

    @Test
    void mergedMatricesGiveTheScaledBitReversedDftAtEveryDepth() {
        SplittableRandom rnd = new SplittableRandom(2);
        for (int logSlots = 1; logSlots <= 6; logSlots++) {
            int n = 1 << logSlots;
            SpecialFft fft = new SpecialFft(logSlots + 1);
            for (int depth = 1; depth <= logSlots; depth++) {
                ComplexVector z = ComplexVector.random(rnd, n);
                double[] re = z.re(), im = z.im();
                fft.inverse(re, im, n);
                ComplexVector want = bitReversed(new ComplexVector(re, im)).scale(0.5); // (1/2n)·n·BR(U0^{-1} z)
                HomomorphicDft cts = HomomorphicDft.coeffsToSlots(logSlots + 1, logSlots, depth, depth);
                assertTrue(maxDiff(want, apply(cts.matrices(), z)) < 1e-12, "CtS n=" + n + " depth " + depth);
                int total = cts.merge().stream().mapToInt(Integer::intValue).sum();
                assertEquals(logSlots, total);

                ComplexVector w = ComplexVector.random(rnd, n);
                double[] r2 = w.re(), i2 = w.im();
                fft.forward(r2, i2, n);
                HomomorphicDft stc = HomomorphicDft.slotsToCoeffs(logSlots + 1, logSlots, depth, depth);
                assertTrue(
                        maxDiff(new ComplexVector(r2, i2), apply(stc.matrices(), bitReversed(w))) < 1e-10,
                        "StC n=" + n + " depth " + depth);
                // the structural index sets are the value-based ones
                assertEquals(
                        DftFactorization.indexSets(logSlots, depth, CTS),
                        cts.matrices().stream()
                                .map(LinearTransform::diagonalIndices)
                                .toList());
                assertEquals(
                        DftFactorization.indexSets(logSlots, depth, STC),
                        stc.matrices().stream()
                                .map(LinearTransform::diagonalIndices)
                                .toList());
            }
        }
    }

    @Test
    void sparsePackingFoldsTheRepackIntoTheOuterMatrices() {
        SplittableRandom rnd = new SplittableRandom(3);
        int logN = 7, logSlots = 4, n = 1 << logSlots;
        SpecialFft fft = new SpecialFft(logN);
        HomomorphicDft cts = HomomorphicDft.coeffsToSlots(logN, logSlots, 2, 3);
        assertTrue(cts.sparse());
        assertEquals(2 * n, cts.ciphertextSlots());
        ComplexVector z = ComplexVector.random(rnd, n);
        ComplexVector zz = replicate(z, 2);
        ComplexVector v = apply(cts.matrices(), zz);
        ComplexVector packed = v.add(v.conjugate());
        double[] re = z.re(), im = z.im();
        fft.inverse(re, im, n);
        ComplexVector w = bitReversed(new ComplexVector(re, im));
        for (int t = 0; t < n; t++) {
            assertEquals(w.re(t), packed.re(t), 1e-12);
            assertEquals(w.im(t), packed.re(n + t), 1e-12);
            assertEquals(0, packed.im(t), 1e-12);
        }
        HomomorphicDft stc = HomomorphicDft.slotsToCoeffs(logN, logSlots, 3, 3);
        ComplexVector back = apply(stc.matrices(), packed);
        assertTrue(maxDiff(zz, back) < 1e-10);
    }

    static ComplexVector replicate(ComplexVector x, int times) {
        int n = x.length();
        double[] re = new double[n * times], im = new double[n * times];
        for (int t = 0; t < n * times; t++) {
            re[t] = x.re(t % n);
            im[t] = x.im(t % n);
        }
        return new ComplexVector(re, im);
    }

    @Test
    void mergeChainIsLattigos() {
        assertArrayEquals(new int[] {4, 4, 4, 3}, DftFactorization.mergeChain(15, 4, CTS));
        assertArrayEquals(new int[] {3, 4, 4, 4}, DftFactorization.mergeChain(15, 4, STC));
        assertArrayEquals(new int[] {5, 5, 5}, DftFactorization.mergeChain(15, 3, CTS));
        assertArrayEquals(new int[] {8, 7}, DftFactorization.mergeChain(15, 2, CTS));
        // spec §11 oracle 15
        assertEquals(
                List.of(ImmutableSortedSet.of(0, 4, 8, 12), ImmutableSortedSet.of(0, 1, 2, 3, 13, 14, 15)),
                DftFactorization.indexSets(4, 2, CTS));
        assertEquals(
                DftFactorization.indexSets(4, 2, CTS),
                HomomorphicDft.coeffsToSlots(5, 4, 2, 2).matrices().stream()
                        .map(LinearTransform::diagonalIndices)
                        .toList());
        // spec §11 oracle 13: Lattigo's nonzero (giant, baby) counts at depth 4
        int[][] gb = {{3, 3}, {7, 3}, {7, 3}, {3, 3}};
        var sets = DftFactorization.indexSets(15, 4, CTS);
        for (int i = 0; i < 4; i++) {
            int n1 = DftPlanner.lattigoN1(sets.get(i), 1 << 15, 1);
            Plan p = Plan.forIndices(1 << 15, sets.get(i), Algorithm.DH_BSGS, n1, (1 << 15) / n1);
            assertEquals(gb[i][0], p.outerRotations().size() - 1, "giant " + i);
            assertEquals(gb[i][1], p.innerRotations().size() - 1, "baby " + i);
        }
        assertThrows(IllegalArgumentException.class, () -> HomomorphicDft.coeffsToSlots(16, 15, 16, 24));
        assertThrows(IllegalArgumentException.class, () -> HomomorphicDft.coeffsToSlots(16, 15, 4, 3));
    }

    /**
     * Spec §9.3 at logSlots 15 from the plans alone: diagonal counts, Lattigo's DH-BSGS (N1, keys,
     * Decompose, ModDown, KS-IP) exactly; TH-BSGS fewest keys (5, 7, 7, 5 / 7, 9, 9 / 17, 17), and at the
     * spec's splits its KS-IPs. Our TH Decompose/ModDown counts are at most the spec's: a Decompose is
     * planned only for inner rotations a middle rotation uses (docs/coeffs-to-slots.md).
     */
    @Test
    void section93CountsAtLogSlots15() {
        CkksParameters params = CkksParameters.preset("boot16");
        int n = 1 << 15;
        int[][] diags = {{16, 31, 31, 15}, {32, 63, 63}, {256, 255}};
        int[][] dhN1 = {{8192, 512, 32, 4}, {4096, 256, 8}, {2048, 16}};
        int[][] dhKeys = {{6, 10, 10, 6}, {10, 14, 14}, {30, 30}};
        int[][] dhDec = {{4, 8, 8, 4}, {8, 8, 8}, {16, 16}};
        int[][] thKeys = {{5, 7, 7, 5}, {7, 9, 9}, {17, 17}};
        int[][] specSplit = {{4096, 8192}, {256, 1024}, {16, 64}, {2, 4}};
        int[] specKsIp = {6, 10, 10, 6};
        for (int c = 0; c < diags.length; c++) {
            int depth = diags[c].length;
            var sets = DftFactorization.indexSets(15, depth, CTS);
            for (int i = 0; i < depth; i++) {
                String at = "depth " + depth + " matrix " + i;
                assertEquals(diags[c][i], sets.get(i).size(), at);
                int level = 24 - i;
                int n1 = DftPlanner.lattigoN1(sets.get(i), n, 1);
                assertEquals(dhN1[c][i], n1, at);
                Cost cd = Plan.forIndices(n, sets.get(i), Algorithm.DH_BSGS, n1, n / n1)
                        .cost(params, level, Storage.PRECOMPUTED);
                assertEquals(dhKeys[c][i], cd.rotationKeys(), at);
                assertEquals(dhDec[c][i], cd.decompose(), at);
                assertEquals(dhDec[c][i] + 1, cd.modDown(), at);
                assertEquals(dhKeys[c][i], cd.keySwitchInnerProducts(), at);
                Plan th =
                        Plan.autoForIndices(n, sets.get(i), params, level, Algorithm.TH_BSGS, Objective.FEWEST_KEYS, 0);
                assertEquals(
                        thKeys[c][i],
                        th.cost(params, level, Storage.PRECOMPUTED).rotationKeys(),
                        at);
                if (depth == 4) {
                    int b1 = specSplit[i][0], b2 = specSplit[i][1];
                    Cost cs = Plan.forIndices(n, sets.get(i), Algorithm.TH_BSGS, b1, b2 / b1, n / b2)
                            .cost(params, level, Storage.PRECOMPUTED);
                    assertEquals(thKeys[c][i], cs.rotationKeys(), at);
                    assertEquals(specKsIp[i], cs.keySwitchInnerProducts(), at);
                    assertTrue(cs.decompose() <= 5 && cs.modDown() <= 6, at);
                }
            }
        }
    }
}
