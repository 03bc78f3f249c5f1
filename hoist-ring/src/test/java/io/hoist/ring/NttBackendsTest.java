package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NttBackendsTest {
    @Test
    void aTakenNameCannotBeRegisteredAgain() {
        NttBackend scalar = NttBackends.scalar();
        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> NttBackends.register("CPU-SCALAR", ScalarNttBackend::new));
        assertTrue(e.getMessage().contains("'cpu-scalar' is registered already"), e.getMessage());
        assertSame(scalar, NttBackends.get("cpu-scalar"), "the registered backend is unchanged");
        NttBackends.register("test-scalar-twin", ScalarNttBackend::new);
        assertThrows(
                IllegalStateException.class, () -> NttBackends.register("test-scalar-twin", ScalarNttBackend::new));
        assertTrue(NttBackends.names().contains("test-scalar-twin"));
    }
}
