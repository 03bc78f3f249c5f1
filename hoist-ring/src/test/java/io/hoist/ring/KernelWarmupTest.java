package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hoist.math.Primes;
import io.hoist.ring.Kernel.Form;
import java.io.IOException;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The JIT warm-up drives every kernel and branch it lists on both kernel sets without failing (its results are discarded). */
class KernelWarmupTest {
    /** Counts each kernel call by the branch combination it takes, then runs the scalar twin. */
    static class Recording implements LimbKernels {
        final Map<String, Integer> calls = new HashMap<>();
        /** Calls by the name of the thread that made them. */
        final Map<String, Integer> threads = new HashMap<>();

        private final LimbKernels scalar = new ScalarLimbKernels();

        private void count(String key) {
            calls.merge(key, 1, Integer::sum);
            threads.merge(Thread.currentThread().getName(), 1, Integer::sum);
        }

        @Override
        public void dot2Montgomery(
                long[][] x,
                int[] xOff,
                long[][] y,
                long[][] z,
                int terms,
                long[] out0,
                long[] out1,
                long q,
                boolean acc) {
            count("dot2 terms=" + terms + " z=" + (z != null) + " two=" + (out1 != null) + " acc=" + acc);
            scalar.dot2Montgomery(x, xOff, y, z, terms, out0, out1, q, acc);
        }

        @Override
        public void dot2MontgomeryPacked(
                long[][] x,
                int[] xOff,
                long[][] y,
                long[][] z,
                int terms,
                long[] out0,
                long[] out1,
                long q,
                boolean acc) {
            count("packed terms=" + terms + " z=" + (z != null) + " acc=" + acc);
            scalar.dot2MontgomeryPacked(x, xOff, y, z, terms, out0, out1, q, acc);
        }

        @Override
        public void dot2MontgomeryMulti(
                long[][] x,
                long[][] y,
                long[][][] f,
                int[][] fOff,
                boolean packed,
                int terms,
                int outs,
                long[][] o0,
                long[][] o1,
                long q,
                boolean acc) {
            count("multi" + (packed ? " packed" : "") + " terms=" + terms + " outs=" + outs + " acc=" + acc
                    + (fOff == null ? "" : " offsets"));
            scalar.dot2MontgomeryMulti(x, y, f, fOff, packed, terms, outs, o0, o1, q, acc);
        }

        @Override
        public void mulShoup(long[] x, long w, long ws, long q, long[] out, int from, int len) {
            count("mulShoup");
            scalar.mulShoup(x, w, ws, q, out, from, len);
        }

        @Override
        public void sumShoup(
                long[][] y, int yOff, int terms, long[] w, long[] ws, long d, long[] out, int off, int len) {
            count("sumShoup terms=" + terms);
            scalar.sumShoup(y, yOff, terms, w, ws, d, out, off, len);
        }

        @Override
        public void liftSigned(long[] c, long w, long ws, long q, long[] out) {
            count("liftSigned");
            scalar.liftSigned(c, w, ws, q, out);
        }

        @Override
        public void subMulShoup(long[] a, long[] b, long[] out, long w, long ws, long q) {
            count("subMulShoup");
            scalar.subMulShoup(a, b, out, w, ws, q);
        }

        @Override
        public void mulMod(long[] a, long[] b, long[] out, long q, boolean acc) {
            count("mulMod acc=" + acc);
            scalar.mulMod(a, b, out, q, acc);
        }

        @Override
        public void mulModSum(long[] a0, long[] b0, long[] a1, long[] b1, long[] out, long q) {
            count("mulModSum");
            scalar.mulModSum(a0, b0, a1, b1, out, q);
        }

        @Override
        public void automorphismNtt(long[] x, long[] y, long[] out, NttPermutation p, long q, boolean acc) {
            count("automorphism y=" + (y != null) + " acc=" + acc);
            scalar.automorphismNtt(x, y, out, p, q, acc);
        }
    }

