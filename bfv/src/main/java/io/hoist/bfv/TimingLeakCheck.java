package io.hoist.bfv;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A dudect-style timing test (Reparaz, Balasch, Verbauwhede, DATE 2017): an operation runs on inputs
 * of two classes interleaved at random, each call is timed with {@link System#nanoTime}, and Welch's
 * t-statistic between the classes is kept for the raw timings and for timings cropped at a ladder of
 * upper percentiles (which removes GC, safepoint and interrupt outliers; the percentiles are fixed
 * from a first batch of the measurements). |t| above {@value #THRESHOLD} for any crop means the
 * timing depends on the class: a leak. The JIT is warmed on both classes before anything is kept.
 */
public final class TimingLeakCheck {
    /** dudect's threshold on |t|. */
    public static final double THRESHOLD = 4.5;

    /** The timed operation: run once on an input of class 0 or 1 (the input is picked inside). */
    @FunctionalInterface
    public interface Operation {
        void run(int cls, int index);

        /** Puts the input of (cls, index) in place before the timed {@link #run}; not timed. */
        default void prepare(int cls, int index) {}
    }

    /** Progress after each batch: measurements done out of the total. */
    @FunctionalInterface
    public interface Progress {
        void step(long done, long total);
    }

    /** The outcome: the largest |t| over the crops, which crop gave it, per-class medians. */
    public record Result(
            long samplesPerClass,
            double maxAbsT,
            String worstCrop,
            double rawT,
            double medianNanosClass0,
            double medianNanosClass1,
            int crops) {
        public boolean leak() {
            return maxAbsT > THRESHOLD;
        }

        public String verdict() {
            return leak()
                    ? "LEAK: |t| = " + String.format(Locale.ROOT, "%.2f", maxAbsT) + " > " + THRESHOLD
                    : "no leak detected: |t| = " + String.format(Locale.ROOT, "%.2f", maxAbsT) + " ≤ " + THRESHOLD;
        }
    }

    private static final int CROPS = 40;

    private TimingLeakCheck() {}

    /**
     * Runs {@code op} about {@code samplesPerClass} times per class after {@code warmup} untimed
     * calls, class drawn at random from {@code seed} for each call.
     */
    public static Result run(Operation op, long samplesPerClass, int warmup, long seed, Progress progress) {
        if (samplesPerClass < 1000)
            throw new BfvOperandException("at least 1000 samples per class, got " + samplesPerClass);
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < warmup; i++) {
            int idx = r.nextInt(1 << 20);
            op.prepare(i & 1, idx);
            op.run(i & 1, idx);
        }
        long total = 2 * samplesPerClass;
        int batch = 10_000;
        // the first batch fixes the crop thresholds and is not counted
        long[] first = new long[batch];
        int[] firstCls = new int[batch];
        for (int i = 0; i < batch; i++) {
            int c = r.nextInt(2), idx = r.nextInt(1 << 20);
            op.prepare(c, idx);
            long t0 = System.nanoTime();
            op.run(c, idx);
            first[i] = System.nanoTime() - t0;
            firstCls[i] = c;
        }
        long[] sorted = first.clone();
        Arrays.sort(sorted);
        long[] thresholds = new long[CROPS];
        for (int k = 0; k < CROPS; k++) {
            double p =
                    1 - Math.pow(0.5, 10.0 * (k + 1) / CROPS); // dudect's ladder, from the 16th percentile up to 99.9 %
            thresholds[k] = sorted[(int) Math.min(batch - 1, Math.floor(p * batch))];
        }
        Welch raw = new Welch();
        Welch[] cropped = new Welch[CROPS];
        for (int k = 0; k < CROPS; k++) cropped[k] = new Welch();
        long[][] keep = new long[2][]; // a reservoir for the medians
        keep[0] = new long[batch];
        keep[1] = new long[batch];
        int[] kept = new int[2];
        long done = 0;
        long[] times = new long[batch];
        int[] cls = new int[batch];
        while (done < total) {
            int m = (int) Math.min(batch, total - done);
            for (int i = 0; i < m; i++) {
                int c = r.nextInt(2), idx = r.nextInt(1 << 20);
                op.prepare(c, idx);
                long t0 = System.nanoTime();
                op.run(c, idx);
                times[i] = System.nanoTime() - t0;
                cls[i] = c;
            }
            for (int i = 0; i < m; i++) {
                long t = times[i];
                int c = cls[i];
                raw.add(c, t);
                for (int k = 0; k < CROPS; k++) if (t <= thresholds[k]) cropped[k].add(c, t);
                if (kept[c] < batch) keep[c][kept[c]++] = t;
            }
            done += m;
            if (progress != null) progress.step(done, total);
        }
        double best = Math.abs(raw.t());
        String worst = "raw";
        for (int k = 0; k < CROPS; k++) {
            double t = Math.abs(cropped[k].t());
            if (t > best) {
                best = t;
                worst = "≤ " + thresholds[k] + " ns";
            }
        }
        return new Result(
                samplesPerClass, best, worst, raw.t(), median(keep[0], kept[0]), median(keep[1], kept[1]), CROPS + 1);
    }

    private static double median(long[] a, int n) {
        if (n == 0) return Double.NaN;
        long[] s = Arrays.copyOf(a, n);
        Arrays.sort(s);
        return s[n / 2];
    }

    /** Welford's running mean and variance per class, and Welch's t between them. */
    private static final class Welch {
        private final double[] mean = new double[2], m2 = new double[2];
        private final long[] n = new long[2];

        void add(int c, double x) {
            n[c]++;
            double d = x - mean[c];
            mean[c] += d / n[c];
            m2[c] += d * (x - mean[c]);
        }

        double t() {
            if (n[0] < 2 || n[1] < 2) return 0;
            double v0 = m2[0] / (n[0] - 1), v1 = m2[1] / (n[1] - 1);
            double se = Math.sqrt(v0 / n[0] + v1 / n[1]);
            return se == 0 ? 0 : (mean[0] - mean[1]) / se;
        }
    }
}
