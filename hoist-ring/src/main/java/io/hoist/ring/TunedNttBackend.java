package io.hoist.ring;

import io.hoist.ring.Kernel.Form;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code cpu}, the machine's default backend: forward and inverse transforms each in the form
 * {@link KernelChoice#machine()} chose for them (all forms bit-identical to cpu-scalar). A vector
 * transform modulo a prime below 2^31 runs {@link FmaNtt} where the JVM uses the CPU's FMA
 * instructions (at N = 2^13, 30 bits: 16.8 against 38.7 µs with AVX-512, 25 against 35 µs under
 * {@code -XX:UseAVX=2}; calibration times a 50-bit prime, which never sees this), else
 * {@link ConstantTimeNtt}'s 32-bit kernel, whose products are
 * single 32 × 32 → 64-bit lane multiplies (about twice the 64-bit kernel's speed on AVX2). In the FMA
 * form a transform modulo a prime below 2^50 runs {@link FmaNtt} (about half the 64-bit kernel's time
 * on AVX2, and faster than the 32-bit one), a larger prime the 64-bit vector kernel.
 */
public final class TunedNttBackend extends LimbNttBackend {
    public static final String NAME = "cpu";
    private final LimbNttBackend forward, inverse;
    /** Runs while the kernel warm-up compiles the vector forms ({@link KernelWarmup#nttWarm}). */
    private final LimbNttBackend scalar;

    private final Form forwardForm, inverseForm;
    private final Map<NttTables, ConstantTimeNtt> word = new ConcurrentHashMap<>();
    private final Map<NttTables, FmaNtt> fma = new ConcurrentHashMap<>();
    private final VectorNttBackend vectorTables;
    /** Whether word-sized primes run the FMA transform in the vector form (FMA instructions in use). */
    private final boolean fmaWords;

    TunedNttBackend(KernelChoice c) {
        this.forwardForm = c.form(Kernel.NTT_FORWARD);
        this.inverseForm = c.form(Kernel.NTT_INVERSE);
        LimbNttBackend scalar = (LimbNttBackend) NttBackends.scalar();
        this.scalar = scalar;
        boolean anyVector = forwardForm != Form.SCALAR || inverseForm != Form.SCALAR;
        LimbNttBackend vector = anyVector ? (LimbNttBackend) NttBackends.get(VectorNttBackend.NAME) : scalar;
        // the FMA form runs the integer vector transform for primes of 2^50 and more
        this.forward = forwardForm != Form.SCALAR ? vector : scalar;
        this.inverse = inverseForm != Form.SCALAR ? vector : scalar;
        this.vectorTables = vector instanceof VectorNttBackend v ? v : null;
        this.fmaWords = vectorTables != null && KernelCalibration.fmaUsable();
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

    /** Primes whose FMA transform this backend has made (for tests: the FMA path ran). */
    int fmaPrimes() {
        return fma.size();
    }

    /** The 32-bit kernel for a word-sized prime, or null. */
    private ConstantTimeNtt word(NttTables t) {
        if (t.q() >= 1L << ConstantTimeNtt.SMALL_BITS || t.logN() < 2) return null;
        return word.computeIfAbsent(t, x -> ConstantTimeNtt.of(x.logN(), x.q(), ConstantTimeNtt.Form.VECTOR));
    }

    /** The FMA transform for a prime below 2^50, or null. */
    private FmaNtt fma(NttTables t) {
        if (!FmaNtt.accepts(t)) return null;
        Objects.requireNonNull(vectorTables, "the FMA form runs on cpu-vector's tables");
        FmaNtt f = fma.get(t);
        return f != null ? f : fma.computeIfAbsent(t, x -> FmaNtt.of(x, vectorTables));
    }

    /** The FMA transform this form runs for t (the FMA form below 2^50, the vector form below 2^31 where FMA is in use), or null. */
    private FmaNtt fmaFor(Form form, NttTables t) {
        return runsFma(form, t.q()) ? fma(t) : null;
    }

    private boolean runsFma(Form form, long q) {
        return form == Form.FMA || (form == Form.VECTOR && fmaWords && q < 1L << ConstantTimeNtt.SMALL_BITS);
    }

    /** Whether a transform modulo q runs in FMA lanes here, in either direction (q below 2^50). */
    boolean runsFma(long q) {
        return vectorTables != null
                && q < 1L << FmaNtt.MAX_BITS
                && (runsFma(forwardForm, q) || runsFma(inverseForm, q));
    }

    /**
     * The FMA transform for t, whichever form its prime takes here: the warm-up runs every kind of its passes
     * through it ({@code KernelWarmup}). Null where t has none (prime or degree), or no FMA transform runs here.
     */
    FmaNtt fmaTransform(NttTables t) {
        boolean any = forwardForm == Form.FMA || inverseForm == Form.FMA || fmaWords;
        return vectorTables != null && any ? fma(t) : null;
    }

    @Override
    void forwardLimb(long[] a, NttTables t) {
        if (!KernelWarmup.nttWarm()) {
            scalar.forwardLimb(a, t);
            return;
        }
        FmaNtt f = fmaFor(forwardForm, t);
        if (f != null) {
            f.forward(a);
            return;
        }
        ConstantTimeNtt w = forwardForm == Form.VECTOR ? word(t) : null;
        if (w != null) w.forward(a);
        else forward.forwardLimb(a, t);
    }

    @Override
    void inverseLimb(long[] a, NttTables t) {
        if (!KernelWarmup.nttWarm()) {
            scalar.inverseLimb(a, t);
            return;
        }
        FmaNtt f = fmaFor(inverseForm, t);
        if (f != null) {
            f.inverse(a);
            return;
        }
        ConstantTimeNtt w = inverseForm == Form.VECTOR ? word(t) : null;
        if (w != null) w.inverse(a);
        else inverse.inverseLimb(a, t);
    }
}
