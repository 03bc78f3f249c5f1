package io.hoist.cli.run;

import com.google.common.math.Quantiles;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.planning.CostModel;
import io.hoist.lt.planning.Tradeoffs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code tradeoff --measure}: real encrypted evaluations of the keys–multiplications Pareto points at
 * small rings (insecure moduli are fine for timing), a non-negative least-squares fit of the {@link CostModel},
 * each point's measured against predicted time, and the fitted model's prediction of a larger ring.
 */
public final class TradeoffMeasure {
    private TradeoffMeasure() {}

    /** Points per algorithm and ring, spread along the front (the ends kept). */
    static final int MAX_POINTS = 5;

    /** Untimed evaluations before the three timed ones (the first plans of a fresh JVM also pay the JIT). */
    static final int WARMUP = 3;

    record Run(
            int logN,
            int n,
            String algorithm,
            List<Integer> split,
            int rotationKeys,
            double modMuls,
            double measuredMillis,
            double predictedMillis,
            double relativeError) {}

    public record Result(CostModel model, List<Run> runs, double medianRelativeError, Run prediction) {}

    public static Result run(int[] logNRange, int n, int predictLogN, List<Algorithm> algos, boolean quiet) {
        List<Plan> plans = new ArrayList<>();
        List<Integer> ring = new ArrayList<>();
        List<LimbLayout> lays = new ArrayList<>();
        List<Cost> costs = new ArrayList<>();
        List<Double> nanos = new ArrayList<>();
        try (Bars bar = Bars.of("measure", quiet)) {
            for (int logN = logNRange[0]; logN <= logNRange[1]; logN++) {
                if (n > (1 << logN) / 2)
                    throw new IllegalArgumentException("--measure-n " + n + " exceeds the slots at N = 2^" + logN);
                CkksParameters params = Bench.params(logN);
                LimbLayout lay = LimbLayout.of(params, params.maxLevel());
                List<Plan> ringPlans = new ArrayList<>();
                for (Algorithm a : algos)
                    ringPlans.addAll(spread(
                            Tradeoffs.paretoFront(
                                    Tradeoffs.sweep(n, lay, List.of(a), Storage.PRECOMPUTED, 0, null, Progress.NONE)),
                            n,
                            a));
                requireMemory(params, n, ringPlans);
                Bench b = new Bench(logN, n);
                for (Plan p : ringPlans) {
                    plans.add(p);
                    ring.add(logN);
                    lays.add(b.layout());
                    costs.add(p.cost(b.layout(), Storage.PRECOMPUTED));
                    nanos.add(b.time(p));
                    bar.step(plans.size(), plans.size() + 1);
                }
            }
        }
        CostModel model = CostModel.fit(costs, lays, nanos);
        List<Run> runs = new ArrayList<>();
        double[] errs = new double[plans.size()];
        for (int i = 0; i < plans.size(); i++) {
            runs.add(run(ring.get(i), lays.get(i), plans.get(i), costs.get(i), nanos.get(i), model));
            errs[i] = runs.get(i).relativeError();
        }
        Run predicted = null;
        if (predictLogN > 0) {
            CkksParameters params = Bench.params(predictLogN);
            if (n > params.slots())
                throw new IllegalArgumentException(
                        "--measure-n " + n + " exceeds the slots at N = 2^" + predictLogN + " (--predict-logN)");
            Plan p = Plan.autoForIndices(
                    n, allIndices(n), params, params.maxLevel(), Algorithm.TH_BSGS, Objective.FEWEST_KEYS, 0);
            requireMemory(params, n, List.of(p));
            Bench b = new Bench(predictLogN, n);
            predicted = run(predictLogN, b.layout(), p, p.cost(b.layout(), Storage.PRECOMPUTED), b.time(p), model);
        }
        return new Result(model, runs, Quantiles.median().compute(errs), predicted);
    }

    /** Before a ring's matrix and keys exist: the dense n×n test matrix (and its transform) plus the largest plan's keys, diagonals and buffers. */
    private static void requireMemory(CkksParameters params, int n, List<Plan> plans) {
        long most = 0;
        for (Plan p : plans) most = Math.max(most, LtRun.memoryEstimate(params, p, Storage.PRECOMPUTED));
        MemoryCheck.require(
                "--measure at N = 2^" + params.logN() + " with --measure-n " + n,
                MemoryCheck.add(MemoryCheck.mul(24L, n, n), most),
                "use a smaller --measure-n");
    }

