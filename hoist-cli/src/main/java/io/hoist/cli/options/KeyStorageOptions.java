package io.hoist.cli.options;

import io.hoist.ckks.KeyStorage;
import picocli.CommandLine.Option;

/** {@code --key-storage}: how the commands that make keys hold them in memory. */
public final class KeyStorageOptions {
    @Option(
            names = "--key-storage",
            defaultValue = "full",
            description =
                    "full or seeded keys in memory: seeded holds b parts and seeds only (about half) and regenerates each a limb (AES-CTR) inside the key inner products (default ${DEFAULT-VALUE})")
    String keyStorage;

    public KeyStorage storage() {
        return Parsers.keyStorage(keyStorage);
    }
}
