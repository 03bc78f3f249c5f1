package io.hoist.ckks;

import com.google.common.collect.ImmutableList;
import it.unimi.dsi.fastutil.longs.Long2ObjectMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectMaps;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import it.unimi.dsi.fastutil.longs.LongArrayList;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/** Galois keys by Galois element: exactly the keys generated, immutable. */
public final class RotationKeySet {
    private final CkksParameters params;
    private final Long2ObjectMap<GaloisKey> keys;

    public RotationKeySet(CkksParameters params, Collection<GaloisKey> keys) {
        this.params = Objects.requireNonNull(params, "params is null");
        Objects.requireNonNull(keys, "keys is null");
        Long2ObjectOpenHashMap<GaloisKey> m = new Long2ObjectOpenHashMap<>();
        for (GaloisKey k : keys) {
            if (!k.key().params().equals(params))
                throw new ParameterMismatchException(
                        "Galois key for g=" + k.galoisElement() + " was made under other parameters");
            if (m.put(k.galoisElement(), k) != null)
                throw new WrongOperandException("two keys for Galois element " + k.galoisElement());
        }
        this.keys = Long2ObjectMaps.unmodifiable(m);
    }

    public static RotationKeySet empty(CkksParameters params) {
        return new RotationKeySet(params, List.of());
    }

    public CkksParameters params() {
        return params;
    }

    public boolean contains(long galoisElement) {
        return keys.containsKey(galoisElement);
    }

    /** The key for g, or a {@link MissingRotationKeyException} naming {@code what} (e.g. "rotation by 3"). */
    public GaloisKey get(long galoisElement, String what) {
        GaloisKey k = keys.get(galoisElement);
        if (k == null) {
            throw new MissingRotationKeyException(
                    "no Galois key for " + what + " (Galois element " + galoisElement + "); generated: "
                            + (keys.isEmpty() ? "none" : galoisElements().toString()));
        }
        return k;
    }

    /**
     * The key that rotates slots left by {@code k}, or a {@link MissingRotationKeyException} naming the
     * rotation; the name is built only then (an evaluation asks for every key of its program).
     */
    public GaloisKey forRotation(int k) {
        long g = params.galoisElementForRotation(k);
        GaloisKey key = keys.get(g);
        return key != null ? key : get(g, "rotation by " + k);
    }

    /** The Galois elements held, sorted. */
    public List<Long> galoisElements() {
        LongArrayList l = new LongArrayList(keys.keySet());
        l.sort(null);
        return ImmutableList.copyOf(l);
    }

    public int size() {
        return keys.size();
    }

    /** The same keys held as {@code storage} (see {@link SwitchingKey#withStorage}). */
    public RotationKeySet withStorage(KeyStorage storage) {
        List<GaloisKey> out = new ArrayList<>(keys.size());
        for (GaloisKey k : keys.values())
            out.add(new GaloisKey(k.galoisElement(), k.key().withStorage(storage)));
        return new RotationKeySet(params, out);
    }

    /** Bytes the keys hold in memory under their storage (seeded keys: b parts and seeds only). */
    public long memoryBytes() {
        long b = 0;
        for (GaloisKey k : keys.values()) b += k.key().memoryBytes();
        return b;
    }

    /** Full and seeded sizes of the keys, whatever their storage. */
    public KeySizes sizes() {
        KeySizes s = KeySizes.ZERO;
        for (GaloisKey k : keys.values()) s = s.plus(k.key().sizes());
        return s;
    }
}