    @Test
    void warmupLimbsAreFilledDenselyAndUniformlyBelowTheirPrime() {
        // the warm-up profiles every kernel on these: mostly zeros made C2 lay out data branches wrongly
        for (long q : new long[] {
            Primes.nttPrimes(8, 30, 1).get(0),
            Primes.nttPrimes(8, 61, 1).get(0),
            Primes.nttPrimes(8, 62, 1).get(0)
        }) {
            long[][][] limbs = new long[3][40][256];
            KernelWarmup.fillUniform(limbs, q, 7);
            long total = 0, zeros = 0, upper = 0;
            for (long[][] a : limbs)
                for (long[] limb : a)
                    for (long x : limb) {
                        assertTrue(x >= 0 && x < q, x + " not below " + q);
                        total++;
                        if (x == 0) zeros++;
                        if (x >= q / 2) upper++;
                    }
            assertEquals(0, zeros, "zeros modulo " + q);
            assertEquals(0.5, (double) upper / total, 0.02, "share in the upper half modulo " + q);
            long[][][] again = new long[3][40][256];
            KernelWarmup.fillUniform(again, q, 8);
            assertFalse(Arrays.deepEquals(limbs, again), "another seed, the same limbs");
        }
    }

    /**
     * The FMA transforms' drivers dispatch on a fixed plan of pass kinds: the coverage primes at the warm-up's
     * degree take every kind in both directions, so C2 compiles no kind as a trap for a first evaluation at a
     * higher degree. The engine runs FMA transforms from four lanes on.
     */
    @Test
    void coveragePrimesTakeEveryFmaPassKind() {
        assumeTrue(FmaNtt.L >= 4, "FMA transforms run from four lanes on");
        Set<String> warmed = new TreeSet<>(), all = new TreeSet<>();
        for (int b : KernelWarmup.FMA_COVERAGE_BITS)
            passKinds(
                    1 << KernelWarmup.LOG_N,
                    Primes.nttPrimes(KernelWarmup.LOG_N, b, 1).get(0),
                    warmed);
        for (byte kind = 0; kind <= FmaNtt.SMALL_REDUCING; kind++) {
            all.add("forward " + kind);
            all.add("inverse " + kind);
        }
        assertEquals(all, warmed);
    }

    /**
     * Why the coverage primes: the evaluation's own primes at the warm-up's degree miss a kind they take at
     * higher degrees — the n13 preset's sizes (50, 40, 60 bits) with 8 lanes (the inverse's unpaired wide
     * stage at 2^13), 33- and 35-bit primes with 4 lanes (the forward's).
     */
    @Test
    void theEvaluationsOwnPrimesMissAKind() {
        assumeTrue(FmaNtt.L >= 4, "FMA transforms run from four lanes on");
        boolean missed = false;
        for (int[] bits : new int[][] {{50, 40, 60}, {33, 35}}) {
            long[] moduli = Arrays.stream(bits)
                    .mapToLong(b -> Primes.nttPrimes(16, b, 1).get(0))
                    .toArray();
            Set<String> warmed = new TreeSet<>(), evaluated = new TreeSet<>();
            for (long q : KernelWarmup.representatives(moduli)) passKinds(1 << KernelWarmup.LOG_N, q, warmed);
            for (long q : KernelWarmup.variants(moduli)) passKinds(1 << KernelWarmup.LOG_N, q, warmed);
            for (int logN = 10; logN <= 16; logN++) for (long q : moduli) passKinds(1 << logN, q, evaluated);
            missed |= !warmed.containsAll(evaluated);
        }
        assertTrue(missed, "every size set covered by its own primes at L = " + FmaNtt.L);
    }

