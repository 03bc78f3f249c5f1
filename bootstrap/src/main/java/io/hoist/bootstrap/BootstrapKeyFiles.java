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
import java.util.LinkedHashMap;
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

    /**
     * Writes {@code keys} under {@code dir} (created if missing), replacing an earlier set there: every new file is
     * written beside its place first (a failure leaves the earlier set as it was), then the earlier set's stores and
     * encapsulation keys that the new set does not have are removed and the new files moved into place one by one.
     */
    public static void save(Path dir, BootstrappingKeys keys, boolean seeded) {
        Objects.requireNonNull(dir, "dir is null");
        Objects.requireNonNull(keys, "keys is null");
        Map<Path, Path> staged = new LinkedHashMap<>(); // written → its place
        try {
            Files.createDirectories(dir);
            RotationKeySet rot = keys.rotations();
            Map<Integer, List<GaloisKey>> byLevel = new TreeMap<>();
            for (long g : rot.galoisElements()) {
                GaloisKey k = rot.get(g, "Galois element " + g);
                byLevel.computeIfAbsent(k.level(), l -> new ArrayList<>()).add(k);
            }
            for (Map.Entry<Integer, List<GaloisKey>> e : byLevel.entrySet()) {
                Path tmp = stage(dir, "galois-" + e.getKey() + ".hks", staged);
                KeyStore.write(tmp, new RotationKeySet(rot.params(), e.getValue()), seeded);
            }
            Files.write(stage(dir, RELIN, staged), KeySerialization.write(keys.relinearization(), seeded));
            if (keys.toSparse() != null) {
                Files.write(
                        stage(dir, TO_SPARSE, staged),
                        KeySerialization.write(new RelinearizationKey(keys.toSparse()), seeded));
                Files.write(
                        stage(dir, TO_DENSE, staged),
                        KeySerialization.write(new RelinearizationKey(keys.toDense()), seeded));
            }
            // an earlier set's stores would mix with this one's, its encapsulation keys outlive a set without them
            try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, GALOIS_GLOB)) {
                for (Path p : old) if (!staged.containsValue(p)) Files.delete(p);
            }
            if (keys.toSparse() == null) {
                Files.deleteIfExists(dir.resolve(TO_SPARSE));
                Files.deleteIfExists(dir.resolve(TO_DENSE));
            }
            for (Map.Entry<Path, Path> e : staged.entrySet())
                Files.move(
                        e.getKey(), e.getValue(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            staged.clear();
        } catch (IOException e) {
            for (Path tmp : staged.keySet()) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new UncheckedIOException(
                    "cannot write the bootstrapping keys under " + dir + ": " + e.getMessage(), e);
        }
    }

    /** A temporary file beside {@code name} in {@code dir}, recorded in {@code staged} with its place. */
    private static Path stage(Path dir, String name, Map<Path, Path> staged) throws IOException {
        Path tmp = Files.createTempFile(dir, name, ".tmp");
        staged.put(tmp, dir.resolve(name));
        return tmp;
    }

    /**
     * The plan's Galois keys from the stores under {@code dir}, each from the lowest-level store at or above the
     * level it is used at (the smallest key that serves).
     */
    private static RotationKeySet loadGalois(Path dir, CkksContext ctx, BootstrapPlan plan) throws IOException {
        SortedMap<Long, Integer> need = plan.galoisKeyLevels();
        TreeMap<Integer, List<Path>> byLevel = new TreeMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, GALOIS_GLOB)) {
            for (Path p : ds) {
                try (KeyStore ks = KeyStore.open(p, ctx, true)) {
                    byLevel.computeIfAbsent(ks.level(), l -> new ArrayList<>()).add(p);
                }
            }
        }
        if (byLevel.isEmpty())
            throw new MissingRotationKeyException("no Galois key store (" + GALOIS_GLOB + ") under " + dir);
        Map<Long, GaloisKey> found = new TreeMap<>();
        for (List<Path> stores : byLevel.values()) {
            for (Path p : stores) {
                try (KeyStore ks = KeyStore.open(p, ctx, true)) {
                    List<Long> here = new ArrayList<>();
                    for (Map.Entry<Long, Integer> e : need.entrySet())
                        if (!found.containsKey(e.getKey()) && ks.contains(e.getKey()) && ks.level() >= e.getValue())
                            here.add(e.getKey());
                    RotationKeySet loaded = ks.load(here);
                    for (long g : here) found.put(g, loaded.get(g, "Galois element " + g));
                }
            }
        }
        for (Map.Entry<Long, Integer> e : need.entrySet())
            if (!found.containsKey(e.getKey()))
                throw new MissingRotationKeyException("no Galois key for Galois element " + e.getKey() + " at level "
                        + e.getValue() + " or above under " + dir + " (stores at levels " + byLevel.keySet() + ")");
        return new RotationKeySet(ctx.params(), found.values());
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
