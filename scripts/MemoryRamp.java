import java.util.List;
import java.util.Locale;

/**
 * MemoryRamp: how fast one thread streams over 1 GB right after a phase that did not stream from memory.
 *
 * <pre>
 *   java scripts/MemoryRamp.java [QUIET_MS] [MODE]      (add -XX:+UseTransparentHugePages to compare)
 * </pre>
 *
 * MODE is what the thread does for QUIET_MS before the timed pass: {@code cache} (sums a 10 MB array
 * that stays in the caches), {@code sleep}, {@code dram} (streams another 1 GB array, the control) or
 * {@code none}. Prints the GB/s of each 16 MB chunk of the pass and its total. On the Intel host of
 * the thirty-sixth session (a KVM guest, small pages) the pass after 1–3 s of {@code cache} or
 * {@code sleep} started at 0.4–2 GB/s and took 100–300 ms to reach full speed, with no page faults in
 * the guest: 1 GB in 272–275 ms against 169 ms right after another pass, 205 ms after {@code dram}, and
 * 236–240 against 157 ms with huge pages (docs/benchmarks.md, thirty-sixth session).
 */
public final class MemoryRamp {
    private static final int LIMB = 8192; // longs: 64 KB, a limb at N = 2^13

    private MemoryRamp() {}

    private static long sum(long[][] x, int from, int to) {
        long s = 0;
        for (int i = from; i < to; i++) {
            long[] l = x[i];
            for (long v : l) s += v;
        }
        return s;
    }

    public static void main(String[] args) throws InterruptedException {
        long quiet = args.length > 0 ? Long.parseLong(args[0]) : 3000;
        String mode = args.length > 1 ? args[1] : "cache";
        if (!List.of("cache", "sleep", "dram", "none").contains(mode))
            throw new IllegalArgumentException("mode: cache, sleep, dram or none, not " + mode);
        long[][] big = new long[16384][LIMB], other = new long["dram".equals(mode) ? 16384 : 0][LIMB];
        long[][] small = new long[160][LIMB];
        long s = 0;
        for (int k = 0; k < 20000; k++) s += sum(small, k % 150, k % 150 + 10); // C2 compiles sum first
        for (int k = 0; k < 2; k++) s += sum(big, 0, big.length);
        long end = System.nanoTime() + quiet * 1_000_000L;
        switch (mode) {
            case "cache" -> {
                while (System.nanoTime() < end) s += sum(small, 0, small.length);
            }
            case "dram" -> {
                while (System.nanoTime() < end) s += sum(other, 0, other.length);
            }
            case "sleep" -> Thread.sleep(quiet);
            case "none" -> {}
            default -> throw new AssertionError(mode);
        }
        StringBuilder rates = new StringBuilder();
        long t0 = System.nanoTime(), t = t0;
        for (int c = 0; c < 64; c++) {
            s += sum(big, c * 256, (c + 1) * 256);
            long u = System.nanoTime();
            rates.append(String.format(Locale.ROOT, "%.1f ", 16.0 / 1024 / ((u - t) / 1e9)));
            t = u;
        }
        System.out.printf(
                Locale.ROOT,
                "%s %d ms, then 1 GB in chunks of 16 MB (GB/s): %s| %.0f ms (checksum %d)%n",
                mode,
                quiet,
                rates,
                (t - t0) / 1e6,
                s & 1);
    }
}