    /**
     * The warm-up runs the coverage primes' FMA transforms where the backend runs a warmed prime in FMA lanes
     * (the FMA form; the vector form for word-sized primes), and only there.
     */
    @Test
    void theWarmUpRunsTheCoverageTransformsWhereFmaLanesRun() {
        assumeTrue(FmaNtt.L >= 4 && KernelCalibration.fmaUsable(), "FMA lanes in use");
        long q40 = Primes.nttPrimes(KernelWarmup.LOG_N, 40, 1).get(0),
                q29 = Primes.nttPrimes(KernelWarmup.LOG_N, 29, 1).get(0);
        TunedNttBackend fma = tuned(Form.FMA), vector = tuned(Form.VECTOR);
        assertEquals(2, KernelWarmup.fmaCoverage(fma, q40).length);
        assertEquals(0, KernelWarmup.fmaCoverage(vector, q40).length, "a 40-bit prime runs the integer kernel there");
        assertEquals(
                2, KernelWarmup.fmaCoverage(vector, q40, q29).length, "a word-sized prime runs in FMA lanes there");
        assertEquals(0, KernelWarmup.fmaCoverage(new ScalarNttBackend(), q29).length);
        KernelWarmup.run(new ScalarLimbKernels(), vector, 2, new long[] {q29, q40});
        // the word-sized prime's own transform and the two coverage primes' (the 49-bit one beside its form)
        assertEquals(3, vector.fmaPrimes());
    }

    private static TunedNttBackend tuned(Form f) {
        EnumMap<Kernel, Form> forms = new EnumMap<>(Kernel.class);
        for (Kernel k : Kernel.values()) forms.put(k, k.has(f) ? f : Form.SCALAR);
        return new TunedNttBackend(new KernelChoice(forms, Map.of(), KernelChoice.Source.OVERRIDE));
    }

    private static void passKinds(int n, long q, Set<String> into) {
        if (q >= 1L << FmaNtt.MAX_BITS || n < 4 * FmaNtt.L) return;
        for (byte b : FmaNtt.forwardPlan(n, q)) into.add("forward " + b);
        for (byte b : FmaNtt.inversePlan(n, q)) into.add("inverse " + b);
    }

    /** The n13 preset's primes (Q 50, 40, 40 bits; P 60): the 40-bit size of the FMA class is a variant, nothing else. */
    @Test
    void variantsAreTheOtherBitLengthsOfAClass() {
        long q50 = Primes.nttPrimes(13, 50, 1).get(0),
                p60 = Primes.nttPrimes(13, 60, 1).get(0);
        List<Long> q40 = Primes.nttPrimes(13, 40, 2);
        long[] moduli = {q50, q40.get(0), q40.get(1), p60};
        assertArrayEquals(new long[] {q50, p60}, KernelWarmup.representatives(moduli));
        long[] v = KernelWarmup.variants(moduli);
        assertEquals(1, v.length, Arrays.toString(v));
        assertEquals(40, 64 - Long.numberOfLeadingZeros(v[0]));
        assertEquals(1, v[0] % (2L << KernelWarmup.LOG_N), "an NTT prime of the warm-up's degree");
        // both ends of a class with three sizes; a class of one size has none
        long q45 = Primes.nttPrimes(13, 45, 1).get(0);
        assertEquals(1, KernelWarmup.variants(q40.get(0), q45, q50).length, "the representative is the smallest");
        long[] three = KernelWarmup.variants(q45, q40.get(0), q50);
        assertEquals(2, three.length, Arrays.toString(three));
        assertEquals(
                Set.of(40, 50),
                Set.of(64 - Long.numberOfLeadingZeros(three[0]), 64 - Long.numberOfLeadingZeros(three[1])));
        assertEquals(0, KernelWarmup.variants(q50).length);
        assertEquals(0, KernelWarmup.variants().length);
    }

    /** A variant gets one round in VARIANT_EVERY, cycling its branch combinations like the others. */
    @Test
    void variantsGetAShareOfTheRounds() {
        long[] primes = KernelWarmup.representatives();
        long[] others = {Primes.nttPrimes(10, 40, 1).get(0)};
        int rounds = 8 * KernelWarmup.VARIANT_EVERY;
        Recording rec = new Recording();
        KernelWarmup.run(rec, new ScalarNttBackend(), rounds, primes, others);
        // and the basis conversion's, once a round, from the first half of all the primes
        int sources = (primes.length + others.length) / 2;
        assertEquals(
                rounds * primes.length + rounds / KernelWarmup.VARIANT_EVERY + rounds * sources,
                rec.calls.get("mulShoup"));
        // alone, the variant's 8 rounds take every combination a round cycles through (the low three bits)
        Recording alone = new Recording();
        KernelWarmup.run(alone, new ScalarNttBackend(), rounds, new long[0], others);
        assertEquals(8, alone.calls.get("mulShoup"));
        for (String k : List.of(
                "dot2 terms=7 z=true two=true acc=false",
                "dot2 terms=40 z=true two=true acc=true",
                "dot2 terms=5 z=false two=false acc=true"))
            assertEquals(2, alone.calls.get(k), k + " in " + alone.calls);
    }

