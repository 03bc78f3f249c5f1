package io.hoist.ring;

/**
 * Where number-theoretic transforms run: the offload interface.
 *
 * <p>One call transforms a batch of limbs in place, limb {@code i} modulo the prime of
 * {@code tables[i]}: a whole polynomial, or one key-switching digit, per call, so a device
 * backend can stream limbs and amortize its per-call latency. Inputs are in [0, q); outputs
 * are in [0, q), so every correct backend is bit-identical to every other.
 *
 * <p>Implementations must be safe to call from several threads at once.
 */
public interface NttBackend {

    /** Registry name, e.g. {@code cpu-scalar}. */
    String name();

    /** Whether this backend can transform limbs of this degree modulo this prime. */
    boolean accepts(NttTables tables);

    /**
     * Prepares per-prime state (e.g. expanded twiddle layouts) once, ahead of the first call.
     * Calling it is optional; backends prepare lazily otherwise.
     */
    default void prepare(NttTables tables) {}

    /** Forward negacyclic NTT of {@code limbs[i]} modulo {@code tables[i]} for {@code i < count}. */
    void forward(long[][] limbs, NttTables[] tables, int count);

    /** Inverse negacyclic NTT of {@code limbs[i]} modulo {@code tables[i]} for {@code i < count}. */
    void inverse(long[][] limbs, NttTables[] tables, int count);

    /** Live per-backend statistics (calls, limbs, bytes, time). */
    NttStats stats();
}
