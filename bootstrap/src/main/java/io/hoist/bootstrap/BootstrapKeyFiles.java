package io.hoist.bootstrap;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.MissingRotationKeyException;
import io.hoist.ckks.RelinearizationKey;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SwitchingKey;
import io.hoist.ckks.io.KeySerialization;
import io.hoist.ckks.io.KeyStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A {@link BootstrappingKeys} set on disk, in a directory: the Galois keys in key stores, one per level the keys
 * were generated at ({@code galois-L.hks}, full or seeded: a store holds keys of one level), the relinearization
 * key and the two encapsulation keys in the switching-key format of {@link KeySerialization} ({@code
 * relinearization.hkey}, {@code to-sparse.hkey}, {@code to-dense.hkey}). Opening maps the stores and loads only the
 * Galois keys the plan names, each from a store at or above the level the plan uses it at; a directory written
 * before the keys had levels of their own ({@code galois.hks}, every key at the top) opens too.
 */
public final class BootstrapKeyFiles {
    static final String GALOIS_GLOB = "galois*.hks", RELIN = "relinearization.hkey";
    static final String TO_SPARSE = "to-sparse.hkey", TO_DENSE = "to-dense.hkey";

    private BootstrapKeyFiles() {}

    /** Writes {@code keys} under {@code dir} (created if missing). */
    public static void save(Path dir, BootstrappingKeys keys, boolean seeded) {
        Objects.requireNonNull(dir, "dir is null");
        Objects.requireNonNull(keys, "keys is null");
        try {
            Files.createDirectories(dir);
            try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, GALOIS_GLOB)) {
                for (Path p : old) Files.delete(p); // an earlier set's stores would mix with this one's
            }
            RotationKeySet rot = keys.rotations();
            Map<Integer, List<GaloisKey>> byLevel = new TreeMap<>();
            for (long g : rot.galoisElements()) {
                GaloisKey k = rot.get(g, "Galois element " + g);
                byLevel.computeIfAbsent(k.level(), l -> new ArrayList<>()).add(k);
            }
            for (Map.Entry<Integer, List<GaloisKey>> e : byLevel.entrySet())
                KeyStore.write(
                        dir.resolve("galois-" + e.getKey() + ".hks"),
                        new RotationKeySet(rot.params(), e.getValue()),
                        seeded);
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

    /** The plan's Galois keys from the stores under {@code dir}, each from one at or above the level it is used at. */
    private static RotationKeySet loadGalois(Path dir, CkksContext ctx, BootstrapPlan plan) throws IOException {
        SortedMap<Long, Integer> need = plan.galoisKeyLevels();
        List<Path> stores = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, GALOIS_GLOB)) {
            for (Path p : ds) stores.add(p);
        }
        Collections.sort(stores);
        Map<Long, GaloisKey> found = new TreeMap<>();
        int[] levels = new int[stores.size()];
        for (int i = 0; i < stores.size(); i++) {
            try (KeyStore ks = KeyStore.open(stores.get(i), ctx, true)) {
                levels[i] = ks.level();
                List<Long> here = new ArrayList<>();
                for (Map.Entry<Long, Integer> e : need.entrySet())
                    if (!found.containsKey(e.getKey()) && ks.contains(e.getKey()) && ks.level() >= e.getValue())
                        here.add(e.getKey());
                RotationKeySet loaded = ks.load(here);
                for (long g : here) found.put(g, loaded.get(g, "Galois element " + g));
            }
        }
        for (Map.Entry<Long, Integer> e : need.entrySet())
            if (!found.containsKey(e.getKey()))
                throw new MissingRotationKeyException("no Galois key for Galois element " + e.getKey() + " at level "
                        + e.getValue() + " or above under " + dir + " (stores at levels " + Arrays.toString(levels)
                        + ")");
        return new RotationKeySet(ctx.params(), found.values());
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
            RotationKeySet rot = loadGalois(dir, ctx, plan);
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
