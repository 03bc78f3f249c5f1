package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import io.hoist.ring.Kernel.Form;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * While the kernel warm-up runs, other threads run the scalar twins of the tuned kernels and
 * transforms (bit-identical), the warm-up's own threads the vector forms; both gates open when it
 * ends, however it ends.
 */
class KernelGateTest {
    @AfterEach
    void openGates() {
        KernelWarmup.runThenOpen(new ScalarLimbKernels(), new ScalarNttBackend(), 0, new long[0], new long[0]);
    }

    @Test
    void withoutAWarmupBothGatesAreOpen() {
        assertTrue(KernelWarmup.vectorsWarm());
        assertTrue(KernelWarmup.nttWarm());
    }

    /** Shut, the tuned transforms make no FMA transform (they run the scalar twin) and agree with it word for word; open, they do. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void shutGatesRunTheScalarTwinsBitIdentically(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        EnumMap<Kernel, Form> forms = new EnumMap<>(Kernel.class);
        for (Kernel k : Kernel.values()) forms.put(k, k.has(Form.FMA) ? Form.FMA : Form.VECTOR);
        KernelChoice choice = new KernelChoice(forms, Map.of(), KernelChoice.Source.OVERRIDE);
        TunedNttBackend ntt = new TunedNttBackend(choice);
        TunedLimbKernels tuned = new TunedLimbKernels(choice);
        LimbKernels scalar = new ScalarLimbKernels();
        int logN = 10 + r.nextInt(3), n = 1 << logN;
        long q = Primes.nttPrimes(logN, 31 + r.nextInt(19), 1).get(0); // the FMA transform's range
        NttTables t = NttTables.of(logN, q);
        long[] x = r.longs(n, 0, q).toArray(), y = r.longs(n, 0, q).toArray();
        long w = r.nextLong(q), ws = ModArith.shoupQuotient(w, q);

        KernelWarmup.shutGates();
        assertFalse(KernelWarmup.vectorsWarm());
        assertFalse(KernelWarmup.nttWarm());
        assertEveryKernelRuns(tuned, ScalarLimbKernels.class);
        List<long[]> shut = results(tuned, ntt, t, x, y, w, ws);
        assertEquals(0, ntt.fmaPrimes(), "no FMA transform while the gate is shut");
        List<long[]> twin = results(scalar, NttBackends.scalar(), t, x, y, w, ws);
        openGates();
        assertEveryKernelRuns(tuned, VectorLimbKernels.class);
        List<long[]> open = results(tuned, ntt, t, x, y, w, ws);
        assertEquals(1, ntt.fmaPrimes(), "the FMA transform once the gate is open");
        for (int i = 0; i < twin.size(); i++) {
            assertArrayEquals(twin.get(i), shut.get(i), "result " + i + " with the gates shut");
            assertArrayEquals(twin.get(i), open.get(i), "result " + i + " with the gates open");
        }
    }

    /** Every kernel but the transforms runs on {@code form} now. */
    private static void assertEveryKernelRuns(TunedLimbKernels tuned, Class<? extends LimbKernels> form) {
        for (Kernel k : Kernel.values())
            if (!k.id().startsWith("ntt"))
                assertTrue(form.isInstance(tuned.running(k)), k + " runs on " + form.getSimpleName());
    }

    /** The dot product, sumShoup, mulShoup, liftSigned, mulMod, the automorphism and both transforms of x and y. */
    private static List<long[]> results(
            LimbKernels k, NttBackend ntt, NttTables t, long[] x, long[] y, long w, long ws) {
        int n = x.length;
        long q = t.q();
        List<long[]> out = new ArrayList<>();
        long[] a = new long[n], b = new long[n];
        k.dot2Montgomery(new long[][] {x, y}, new long[][] {y, x}, new long[][] {x, x}, 2, a, b, q, false);
        out.add(a.clone());
        out.add(b.clone());
        k.sumShoup(new long[][] {x, y}, 2, new long[] {w, w}, new long[] {ws, ws}, q, a, 0, n);
        out.add(a.clone());
        k.mulShoup(x, w, ws, q, a, 0, n);
        out.add(a.clone());
        long[] signed = new long[n];
        for (int c = 0; c < n; c++) signed[c] = x[c] - q / 2;
        k.liftSigned(signed, w, ws, q, a);
        out.add(a.clone());
        k.mulMod(x, y, a, q, false);
        out.add(a.clone());
        k.automorphismNtt(x, y, a, Automorphism.nttPermutation(t.logN(), 5), q, false);
        out.add(a.clone());
        long[] f = x.clone();
        ntt.forward(new long[][] {f}, new NttTables[] {t}, 1);
        out.add(f.clone());
        ntt.inverse(new long[][] {f}, new NttTables[] {t}, 1);
        out.add(f);
        return out;
    }

