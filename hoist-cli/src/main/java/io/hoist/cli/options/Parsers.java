package io.hoist.cli.options;

import io.hoist.ckks.KeyStorage;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Storage;
import java.util.Locale;

/** The value parsers several commands share (each names the option and the values it takes). */
public final class Parsers {
    private Parsers() {}

    /** {@code --key-storage}: full or seeded. */
    public static KeyStorage keyStorage(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "full" -> KeyStorage.FULL;
            case "seeded" -> KeyStorage.SEEDED;
            default -> throw new IllegalArgumentException("--key-storage must be full or seeded, got '" + s + "'");
        };
    }

    /** {@code --storage}: precomputed or compact. */
    public static Storage storage(String s) {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "precomputed" -> Storage.PRECOMPUTED;
            case "compact" -> Storage.COMPACT;
            default -> throw new IllegalArgumentException("--storage must be precomputed or compact, got '" + s + "'");
        };
    }

    /**
     * {@code --objective} of the DFT commands ({@code ctos}, {@code bootstrap}): fewest-keys,
     * fewest-mults, budget (which needs a key budget ≥ 1) or lattigo (planned by Lattigo's rule, so
     * the objective returned is only a placeholder, and it does not combine with a joint plan).
     */
    public static Objective dftObjective(String name, int keyBudget, boolean joint) {
        String on = name.toLowerCase(Locale.ROOT);
        Objective o = switch (on) {
            case "fewest-keys", "lattigo" -> Objective.FEWEST_KEYS;
            case "fewest-mults" -> Objective.FEWEST_MULTS;
            case "budget" -> Objective.FEWEST_MULTS_UNDER_KEY_BUDGET;
            default ->
                throw new IllegalArgumentException(
                        "--objective must be fewest-keys, fewest-mults, budget or lattigo, got '" + name + "'");
        };
        if (o == Objective.FEWEST_MULTS_UNDER_KEY_BUDGET && keyBudget < 1)
            throw new IllegalArgumentException("--objective budget needs --key-budget ≥ 1");
        if (on.equals("lattigo") && joint)
            throw new IllegalArgumentException(
                    "--objective lattigo is Lattigo's per-matrix DH-BSGS rule; it does not combine with --joint");
        return o;
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
