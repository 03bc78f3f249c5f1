package io.hoist.ring;

/**
 * A backend shipped in a package of its own (the simulated FPGA, a future GPU one), found by
 * {@link java.util.ServiceLoader} so that the registry does not depend on it: listed in
 * {@code META-INF/services/io.hoist.ring.NttBackendProvider}.
 */
public interface NttBackendProvider {
    /** The backend's name in the registry. */
    String name();

    /** A new instance (the registry keeps one). */
    NttBackend create();
}