    /** Some rounds run on a thread that has not called the kernels before (their per-thread scratch's first lookup). */
    @Test
    void everyHundredthRoundRunsOnAFreshThread() {
        long[] primes = KernelWarmup.representatives();
        Recording rec = new Recording();
        KernelWarmup.run(rec, new ScalarNttBackend(), 2 * KernelWarmup.FRESH_THREAD_EVERY, primes);
        int total = rec.threads.values().stream().mapToInt(Integer::intValue).sum();
        int fresh = rec.threads.getOrDefault("hoist-warmup-fresh", 0);
        // two rounds in 2·FRESH_THREAD_EVERY per prime class, each calling the same kernels as any other round
        // (give or take the fused dot product that a round skips when its count in turn is the largest)
        assertTrue(
                Math.abs(total / KernelWarmup.FRESH_THREAD_EVERY - fresh) <= 2 * primes.length,
                fresh + " calls on fresh threads of " + total + ": " + rec.threads);
        assertEquals(2, rec.threads.size(), rec.threads.toString());
    }

    /** A kernel failing on a fresh thread fails the warm-up, as it would on the warm-up's own thread. */
    @Test
    void aFailureOnAFreshThreadReachesTheCaller() {
        assertEquals(
                "boom",
                warmUpFailingOnFreshThreads(new IllegalStateException("boom")).getMessage());
    }

    /** Even a checked exception thrown past the compiler on a fresh thread fails the warm-up instead of vanishing. */
    @Test
    void aCheckedFailureOnAFreshThreadIsNotSwallowed() {
        IOException checked = new IOException("checked");
        assertEquals(checked, warmUpFailingOnFreshThreads(checked).getCause());
    }

    /** A warm-up whose mulShoup throws {@code failure} on every fresh thread: the exception it ends with. */
    private static IllegalStateException warmUpFailingOnFreshThreads(Throwable failure) {
        LimbKernels failing = new Recording() {
            @Override
            public void mulShoup(long[] x, long w, long ws, long q, long[] out, int from, int len) {
                if (Thread.currentThread().getName().equals("hoist-warmup-fresh"))
                    KernelWarmupTest.<RuntimeException>sneaky(failure);
                super.mulShoup(x, w, ws, q, out, from, len);
            }
        };
        return assertThrows(
                IllegalStateException.class,
                () -> KernelWarmup.run(
                        failing,
                        new ScalarNttBackend(),
                        KernelWarmup.FRESH_THREAD_EVERY,
                        KernelWarmup.representatives()));
    }

