package io.hoist.cli.run;

import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.KeySizes;
import io.hoist.ckks.KeyStorage;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.lt.dft.DftFactorization;
import io.hoist.lt.dft.DftPlanner;
import io.hoist.lt.dft.HomomorphicDft;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * {@code hoist ctos --sweep}: every depth 1 … logSlots × the four algorithms. Keys, key bytes and
 * multiplications come from the plans (index sets only, no matrix is built); points whose levels
 * exist and whose keys and diagonals fit the memory cap are also run for time and precision.
 */
public final class CtosSweep {
    private CtosSweep() {}

    public record Point(
            int depth,
            String algo,
            int rotationKeys,
            long keyBytes,
            long seededKeyBytes,
            double modMuls,
            long diagonals,
            long estimatedBytes,
            boolean run,
            String notRun,
            Double millis,
            Double minBits,
            Double avgBits) {}

    public record Report(
            String params,
            int logSlots,
            String objective,
            boolean joint,
            String storage,
            List<Point> points,
            List<String> plots) {}

    public static Report run(CtosSetup s, long maxBytes, int runFrom, int runTo, boolean quiet) {
        CkksParameters params = s.params();
        List<Point> points = new ArrayList<>();
        Algorithm[] algos = Algorithm.values();
        int total = s.logSlots() * algos.length, done = 0;
        try (Bars bar = Bars.of("sweep", quiet)) {
            for (int d = 1; d <= s.logSlots(); d++) {
                List<DftPlanner.MatrixSpec> specs = specs(s, d);
                for (Algorithm a : algos) {
                    points.add(point(s, d, a, specs, maxBytes, d >= runFrom && d <= runTo, quiet));
                    bar.step(++done, total);
                }
            }
        }
        return new Report(
                ParamsOptions.describe(params),
                s.logSlots(),
                s.objectiveName(),
                s.joint(),
                s.storage().name().toLowerCase(Locale.ROOT),
                points,
                List.of());
    }

    /** The CtS matrices' index sets at depth d; with sparse packing the last matrix acts on 2n slots with the same offsets. */
    private static List<DftPlanner.MatrixSpec> specs(CtosSetup s, int d) {
        var sets = DftFactorization.indexSets(s.logSlots(), d, HomomorphicDft.Kind.COEFFS_TO_SLOTS);
        boolean sparse = s.logSlots() < s.params().logN() - 1;
        List<DftPlanner.MatrixSpec> out = new ArrayList<>();
        for (int i = 0; i < d; i++) {
            int dim = sparse && i == d - 1 ? 2 << s.logSlots() : 1 << s.logSlots();
            out.add(new DftPlanner.MatrixSpec(dim, sets.get(i), Math.max(1, s.topLevel() - i)));
        }
        return out;
    }

    private static Point point(
            CtosSetup s,
            int d,
            Algorithm a,
            List<DftPlanner.MatrixSpec> specs,
            long maxBytes,
            boolean runIt,
            boolean quiet) {
        CkksParameters params = s.params();
        boolean lattigo = s.objectiveName().equals("lattigo");
        List<Plan> plans;
        try {
            if (lattigo && a == Algorithm.DH_BSGS) plans = lattigo(specs);
            else if (s.joint())
                plans = DftPlanner.joint(specs, true, params, a, s.objective(), s.keyBudget())
                        .plans();
            else plans = perMatrix(s, a, specs);
        } catch (IllegalArgumentException e) { // e.g. no split within the key budget: this point only
            return new Point(d, a.cliName(), 0, 0, 0, Double.NaN, 0, 0, false, e.getMessage(), null, null, null);
        }
        boolean levelsExist = s.topLevel() - d >= 0;
        TreeSet<Long> keys = new TreeSet<>();
        double mults = 0;
        long diags = 0, diagBytes = 0;
        for (int i = 0; i < d; i++) {
            keys.addAll(plans.get(i).rotationKeys(params));
            int level = specs.get(i).level();
            mults += plans.get(i).cost(params, level, s.storage()).modMuls();
            long words = s.storage() == Storage.COMPACT ? 1 : level + 1 + params.alpha();
            diags += specs.get(i).indices().size();
            diagBytes += specs.get(i).indices().size() * words * params.n() * 8L;
        }
        keys.add(params.galoisElementForConjugation());
        KeySizes one = KeySizes.switchingKey(params.beta(s.topLevel()), s.topLevel() + 1 + params.alpha(), params.n());
        long keyBytes = one.fullBytes() * keys.size();
        long need = (s.keyStorage() == KeyStorage.SEEDED ? one.seededBytes() * keys.size() : keyBytes) + diagBytes;
        String why = null;
        if (!levelsExist) why = "needs " + d + " levels, the parameters have " + s.topLevel();
        else if (!runIt) why = "outside --sweep-run-depths";
        else if (need > maxBytes)
            why = String.format(Locale.ROOT, "keys and diagonals need %.1f GB, over --sweep-max-mb", need / 1e9);
        Double ms = null, min = null, avg = null;
        if (why == null) {
            CtosSetup one1 = new CtosSetup(
                    params,
                    s.backend(),
                    s.logSlots(),
                    d,
                    s.topLevel(),
                    null,
                    0,
                    a,
                    lattigo && a != Algorithm.DH_BSGS ? "fewest-keys" : s.objectiveName(),
                    s.objective(),
                    s.keyBudget(),
                    s.joint(),
                    s.storage(),
                    s.runs(),
                    s.seed(),
                    null,
                    null,
                    s.threads(),
                    s.keyStorage());
            CtosRun.Report r = CtosRun.run(one1, d, true);
            ms = r.millis().evaluate();
            min = r.precision().minBits();
            avg = r.precision().avgBits();
        }
        // levels below 1 do not exist: multiplications and diagonal bytes of such a depth are not reported
        return new Point(
                d,
                a.cliName(),
                keys.size(),
                keyBytes,
                one.seededBytes() * keys.size(),
                levelsExist ? mults : Double.NaN,
                diags,
                levelsExist ? need : 0,
                why == null,
                why,
                ms,
                min,
                avg);
    }

    /** Lattigo's rule (DH-BSGS, ρ = 1) per matrix, as {@code ctos --objective lattigo} runs it. */
    private static List<Plan> lattigo(List<DftPlanner.MatrixSpec> specs) {
        List<Plan> out = new ArrayList<>();
        for (var m : specs) {
            int n1 = DftPlanner.lattigoN1(m.indices(), m.dimension(), 1);
            out.add(Plan.forIndices(m.dimension(), m.indices(), Algorithm.DH_BSGS, n1, m.dimension() / n1));
        }
        return out;
    }

    private static List<Plan> perMatrix(CtosSetup s, Algorithm a, List<DftPlanner.MatrixSpec> specs) {
        List<Plan> out = new ArrayList<>();
        var obj = s.objectiveName().equals("lattigo")
                ? Objective.FEWEST_KEYS
                : s.objective(); // other algorithms beside Lattigo's DH rule
        for (var m : specs)
            out.add(Plan.autoForIndices(m.dimension(), m.indices(), s.params(), m.level(), a, obj, s.keyBudget()));
        return out;
    }
}