    /** The warm-up's thread sees open gates while every other thread sees them shut, until the warm-up ends. */
    @Test
    void theWarmupItselfRunsTheVectorForms() throws InterruptedException {
        List<Boolean> seen = new ArrayList<>();
        LimbKernels watching = new KernelWarmupTest.Recording() {
            @Override
            public void mulShoup(long[] x, long w, long ws, long q, long[] out, int from, int len) {
                if (!Thread.currentThread().getName().equals("hoist-warmup-fresh"))
                    seen.add(KernelWarmup.vectorsWarm());
                super.mulShoup(x, w, ws, q, out, from, len);
            }
        };
        KernelWarmup.shutGates();
        Thread t = new Thread(() -> KernelWarmup.runThenOpen(
                watching, new ScalarNttBackend(), 4, KernelWarmup.representatives(), new long[0]));
        t.start();
        t.join();
        assertFalse(seen.isEmpty());
        assertTrue(seen.stream().allMatch(b -> b), "the warm-up ran with its gates open to itself");
        assertTrue(KernelWarmup.vectorsWarm(), "open for everyone once the warm-up ended");
        assertTrue(KernelWarmup.nttWarm());
    }

    /**
     * A transform that never beats its scalar twin on the warm-up's limbs (here, the twin itself
     * slowed down) still opens the transforms' gate after the transforms-only rounds; the other
     * kernels' gate waits for the end of the warm-up.
     */
    @Test
    void theTransformsGateOpensAfterItsRoundsEvenWhenTheScalarTwinWins() {
        NttBackend slower = new LimbNttBackend() {
            private final ScalarNttBackend scalar = new ScalarNttBackend();

            @Override
            void forwardLimb(long[] a, NttTables t) {
                for (int i = 0; i < 3; i++) scalar.forwardLimb(a.clone(), t); // three times the twin's work
                scalar.forwardLimb(a, t);
            }

            @Override
            void inverseLimb(long[] a, NttTables t) {
                scalar.inverseLimb(a, t);
            }

            @Override
            public String name() {
                return "slower";
            }

            @Override
            public boolean accepts(NttTables t) {
                return true;
            }
        };
        KernelWarmup.shutGates();
        KernelWarmup.run(new ScalarLimbKernels(), slower, 3, KernelWarmup.representatives());
        assertTrue(KernelWarmup.nttWarm(), "the transforms' gate opened after their rounds");
        assertFalse(KernelWarmup.vectorsWarm(), "the other kernels wait for the warm-up's end");
    }

    /** A failing warm-up opens the gates all the same: the scalar twins are never left on for good. */
    @Test
    void aFailingWarmupOpensTheGates() {
        LimbKernels failing = new KernelWarmupTest.Recording() {
            @Override
            public void sumShoup(
                    long[][] y, int yOff, int terms, long[] w, long[] ws, long d, long[] out, int off, int len) {
                throw new IllegalStateException("boom");
            }
        };
        KernelWarmup.shutGates();
        assertThrows(
                IllegalStateException.class,
                () -> KernelWarmup.runThenOpen(
                        failing, new ScalarNttBackend(), 4, KernelWarmup.representatives(), new long[0]));
        assertTrue(KernelWarmup.vectorsWarm());
        assertTrue(KernelWarmup.nttWarm());
    }
}
