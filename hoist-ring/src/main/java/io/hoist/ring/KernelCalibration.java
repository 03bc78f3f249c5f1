package io.hoist.ring;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import io.hoist.ring.Kernel.Form;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.SplittableRandom;

/**
 * Times every form of every {@link Kernel} side by side with its scalar twin on this machine and
 * keeps the fastest one whose outputs match the scalar twin bit for bit. Limbs of N = 2^13 (64 KB:
 * the size of the unit tests' and the small presets' limbs, out of L1 like the large ones); both forms
 * run until C2 has compiled them, then alternate in rounds, and the medians decide. A vector or FMA
 * form must win by {@link #MARGIN} to be chosen: on a tie the scalar twin, the reference, runs. Where
 * both win, the FMA and the vector form are timed side by side, and the faster runs. The FMA form is
 * measured only where the JVM uses the CPU's FMA instructions.
 */
final class KernelCalibration {
    private KernelCalibration() {}

    static final int LOG_N = 13;
    /**
     * Invocations before timing, on limbs of 2^10 (vector code runs boxed, 10–100× slower, until C2
     * compiles it, so the small limbs keep that phase short): past C2's tier-4 thresholds.
     */
    static final int WARM_CALLS = 700;

    static final int WARM_LOG_N = 8;

    static final int ROUNDS = 15;
    static final double MARGIN = 0.97;
    /** Length of one timed sample: long enough that a scheduler tick on a shared machine is noise. */
    static final long SAMPLE_NANOS = 2_000_000;

    static final long QUIET_NANOS = 100_000_000, QUIESCE_MAX_NANOS = 6_000_000_000L;

    /** The machine's choice for an override setting (see {@link KernelChoice}). */
    static KernelChoice machineChoice(String setting) {
        String spec = setting == null ? "auto" : setting.trim();
        if (!vectorUsable()) return KernelChoice.all(Form.SCALAR, KernelChoice.Source.NO_VECTOR_API);
        if (KernelChoice.setsAll(spec))
            return KernelChoice.all(Form.SCALAR, KernelChoice.Source.OVERRIDE).with(spec);
        boolean recalibrate = spec.equalsIgnoreCase("recalibrate");
        boolean auto = recalibrate || spec.isEmpty() || spec.equalsIgnoreCase("auto");
        if (!auto) KernelChoice.all(Form.SCALAR, KernelChoice.Source.OVERRIDE).with(spec); // a bad list fails first
        KernelChoice measured = recalibrate ? null : KernelChoiceCache.read();
        if (measured == null) {
            measured = calibrate();
            KernelChoiceCache.write(measured);
        }
        return auto ? measured : measured.with(spec);
    }

