package io.hoist.cli.options;

import picocli.CommandLine.Option;

/** The plan a command runs or makes keys for: algorithm, dimension and split. */
public final class PlanOptions {
    @Option(
            names = "--algo",
            defaultValue = "th-bsgs",
            description = "diagonal, bsgs, dh-bsgs or th-bsgs (default ${DEFAULT-VALUE})")
    public String algo;

    @Option(names = "--n", description = "matrix dimension (default: the slot count)")
    public Integer n;

    @Option(
            names = "--split",
            split = ",",
            description = "split factors, e.g. 16,16,16 (default: the fewest-keys split)")
    public int[] split;

    /** The --algo name (parse it with {@link io.hoist.lt.Algorithm#parse}). */
    public String algo() {
        return algo;
    }

    /** The --n dimension, or null when not given. */
    public Integer n() {
        return n;
    }

    /** The --split factors (a copy), or null when not given. */
    public int[] split() {
        return split == null ? null : split.clone();
    }
}
