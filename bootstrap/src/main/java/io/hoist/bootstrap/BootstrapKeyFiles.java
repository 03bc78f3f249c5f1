package io.hoist.bootstrap;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.RelinearizationKey;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SwitchingKey;
import io.hoist.ckks.io.KeySerialization;
import io.hoist.ckks.io.KeyStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;

/**
 * A {@link BootstrappingKeys} set on disk, in a directory: the Galois keys in the existing key store
 * ({@code galois.hks}, full or seeded), the relinearization key and the two encapsulation keys in
 * the switching-key format of {@link KeySerialization} ({@code relinearization.hkey},
 * {@code to-sparse.hkey}, {@code to-dense.hkey}). Opening maps the store and loads only the Galois
 * keys the plan names.
 */
public final class BootstrapKeyFiles {
    static final String GALOIS = "galois.hks", RELIN = "relinearization.hkey";
    static final String TO_SPARSE = "to-sparse.hkey", TO_DENSE = "to-dense.hkey";

    private BootstrapKeyFiles() {}

    /** Writes {@code keys} under {@code dir} (created if missing). */
    public static void save(Path dir, BootstrappingKeys keys, boolean seeded) {
        Objects.requireNonNull(dir, "dir is null");
        Objects.requireNonNull(keys, "keys is null");
        try {
            Files.createDirectories(dir);
            KeyStore.write(dir.resolve(GALOIS), keys.rotations(), seeded);
            Files.write(dir.resolve(RELIN), KeySerialization.write(keys.relinearization(), seeded));
            if (keys.toSparse() != null) {
                Files.write(
                        dir.resolve(TO_SPARSE),
                        KeySerialization.write(new RelinearizationKey(keys.toSparse()), seeded));
                Files.write(
                        dir.resolve(TO_DENSE), KeySerialization.write(new RelinearizationKey(keys.toDense()), seeded));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot write the bootstrapping keys under " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void writeAtomically(Path target, byte[] data) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
        try {
            Files.write(tmp, data);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * The keys {@code plan} needs, read from {@code dir}: the Galois keys loaded from the mapped store
     * one by one (the store may hold more), the other keys read whole.
     *
     * @throws io.hoist.ckks.MissingRotationKeyException if the store lacks a Galois key of the plan
     * @throws MissingEncapsulationKeyException if a plan with encapsulation finds no encapsulation keys
     */
    public static BootstrappingKeys open(Path dir, CkksContext ctx, BootstrapPlan plan) {
        Objects.requireNonNull(dir, "dir is null");
        Objects.requireNonNull(ctx, "ctx is null");
        Objects.requireNonNull(plan, "plan is null");
        try {
            RotationKeySet rot;
            try (KeyStore ks = KeyStore.open(dir.resolve(GALOIS), ctx, true)) {
                rot = ks.load(plan.galoisElements()); // names the first element the store lacks
            }
            RelinearizationKey rlk =
                    KeySerialization.readRelinearizationKey(Files.readAllBytes(dir.resolve(RELIN)), ctx);
            SwitchingKey toSparse = null, toDense = null;
            if (plan.parameters().encapsulation()) {
                if (!Files.exists(dir.resolve(TO_SPARSE)) || !Files.exists(dir.resolve(TO_DENSE)))
                    throw new MissingEncapsulationKeyException("the plan switches to an ephemeral sparse secret but "
                            + dir + " holds no encapsulation keys");
                toSparse = KeySerialization.readRelinearizationKey(Files.readAllBytes(dir.resolve(TO_SPARSE)), ctx)
                        .key();
                toDense = KeySerialization.readRelinearizationKey(Files.readAllBytes(dir.resolve(TO_DENSE)), ctx)
                        .key();
            }
            return new BootstrappingKeys(rot, rlk, toSparse, toDense);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the bootstrapping keys under " + dir + ": " + e.getMessage(), e);
        }
    }
}