    /** Throws {@code t}, checked or not, without declaring it. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneaky(Throwable t) throws T {
        throw (T) t;
    }

    @Test
    void everyRoundCallsEveryKernelOnceInEachBranchCombinationItCycles() {
        long[] primes = KernelWarmup.representatives();
        int rounds = 16; // the combinations cycle with the round's low four bits (the four: bits 2 and 3 set)
        Recording rec = new Recording();
        ScalarNttBackend ntt = new ScalarNttBackend();
        KernelWarmup.run(rec, ntt, rounds, primes);
        int perKernel = rounds * primes.length;
        int packedPrimes = (int) Arrays.stream(primes)
                .filter(q -> PackedLimbs.packs(q, 1 << KernelWarmup.LOG_N))
                .count();
        assertEquals(1, packedPrimes, "one representative below 2^31");
        // once a round, a basis conversion from the first half of the primes to the rest: one mulShoup
        // per source prime, one sumShoup per target prime (the warm-up's limbs are one BConv block)
        int sources = primes.length / 2, targets = primes.length - sources;
        assertTrue(sources > 0, "at least two representatives");
        assertEquals(perKernel + rounds * sources, rec.calls.get("mulShoup"), "mulShoup");
        assertTrue(rec.calls.get("sumShoup terms=" + (sources + 1)) >= rounds * targets, "the conversion's sums");
        for (String k : List.of("liftSigned", "subMulShoup")) assertEquals(perKernel, rec.calls.get(k), k);
        assertEquals(3 * perKernel, rec.calls.get("mulModSum"), "three a round");
        for (String k : List.of("mulMod acc=false", "mulMod acc=true"))
            assertEquals(3 * perKernel / 2, rec.calls.get(k), k);
        // few terms and more than a Montgomery chunk, writing and accumulating, one and two outputs
        for (String k : List.of(
                "dot2 terms=7 z=true two=true acc=false",
                "dot2 terms=7 z=true two=true acc=true",
                "dot2 terms=40 z=true two=true acc=false",
                "dot2 terms=40 z=true two=true acc=true",
                "dot2 terms=5 z=false two=false acc=true",
                "dot2 terms=40 z=false two=false acc=false",
                "multi terms=5 outs=1 acc=false offsets",
                "multi terms=40 outs=2 acc=true offsets",
                "multi terms=5 outs=2 acc=true offsets",
                "multi terms=40 outs=2 acc=false offsets",
                "multi terms=5 outs=4 acc=false offsets",
                "multi terms=40 outs=4 acc=true offsets",
                "multi terms=5 outs=4 acc=true offsets",
                "multi terms=40 outs=4 acc=false offsets",
                "multi packed terms=5 outs=2 acc=true offsets",
                "multi packed terms=40 outs=1 acc=false offsets",
                "multi packed terms=5 outs=2 acc=false offsets",
                "multi packed terms=40 outs=1 acc=true offsets",
                "sumShoup terms=1",
                "sumShoup terms=3",
                "sumShoup terms=8",
                "automorphism y=true acc=false",
                "automorphism y=false acc=true",
                "automorphism y=true acc=true"))
            assertTrue(rec.calls.getOrDefault(k, 0) > 0, k + " never called: " + rec.calls.keySet());
        // the short pair every round, with an odd number of terms present (5 terms, 3 present: a pair and a single)
        assertTrue(
                rec.calls.getOrDefault("multi terms=5 outs=2 acc=false offsets", 0)
                                + rec.calls.getOrDefault("multi terms=5 outs=2 acc=true offsets", 0)
                        >= perKernel,
                "the short pair of five terms in every round");
        // the fused dot products: the largest count every round, the others in turn every VARIANT_EVERY rounds
        for (int terms : new int[] {1, 2, FusedDotKernels.MAX_TERMS}) {
            String k = "dot2 terms=" + terms + " z=true two=true acc=";
            assertTrue(rec.calls.getOrDefault(k + "false", 0) + rec.calls.getOrDefault(k + "true", 0) > 0, k);
        }
        for (String k : Set.of("dot2", "multi", "multi packed", "sumShoup", "automorphism")) {
            int total = rec.calls.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(k + " ")
                            && (k.contains("packed") || !e.getKey().contains("packed")))
                    .mapToInt(Map.Entry::getValue)
                    .sum();
            // multi: the outputs with different terms, the pair or the four with the same terms, a short pair
            // dot2: two outputs and one, then the fused forms' largest count of terms
            int perRound = k.equals("dot2") || k.equals("multi") || k.equals("automorphism") ? 3 : 1;
            // packed limbs: only the primes below 2^31 (one size class of the representatives)
            int count = k.equals("multi packed") ? rounds * packedPrimes : perKernel;
            int conversion = k.equals("sumShoup") ? rounds * targets : 0;
            // dot2: the fused forms' other counts in turn, in the rounds where that is not the largest
            int fusedOthers = 0;
            for (int i = 0; i < rounds; i += KernelWarmup.VARIANT_EVERY)
                if (KernelWarmup.ALL_FUSED_TERMS[(i / KernelWarmup.VARIANT_EVERY) % FusedDotKernels.MAX_TERMS]
                        != FusedDotKernels.MAX_TERMS) fusedOthers += primes.length;
            assertEquals(perRound * count + conversion + (k.equals("dot2") ? fusedOthers : 0), total, k);
        }
        // both directions of the transform, once per round and prime (no FMA coverage on the scalar backend)
        assertEquals(0, KernelWarmup.fmaCoverage(ntt, primes).length);
        assertEquals(2L * perKernel, ntt.stats().snapshot().calls());
    }

    /** Counts named by the caller (bootstrapping's levels) are each called in every round, not in turn. */
    @Test
    void namedDigitCountsAreEachWarmedEveryRound() {
        long[] primes = KernelWarmup.representatives();
        int rounds = 2 * KernelWarmup.VARIANT_EVERY;
        Recording rec = new Recording();
        KernelWarmup.run(rec, new ScalarNttBackend(), rounds, primes, new long[0], new int[] {5, 3, 4});
        for (int terms : new int[] {3, 4, 5}) {
            String k = "dot2 terms=" + terms + " z=true two=true acc=";
            int calls = rec.calls.getOrDefault(k + "false", 0) + rec.calls.getOrDefault(k + "true", 0);
            assertEquals(rounds * primes.length, calls, terms + " terms");
            // the largest both ways; the others write only, as the evaluations that reach them do
            assertEquals(terms == 5, rec.calls.getOrDefault(k + "true", 0) > 0, k);
        }
        for (int terms : new int[] {1, 2, FusedDotKernels.MAX_TERMS})
            assertEquals(0, rec.calls.getOrDefault("dot2 terms=" + terms + " z=true two=true acc=true", 0), "" + terms);
    }

