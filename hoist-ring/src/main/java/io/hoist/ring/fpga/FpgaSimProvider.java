package io.hoist.ring.fpga;

import io.hoist.ring.NttBackend;
import io.hoist.ring.NttBackendProvider;

/** Registers {@code fpga-sim} with the backend registry (a service, so that io.hoist.ring does not depend on this package). */
public final class FpgaSimProvider implements NttBackendProvider {
    @Override
    public String name() {
        return FpgaSimBackend.NAME;
    }

    @Override
    public NttBackend create() {
        return new FpgaSimBackend();
    }
}
