package io.hoist.cli.options;

import io.hoist.lt.plan.Storage;
import picocli.CommandLine.Option;

/** {@code --storage}: how the commands that encode diagonals hold them (lt has its own, block-aware default). */
public final class DiagonalStorageOptions {
    @Option(
            names = "--storage",
            defaultValue = "precomputed",
            description =
                    "diagonals as precomputed QP limbs or compact (one word per coefficient) (default ${DEFAULT-VALUE})")
    String storage;

    public Storage storage() {
        return Parsers.storage(storage);
    }
}
