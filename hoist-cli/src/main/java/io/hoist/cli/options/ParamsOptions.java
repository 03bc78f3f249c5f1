package io.hoist.cli.options;

import io.hoist.ckks.CkksParameters;
import io.hoist.math.ModArith;
import io.hoist.ring.NttTables;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/** Parameter selection shared by the scheme-level commands: a preset, or explicit prime sizes. */
public final class ParamsOptions {
    @Option(names = "--preset", description = "parameter preset: n13, n14, n15, n16, boot16, boot14")
    public String preset;

    @Option(names = "--logN", description = "log2 ring degree (with --logQ/--logP instead of a preset)")
    public Integer logN;

    @Option(
            names = "--logQ",
            description = "bit sizes of q_0 … q_L, first to last, e.g. 60,40,40 or 60,40x9 (x or × repeats)")
    String logQ;

    @Option(names = "--logP", description = "bit sizes of the special primes p_0 … p_{α−1}, e.g. 61,61 or 61x2")
    String logP;

    @Option(names = "--logScale", description = "log2 of the default scale (default: the preset's, or the size of q_L)")
    Integer logScale;

    @Option(names = "--logSlots", description = "log2 of the slot count (default N/2); for ctos, log2 of the DFT size")
    public Integer logSlots;

    @Option(names = "--insecure", description = "allow parameters over the 128-bit bound (reports say NOT SECURE)")
    boolean insecure;

    public CkksParameters build(String defaultPreset) {
        if (logN != null || logQ != null || logP != null) {
            if (preset != null)
                throw new IllegalArgumentException("give either --preset or --logN/--logQ/--logP, not both");
            if (logN == null || logQ == null || logP == null)
                throw new IllegalArgumentException("explicit parameters need all of --logN, --logQ and --logP");
            if (logN < 10 || logN > NttTables.MAX_LOG_N)
                throw new IllegalArgumentException("--logN must be in [10, " + NttTables.MAX_LOG_N + "], got " + logN);
            int[] bitsQ = primeSizes("--logQ", logQ, logN), bitsP = primeSizes("--logP", logP, logN);
            CkksParameters.Builder b = CkksParameters.builder()
                    .name("custom")
                    .logN(logN)
                    .logQ(bitsQ)
                    .logP(bitsP);
            b.scale(Math.pow(2, logScale != null ? logScale : bitsQ[bitsQ.length - 1]));
            if (logSlots != null) b.logSlots(logSlots);
            if (insecure) b.allowInsecure();
            return b.build();
        }
        CkksParameters p = CkksParameters.preset(preset != null ? preset : defaultPreset);
        if (logScale == null && logSlots == null) return p;
        CkksParameters.Builder b = CkksParameters.builder()
                .name(p.name())
                .logN(p.logN())
                .qPrimes(p.qPrimes())
                .pPrimes(p.pPrimes())
                .scale(logScale != null ? Math.pow(2, logScale) : p.defaultScale())
                .secret(p.secret())
                .sigma(p.sigma());
        if (logSlots != null) b.logSlots(logSlots);
        if (insecure) b.allowInsecure();
        return b.build();
    }

    /** The largest repeat count a {@code BxK} term may ask for; longer chains are not CKKS parameters anyone runs. */
    static final int MAX_PRIMES = 256;

    /** {@link #bitSizes}, each checked to be a size NTT-friendly primes for N = 2^logN can have. */
    static int[] primeSizes(String option, String text, int logN) {
        int[] bits = bitSizes(option, text);
        for (int b : bits) {
            if (b < logN + 2 || b > ModArith.MAX_BITS) {
                throw new IllegalArgumentException(
                        option + ": " + b + "-bit primes cannot serve N = 2^" + logN + "; prime sizes must be in ["
                                + (logN + 2) + ", " + ModArith.MAX_BITS + "] bits (q ≡ 1 mod 2N)");
            }
        }
        return bits;
    }

    /** Parses "60,40x9,39×3": comma-separated bit sizes, each optionally repeated with x, X or ×. */
    public static int[] bitSizes(String option, String text) {
        List<Integer> out = new ArrayList<>();
        for (String term : text.split(",", -1)) {
            String[] parts = term.trim().split("[x×X]", -1);
            if (parts.length > 2 || parts[0].isEmpty())
                throw new IllegalArgumentException(option + ": '" + term + "' is not a bit size or BITSxCOUNT");
            int bits = parseInt(option, term, parts[0]);
            int count = parts.length == 2 ? parseInt(option, term, parts[1]) : 1;
            if (count < 1 || out.size() + count > MAX_PRIMES) {
                throw new IllegalArgumentException(option + ": '" + term + "' gives "
                        + (count < 1 ? "no primes" : "more than " + MAX_PRIMES + " primes"));
            }
            for (int i = 0; i < count; i++) out.add(bits);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Parses "a..b" (or "a") with lo ≤ a ≤ b ≤ hi: the ranges of --sweep-limbs, --n, --measure-logN, --sweep-run-depths. */
    public static int[] parseRange(String s, String option, int lo, int hi) {
        Matcher m = Pattern.compile("\\s*(\\d{1,9})\\s*(?:\\.\\.\\s*(\\d{1,9})\\s*)?")
                .matcher(s);
        if (!m.matches())
            throw new IllegalArgumentException(option + " wants a..b (or a single number), got '" + s + "'");
        int a = Integer.parseInt(m.group(1)), b = m.group(2) == null ? a : Integer.parseInt(m.group(2));
        if (a < lo || b < a || b > hi)
            throw new IllegalArgumentException(option + " wants " + lo + " ≤ a ≤ b ≤ " + hi + ", got " + a + ".." + b);
        return new int[] {a, b};
    }

    private static int parseInt(String option, String term, String digits) {
        if (!digits.trim().matches("[0-9]{1,9}"))
            throw new IllegalArgumentException(
                    option + ": '" + term + "' is not a bit size or BITSxCOUNT (ASCII digits)");
        try {
            return Integer.parseInt(digits.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + term + "' is not a bit size or BITSxCOUNT");
        }
    }

    public static String describe(CkksParameters p) {
        int[] bitsQ = Arrays.stream(p.qPrimes())
                .mapToInt(q -> 64 - Long.numberOfLeadingZeros(q))
                .toArray();
        int[] bitsP = Arrays.stream(p.pPrimes())
                .mapToInt(q -> 64 - Long.numberOfLeadingZeros(q))
                .toArray();
        return String.format(
                Locale.ROOT,
                "%s: N = 2^%d, %d slots, logQ %s, logP %s, α = %d, β = %d, log QP = %.1f — %s",
                p.name() == null ? "custom" : p.name(),
                p.logN(),
                p.slots(),
                Arrays.toString(bitsQ),
                Arrays.toString(bitsP),
                p.alpha(),
                p.beta(),
                p.logQP(),
                p.securityLabel());
    }
}
