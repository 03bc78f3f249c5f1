package io.hoist.ring;

import io.hoist.math.Primes;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The backend registry: backends by name, one shared instance each, and the machine default.
 *
 * <p>The default is {@code cpu}: forward and inverse transforms each in the form (scalar, vector or FMA)
 * that {@link KernelChoice#machine()} measured faster on this machine, when the Vector API module is
 * present and a self-check transform of {@code cpu-vector} matches {@code cpu-scalar} bit for bit;
 * {@code cpu-scalar} otherwise. It can be forced with the system property {@code hoist.backend}.
 */
public final class NttBackends {
    private NttBackends() {}

    private static final Map<String, Supplier<NttBackend>> FACTORIES = new ConcurrentHashMap<>();
    private static final Map<String, NttBackend> INSTANCES = new ConcurrentHashMap<>();

    static {
        FACTORIES.put(ScalarNttBackend.NAME, ScalarNttBackend::new);
        FACTORIES.put(VectorNttBackend.NAME, VectorNttBackend::new);
        FACTORIES.put(TunedNttBackend.NAME, () -> new TunedNttBackend(KernelChoice.machine()));
        for (NttBackendProvider p : ServiceLoader.load(NttBackendProvider.class, NttBackends.class.getClassLoader())) {
            FACTORIES.putIfAbsent(p.name().toLowerCase(Locale.ROOT), p::create);
        }
    }

    /**
     * Registers a further backend (e.g. a device simulator) under a new name; the built-in backends
     * and every name registered before stay as they are.
     *
     * @throws IllegalStateException if the name is taken (a second registration would silently
     *     change what every later {@link #get} of that name returns)
     */
    public static void register(String name, Supplier<NttBackend> factory) {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(factory, "factory is null");
        String key = name.toLowerCase(Locale.ROOT).trim();
        if (key.isEmpty()) throw new IllegalArgumentException("a backend needs a name");
        if (FACTORIES.putIfAbsent(key, factory) != null) {
            throw new IllegalStateException(
                    "an NTT backend named '" + key + "' is registered already; choose another name");
        }
    }

    /** Names of the registered backends, in a stable order. */
    public static List<String> names() {
        return FACTORIES.keySet().stream().sorted().toList();
    }

    /** The shared instance of the named backend. */
    public static NttBackend get(String name) {
        String key = name.toLowerCase(Locale.ROOT).trim();
        Supplier<NttBackend> f = FACTORIES.get(key);
        if (f == null) {
            throw new IllegalArgumentException(
                    "unknown NTT backend '" + name + "'; known: " + String.join(", ", names()));
        }
        try {
            return INSTANCES.computeIfAbsent(key, k -> f.get());
        } catch (LinkageError e) {
            throw new IllegalStateException(
                    "backend " + key + " is not available in this JVM (for cpu-vector start Java 25+ with "
                            + "--add-modules jdk.incubator.vector): " + e,
                    e);
        }
    }

    public static NttBackend scalar() {
        return get(ScalarNttBackend.NAME);
    }

    private static volatile NttBackend defaultBackend;

    /** The fastest correct backend on this machine (see class comment). */
    public static NttBackend defaultBackend() {
        NttBackend d = defaultBackend;
        if (d == null) {
            synchronized (NttBackends.class) {
                if (defaultBackend == null) defaultBackend = chooseDefault();
                d = defaultBackend;
            }
        }
        return d;
    }

    private static NttBackend chooseDefault() {
        String forced = System.getProperty("hoist.backend");
        if (forced != null && !forced.isBlank()) return get(forced);
        try {
            if (!KernelCalibration.vectorUsable() || !selfCheck(get(VectorNttBackend.NAME))) return scalar();
            return get(TunedNttBackend.NAME);
        } catch (RuntimeException | LinkageError e) {
            return scalar();
        }
    }

    /** A small forward/inverse round trip compared with cpu-scalar. */
    private static boolean selfCheck(NttBackend candidate) {
        NttTables t = NttTables.of(10, Primes.nttPrimes(10, 55, 1).get(0));
        long[] a = new long[t.n()];
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < a.length; i++) a[i] = r.nextLong(t.q());
        long[] b = a.clone();
        candidate.forward(new long[][] {a}, new NttTables[] {t}, 1);
        scalar().forward(new long[][] {b}, new NttTables[] {t}, 1);
        if (!Arrays.equals(a, b)) return false;
        candidate.inverse(new long[][] {a}, new NttTables[] {t}, 1);
        scalar().inverse(new long[][] {b}, new NttTables[] {t}, 1);
        return Arrays.equals(a, b);
    }
}