    /**
     * Whether the JVM compiles fused multiply-adds to the CPU's FMA instructions: without them
     * (no FMA3, or {@code -XX:-UseFMA}) the FMA form would run {@code Math.fma} in software.
     */
    static boolean fmaUsable() {
        try {
            return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .getVMOption("UseFMA")
                    .getValue()
                    .equals("true");
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static boolean vectorUsable() {
        try {
            return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
                    && VectorLimbKernels.usable()
                    && VectorNttBackend.L >= 4;
        } catch (LinkageError | RuntimeException e) {
            return false;
        }
    }

    /** A fresh calibration: both forms of every kernel timed and compared. */
    static KernelChoice calibrate() {
        Bench warm = new Bench(WARM_LOG_N), b = new Bench(LOG_N);
        EnumMap<Kernel, Form> forms = new EnumMap<>(Kernel.class);
        EnumMap<Kernel, Double> ratios = new EnumMap<>(Kernel.class), fmaRatios = new EnumMap<>(Kernel.class);
        EnumMap<Kernel, Double> fmaOverVector = new EnumMap<>(Kernel.class);
        for (Kernel k : Kernel.values()) warm.warm(k);
        b.quiesce();
        for (Kernel k : Kernel.values()) {
            EnumSet<Form> fast = EnumSet.noneOf(Form.class); // identical forms that beat scalar by MARGIN
            for (Form f : Form.values()) {
                if (f == Form.SCALAR || !k.has(f) || (f == Form.FMA && !b.hasFma(k))) continue;
                double[] t = b.measureAgreed(k, f, Form.SCALAR);
                (f == Form.FMA ? fmaRatios : ratios).put(k, rounded(t[0]));
                if (t[1] != 0 && t[0] < MARGIN) fast.add(f);
            }
            Form best = Form.SCALAR;
            if (fast.contains(Form.VECTOR) && fast.contains(Form.FMA)) {
                // the two fast forms side by side, not through two ratios to scalar measured apart:
                // those put two forms within about 10 % of each other in the order of the noise
                double direct = b.measureAgreed(k, Form.FMA, Form.VECTOR)[0];
                fmaOverVector.put(k, rounded(direct));
                best = direct < 1 ? Form.FMA : Form.VECTOR;
            } else if (!fast.isEmpty()) {
                best = fast.iterator().next();
            }
            forms.put(k, best);
        }
        return new KernelChoice(forms, ratios, fmaRatios, fmaOverVector, KernelChoice.Source.CALIBRATED);
    }

    private static double rounded(double ratio) {
        return Math.round(ratio * 1000) / 1000.0;
    }

    /** The inputs, outputs and timing loop of one calibration. */
    private static final class Bench {
        final int n;
        final NttTables tables;
        final long q;
        final long[][] x = new long[8][], y = new long[8][], z = new long[8][];
        final long[] signed, w = new long[8], ws = new long[8];
        final NttPermutation perm;
        final long[] outS0, outS1, outV0, outV1;
        final ScalarLimbKernels scalar = new ScalarLimbKernels();
        final VectorLimbKernels vector = new VectorLimbKernels();
        final VectorLimbKernels fmaVector = new VectorLimbKernels(true, false);
        final ScalarNttBackend scalarNtt = new ScalarNttBackend();
        final VectorNttBackend vectorNtt = new VectorNttBackend();
        final FmaNtt fmaNtt;

        Bench(int logN) {
            n = 1 << logN;
            q = Primes.nttPrimes(logN, 50, 1).get(0);
            tables = NttTables.of(logN, q);
            SplittableRandom r = new SplittableRandom(0x4b65726eL);
            for (int t = 0; t < 8; t++) {
                x[t] = r.longs(n, 0, q).toArray();
                y[t] = r.longs(n, 0, q).toArray();
                z[t] = r.longs(n, 0, q).toArray();
                w[t] = r.nextLong(q);
                ws[t] = ModArith.shoupQuotient(w[t], q);
            }
            signed = r.longs(n, -(1L << 40), 1L << 40).toArray();
            perm = Automorphism.nttPermutation(logN, 5);
            fmaNtt = FmaNtt.accepts(tables) && fmaUsable() ? FmaNtt.of(tables, vectorNtt) : null;
            outS0 = new long[n];
            outS1 = new long[n];
            outV0 = new long[n];
            outV1 = new long[n];
        }

        /** The call of form {@code f} of {@code k}, writing into the given outputs. */
        void run(Kernel k, Form f, long[] o0, long[] o1) {
            boolean vec = f != Form.SCALAR;
            LimbKernels lk = f == Form.FMA ? fmaVector : vec ? vector : scalar;
            LimbNttBackend nb = vec ? vectorNtt : scalarNtt;
            switch (k) {
                case NTT_FORWARD -> {
                    System.arraycopy(x[0], 0, o0, 0, n);
                    if (f == Form.FMA) fmaNtt.forward(o0);
                    else nb.forwardLimb(o0, tables);
                }
                case NTT_INVERSE -> {
                    System.arraycopy(x[0], 0, o0, 0, n);
                    if (f == Form.FMA) fmaNtt.inverse(o0);
                    else nb.inverseLimb(o0, tables);
                }
                case DOT2 -> lk.dot2Montgomery(x, y, z, 8, o0, o1, q, false);
                case SUM_SHOUP -> lk.sumShoup(y, 6, w, ws, q, o0, 0, n);
                case MUL_SHOUP -> lk.mulShoup(x[1], w[0], ws[0], q, o0, 0, n);
                case SUB_MUL_SHOUP -> lk.subMulShoup(x[2], y[2], o0, w[1], ws[1], q);
                case LIFT_SIGNED -> lk.liftSigned(signed, w[2], ws[2], q, o0);
                case MUL_MOD -> lk.mulMod(x[3], y[3], o0, q, false);
                case AUTOMORPHISM -> lk.automorphismNtt(x[4], y[4], o0, perm, q, false);
            }
        }

        /** Runs every form of {@code k} past C2's thresholds. */
        void warm(Kernel k) {
            for (int i = 0; i < WARM_CALLS; i++) {
                run(k, Form.SCALAR, outS0, outS1);
                run(k, Form.VECTOR, outV0, outV1);
                if (hasFma(k)) run(k, Form.FMA, outV0, outV1);
                if (k == Kernel.DOT2) { // both branches of each, so mulMod's single output does not deoptimise them
                    boolean acc = (i & 1) == 0;
                    scalar.dot2Montgomery(x, y, null, 1 + (i & 7), outS0, null, q, acc);
                    vector.dot2Montgomery(x, y, null, 1 + (i & 7), outV0, null, q, acc);
                    if (hasFma(k)) fmaVector.dot2Montgomery(x, y, null, 1 + (i & 7), outV0, null, q, acc);
                }
            }
        }

        /**
         * Runs every kernel at the measured size until the JIT has finished no compilation for three
         * rounds of {@link #QUIET_NANOS}: a form still waiting in C2's queue would otherwise be timed
         * interpreted (measured: up to 130× its compiled time on 2 cores).
         */
        void quiesce() {
            CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
            if (jit == null || !jit.isCompilationTimeMonitoringSupported()) return;
            long deadline = System.nanoTime() + QUIESCE_MAX_NANOS;
            long last = jit.getTotalCompilationTime();
            int quiet = 0;
            while (quiet < 3 && System.nanoTime() < deadline) {
                long roundEnd = System.nanoTime() + QUIET_NANOS;
                while (System.nanoTime() < roundEnd) {
                    for (Kernel k : Kernel.values()) {
                        run(k, Form.SCALAR, outS0, outS1);
                        run(k, Form.VECTOR, outV0, outV1);
                        if (hasFma(k)) run(k, Form.FMA, outV0, outV1);
                    }
                }
                long now = jit.getTotalCompilationTime();
                quiet = now == last ? quiet + 1 : 0;
                last = now;
            }
        }

        /** Whether {@code k} has an FMA form that runs at this bench's prime and size. */
        boolean hasFma(Kernel k) {
            return k.has(Form.FMA) && fmaNtt != null;
        }

        /**
         * {@link #measure}, again until two measurements agree within 15 %: a form deoptimised or still
         * queued for C2 when timed shows as a ratio far from the next one.
         */
        double[] measureAgreed(Kernel k, Form f, Form base) {
            double[] t = measure(k, f, base);
            for (int again = 0; again < 4; again++) {
                double[] u = measure(k, f, base);
                boolean agree = Math.abs(Math.log(u[0] / t[0])) < Math.log(1.15);
                t = u;
                if (agree) break;
            }
            return t;
        }

        /** {median over rounds of form {@code f}'s time / form {@code base}'s, 1 if their outputs are identical else 0}. */
        double[] measure(Kernel k, Form f, Form base) { // each round times both forms back to back, order alternating
            for (int i = 0; i < 3; i++) {
                run(k, base, outS0, outS1);
                run(k, f, outV0, outV1);
            }
            boolean same = Arrays.equals(outS0, outV0) && (k != Kernel.DOT2 || Arrays.equals(outS1, outV1));
            int reps = repsFor(k, f, base);
            double[] ratio = new double[ROUNDS];
            long ts = 0, tv = 0;
            for (int round = 0; round < ROUNDS; round++) {
                boolean vecFirst = (round & 1) == 1;
                for (int side = 0; side < 2; side++) {
                    boolean vec = vecFirst == (side == 0);
                    long[] o0 = vec ? outV0 : outS0, o1 = vec ? outV1 : outS1;
                    long t0 = System.nanoTime();
                    for (int i = 0; i < reps; i++) run(k, vec ? f : base, o0, o1);
                    long dt = System.nanoTime() - t0;
                    if (vec) tv = dt;
                    else ts = dt;
                }
                ratio[round] = tv / (double) ts;
            }
            Arrays.sort(ratio);
            return new double[] {ratio[ROUNDS / 2], same ? 1 : 0};
        }

        /** Calls per timed sample: about {@link #SAMPLE_NANOS} of the slower form. */
        private int repsFor(Kernel k, Form f, Form base) {
            long slowest = 1;
            for (boolean vec : new boolean[] {false, true}) {
                long t0 = System.nanoTime();
                for (int i = 0; i < 4; i++) run(k, vec ? f : base, vec ? outV0 : outS0, vec ? outV1 : outS1);
                slowest = Math.max(slowest, (System.nanoTime() - t0) / 4);
            }
            return (int) Math.max(4, Math.min(2000, SAMPLE_NANOS / slowest));
        }
    }
}
