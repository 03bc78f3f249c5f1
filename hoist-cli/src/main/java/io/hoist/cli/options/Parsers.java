package io.hoist.cli.options;

import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Storage;
import java.util.Locale;

/** The value parsers several commands share (each names the option and the values it takes). */
public final class Parsers {
    private Parsers() {}

    /** {@code --storage}: precomputed or compact. */
    public static Storage storage(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "precomputed" -> Storage.PRECOMPUTED;
            case "compact" -> Storage.COMPACT;
            default -> throw new IllegalArgumentException("--storage must be precomputed or compact, got '" + s + "'");
        };
    }

    /** {@code --objective}: fewest-keys or fewest-mults. */
    public static Objective objective(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "fewest-keys" -> Objective.FEWEST_KEYS;
            case "fewest-mults" -> Objective.FEWEST_MULTS;
            default -> throw new IllegalArgumentException("--objective must be fewest-keys or fewest-mults");
        };
    }
}