    private static Run run(int logN, LimbLayout lay, Plan p, Cost c, double nanos, CostModel model) {
        double pred = model.predictNanos(c, lay);
        return new Run(
                logN,
                p.dimension(),
                p.algorithm().cliName(),
                Arrays.stream(p.split()).boxed().toList(),
                c.rotationKeys(),
                c.modMuls(),
                nanos / 1e6,
                pred / 1e6,
                Math.abs(pred - nanos) / nanos);
    }

    /** At most {@link #MAX_POINTS} plans of the front, evenly spread, both ends kept. */
    private static List<Plan> spread(List<Tradeoffs.Point> front, int n, Algorithm a) {
        List<Plan> out = new ArrayList<>();
        int k = front.size();
        for (int i = 0; i < Math.min(k, MAX_POINTS); i++) {
            int idx = k <= MAX_POINTS ? i : (int) Math.round(i * (k - 1) / (double) (MAX_POINTS - 1));
            out.add(Plan.dense(
                    n,
                    a,
                    front.get(idx).split().stream().mapToInt(Integer::intValue).toArray()));
        }
        return out;
    }

    private static List<Integer> allIndices(int n) {
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < n; r++) all.add(r);
        return all;
    }

    /** One ring: parameters, keys made per plan, a random dense matrix, timed warm evaluations. */
    private static final class Bench {
        final CkksParameters params;
        final CkksContext ctx;
        final KeyGenerator kg;
        final SecretKey sk;
        final LinearTransform m;
        final Ciphertext x;

        static CkksParameters params(int logN) {
            return CkksParameters.builder()
                    .name("measure")
                    .logN(logN)
                    .logQ(50, 40, 40, 40)
                    .logP(50, 50)
                    .scale(0x1p40)
                    .allowInsecure()
                    .build();
        }

        Bench(int logN, int n) {
            params = params(logN);
            ctx = CkksContext.create(params);
            kg = new KeyGenerator(ctx);
            sk = kg.genSecretKey();
            SplittableRandom r = new SplittableRandom(logN);
            double[][] re = new double[n][n];
            for (double[] row : re) for (int j = 0; j < n; j++) row[j] = (2 * r.nextDouble() - 1) / n;
            m = LinearTransform.dense(re, null);
            Encoder enc = new Encoder(ctx);
            x = Encryptor.withSecretKey(ctx, sk)
                    .encrypt(enc.encode(
                            m.replicate(ComplexVector.random(r, n), params.slots()),
                            params.maxLevel(),
                            params.defaultScale()));
        }

        LimbLayout layout() {
            return LimbLayout.of(params, params.maxLevel());
        }

        /** Median of three warm evaluations, in nanoseconds. */
        double time(Plan p) {
            RotationKeySet keys = kg.genRotationKeys(sk, params.maxLevel(), p.rotationKeys(params));
            LinearTransformEvaluator lt = new LinearTransformEvaluator(ctx, keys);
            EncodedTransform et = lt.encode(m, p, params.maxLevel(), Storage.PRECOMPUTED);
            for (int i = 0; i < WARMUP; i++) lt.evaluate(x, et);
            double[] t = new double[3];
            for (int i = 0; i < t.length; i++) {
                long t0 = System.nanoTime();
                lt.evaluate(x, et);
                t[i] = System.nanoTime() - t0;
            }
            return Quantiles.median().compute(t);
        }
    }

    public static void print(Result r) {
        System.out.printf(
                Locale.ROOT,
                "measured: %d runs; fitted t = %.3g ns/pointwise modMul + %.3g ns/key byte + %.3g ns/NTT butterfly; median relative error %.1f %%%n",
                r.runs().size(),
                r.model().nanosPerModMul(),
                r.model().nanosPerKeyByte(),
                r.model().nanosPerButterfly(),
                100 * r.medianRelativeError());
        System.out.printf(
                Locale.ROOT,
                "  %5s %5s %-9s %-12s %5s %11s %10s %10s %6s%n",
                "logN",
                "n",
                "algo",
                "split",
                "keys",
                "modMuls",
                "meas ms",
                "pred ms",
                "err %");
        List<Run> all = new ArrayList<>(r.runs());
        if (r.prediction() != null) all.add(r.prediction());
        for (Run x : all) {
            System.out.printf(
                    Locale.ROOT,
                    "  %5d %5d %-9s %-12s %5d %11.3e %10.2f %10.2f %6.1f%s%n",
                    x.logN(),
                    x.n(),
                    x.algorithm(),
                    String.join("·", x.split().stream().map(String::valueOf).toList()),
                    x.rotationKeys(),
                    x.modMuls(),
                    x.measuredMillis(),
                    x.predictedMillis(),
                    100 * x.relativeError(),
                    x == r.prediction() ? "   (prediction at a ring not in the fit)" : "");
        }
    }
}
