package io.hoist.ring;

import io.hoist.ring.Kernel.Form;

/**
 * {@code cpu}, the machine's default backend: forward and inverse transforms each in the form
 * {@link KernelChoice#machine()} chose for them (all forms bit-identical to cpu-scalar).
 */
public final class TunedNttBackend extends LimbNttBackend {
    public static final String NAME = "cpu";
    private final LimbNttBackend forward, inverse;
    private final Form forwardForm, inverseForm;

    TunedNttBackend(KernelChoice c) {
        this.forwardForm = c.form(Kernel.NTT_FORWARD);
        this.inverseForm = c.form(Kernel.NTT_INVERSE);
        LimbNttBackend scalar = (LimbNttBackend) NttBackends.scalar();
        boolean anyVector = forwardForm == Form.VECTOR || inverseForm == Form.VECTOR;
        LimbNttBackend vector = anyVector ? (LimbNttBackend) NttBackends.get(VectorNttBackend.NAME) : scalar;
        this.forward = forwardForm == Form.VECTOR ? vector : scalar;
        this.inverse = inverseForm == Form.VECTOR ? vector : scalar;
    }

    /** The form of the forward ({@code true}) or inverse transform. */
    public Form form(boolean forwardDirection) {
        return forwardDirection ? forwardForm : inverseForm;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean accepts(NttTables tables) {
        return forward.accepts(tables) && inverse.accepts(tables);
    }

    @Override
    public void prepare(NttTables tables) {
        forward.prepare(tables);
        inverse.prepare(tables);
    }

    @Override
    void forwardLimb(long[] a, NttTables t) {
        forward.forwardLimb(a, t);
    }

    @Override
    void inverseLimb(long[] a, NttTables t) {
        inverse.inverseLimb(a, t);
    }
}