    @Test
    void warmsTheFusedDotProductsOfTheDigitCountsGiven() {
        assertArrayEquals(
                new int[] {2, 3}, KernelWarmup.fusedTerms(new int[] {3, 3, 2, 0, FusedDotKernels.MAX_TERMS + 1}));
        assertNull(KernelWarmup.fusedTerms(null), "none named: every count, the others in turn");
        assertNull(KernelWarmup.fusedTerms(new int[] {40}), "no count in range: none named");
        assertEquals(FusedDotKernels.MAX_TERMS, KernelWarmup.ALL_FUSED_TERMS.length);
    }

    @Test
    void warmupRunsOnScalarAndVectorKernels() {
        assertDoesNotThrow(() -> KernelWarmup.run(new ScalarLimbKernels(), new ScalarNttBackend(), 16));
        assertDoesNotThrow(() -> KernelWarmup.run(LimbKernels.best(), NttBackends.defaultBackend(), 16));
    }

    @Test
    void warmsOnePrimeOfEachSizeClassTheModuliHave() {
        long q30 = Primes.nttPrimes(13, 30, 1).get(0);
        List<Long> q40 = Primes.nttPrimes(13, 40, 2), q60 = Primes.nttPrimes(13, 60, 1);
        assertArrayEquals(
                new long[] {q40.get(0), q30, q60.get(0)},
                KernelWarmup.representatives(q40.get(0), q30, q40.get(1), q60.get(0)));
        // 17 is no NTT prime of the warm-up's degree: a prime of the same class that is stands in for it
        long[] small = KernelWarmup.representatives(17);
        assertEquals(1, small.length);
        assertTrue(small[0] < 1L << 31 && small[0] % (2L << KernelWarmup.LOG_N) == 1, "stand-in " + small[0]);
        assertEquals(3, KernelWarmup.representatives().length);
        assertDoesNotThrow(() -> KernelWarmup.run(LimbKernels.best(), NttBackends.defaultBackend(), 4, small));
    }

    @Test
    void autoWarmsUpFromTwoProcessorsAndTheSettingOverrides() {
        assertFalse(KernelWarmup.enabled("auto", 1));
        assertTrue(KernelWarmup.enabled("auto", 2));
        assertTrue(KernelWarmup.enabled("auto", 4));
        assertTrue(KernelWarmup.enabled(" TRUE ", 1));
        assertFalse(KernelWarmup.enabled("false", 64));
        assertTrue(KernelWarmup.enabled("", 8));
        assertTrue(KernelWarmup.enabled("AUTO", 3));
        assertTrue(KernelWarmup.enabled("on", 1));
        assertFalse(KernelWarmup.enabled("off", 64));
    }
}
