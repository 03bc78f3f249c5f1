package io.hoist.cli.report;

import java.util.Locale;

/** Units of the human-readable reports. */
public final class Units {
    private Units() {}

    /** Bytes as "x.xx GiB". */
    public static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.2f GiB", bytes / (double) (1L << 30));
    }
}
