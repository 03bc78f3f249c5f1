package io.hoist.cli.report;

import io.hoist.bfv.BfvParameters;
import io.hoist.bfv.TimingLeakCheck;
import io.hoist.cli.run.BfvBench;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/** Renders the results of {@code hoist bfv} and {@code hoist bfv ct-check}. */
public final class BfvRender {
    private BfvRender() {}

    public static Json.Obj params(BfvParameters p, String preset) {
        long[] q = p.keyPrimes();
        int[] bits = Arrays.stream(q)
                .mapToInt(x -> 64 - Long.numberOfLeadingZeros(x))
                .toArray();
        return Json.obj()
                .put("preset", preset)
                .put("N", p.n())
                .put("q", q)
                .put("qBits", bits)
                .put("totalBits", p.totalPrimeBits())
                .put("t", p.t())
                .put("secure", p.secure());
    }

    public static Json.Obj json(BfvBench.Result r) {
        Json.Obj micros = Json.obj();
        r.micros()
                .forEach((k, t) -> micros.put(
                        k,
                        Json.obj().put("median", t.median()).put("p10", t.p10()).put("p90", t.p90())));
        return Json.obj()
                .put("params", params(r.params(), r.preset()))
                .put("runs", r.runs())
                .put("micros", micros)
                .put("bytes", Json.obj().put("seeded", r.seededBytes()).put("full", r.fullBytes()))
                .put(
                        "noiseBudget",
                        Json.obj()
                                .put("fresh", r.freshNoiseBudget())
                                .put("afterMultiplyPlain", r.noiseBudgetAfterMultiplyPlain()))
                .put("roundTrip", r.roundTrip())
                .put(
                        "clientMemory",
                        Json.obj()
                                .put("retainedBytes", r.clientRetainedBytes())
                                .put("accounting", r.clientAccounting()))
                .put("ntt", r.ntt())
                .put("cpu", r.cpu());
    }

    public static String text(BfvBench.Result r) {
        StringBuilder sb = new StringBuilder();
        BfvParameters p = r.params();
        sb.append(String.format(
                Locale.ROOT,
                "BFV client (%s): N = %d, %d primes (%d bits, the last special), t = %d, %s%n",
                r.preset() == null ? "custom" : r.preset(),
                p.n(),
                p.keyLevelSize(),
                p.totalPrimeBits(),
                p.t(),
                p.secure() ? "128-bit secure" : "NOT SECURE"));
        sb.append(String.format(
                Locale.ROOT, "  %-28s %10s %10s %10s%n", "µs (median of " + r.runs() + ")", "median", "p10", "p90"));
        for (Map.Entry<String, BfvBench.Timing> e : r.micros().entrySet())
            sb.append(String.format(
                    Locale.ROOT,
                    "  %-28s %10.1f %10.1f %10.1f%n",
                    e.getKey(),
                    e.getValue().median(),
                    e.getValue().p10(),
                    e.getValue().p90()));
        sb.append(String.format(Locale.ROOT, "  SEAL bytes: seeded %,d, full %,d%n", r.seededBytes(), r.fullBytes()));
        sb.append(String.format(
                Locale.ROOT,
                "  noise budget: fresh %d bits, after a plain multiply %d bits%n",
                r.freshNoiseBudget(),
                r.noiseBudgetAfterMultiplyPlain()));
        sb.append(String.format(
                Locale.ROOT,
                "  client heap retained: %,d bytes (%s)%n",
                r.clientRetainedBytes(),
                r.clientAccounting()));
        sb.append("  round trip: ").append(r.roundTrip() ? "ok" : "FAILED").append('\n');
        sb.append("  ntt: ").append(r.ntt()).append("; cpu: ").append(r.cpu()).append('\n');
        return sb.toString();
    }

    public static Json.Obj json(TimingLeakCheck.Result r, BfvParameters p, String preset, String cpu) {
        return Json.obj()
                .put("params", params(p, preset))
                .put("operation", "decrypt + decode")
                .put("classes", "secret keys with all coefficients 0 vs random ternary keys, random ciphertexts")
                .put("samplesPerClass", r.samplesPerClass())
                .put("maxAbsT", r.maxAbsT())
                .put("worstCrop", r.worstCrop())
                .put("rawT", r.rawT())
                .put("crops", r.crops())
                .put("medianNanos", new double[] {r.medianNanosClass0(), r.medianNanosClass1()})
                .put("threshold", TimingLeakCheck.THRESHOLD)
                .put("leak", r.leak())
                .put("verdict", r.verdict())
                .put("cpu", cpu);
    }

    public static String text(TimingLeakCheck.Result r, BfvParameters p, String cpu) {
        return String.format(
                Locale.ROOT,
                "timing check of decrypt + decode, N = %d: %,d measurements per class (all-zero keys vs random keys)%n"
                        + "  largest |t| %.2f (crop %s), raw t %.2f, %d crops; medians %.1f / %.1f µs%n  %s%n  cpu: %s%n",
                p.n(),
                r.samplesPerClass(),
                r.maxAbsT(),
                r.worstCrop(),
                r.rawT(),
                r.crops(),
                r.medianNanosClass0() / 1e3,
                r.medianNanosClass1() / 1e3,
                r.verdict(),
                cpu);
    }
}
