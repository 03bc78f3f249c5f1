package io.hoist.ring;

import io.hoist.ring.Kernel.Form;
import java.util.Objects;

/**
 * The {@link LimbKernels} of a {@link KernelChoice}: each kernel runs in the form chosen for it. All
 * forms are bit-identical, so only the time depends on the choice.
 */
public final class TunedLimbKernels implements LimbKernels {
    private final KernelChoice choice;
    private final LimbKernels dot2, sumShoup, mulShoup, subMulShoup, liftSigned, mulMod, automorphism;
    /** The scalar twins, run while the kernel warm-up compiles the vector forms ({@link KernelWarmup#vectorsWarm}). */
    private final LimbKernels scalar;

    public TunedLimbKernels(KernelChoice choice) {
        this.choice = Objects.requireNonNull(choice, "choice");
        LimbKernels scalar = new ScalarLimbKernels();
        this.scalar = scalar;
        LimbKernels vector = choice.forms().containsValue(Form.VECTOR.id()) ? new VectorLimbKernels() : scalar;
        // the FMA form covers primes in [2^31, 2^50) for dot2, below 2^50 for mulMod; the others run the integer
        // form that calibration preferred (vector unless it measured no faster than scalar)
        this.dot2 = choice.form(Kernel.DOT2) == Form.FMA
                ? withFma(choice, Kernel.DOT2)
                : pick(choice, Kernel.DOT2, scalar, vector);
        this.sumShoup = pick(choice, Kernel.SUM_SHOUP, scalar, vector);
        this.mulShoup = pick(choice, Kernel.MUL_SHOUP, scalar, vector);
        this.subMulShoup = pick(choice, Kernel.SUB_MUL_SHOUP, scalar, vector);
        this.liftSigned = pick(choice, Kernel.LIFT_SIGNED, scalar, vector);
        this.mulMod = choice.form(Kernel.MUL_MOD) == Form.FMA
                ? withFma(choice, Kernel.MUL_MOD)
                : pick(choice, Kernel.MUL_MOD, scalar, vector);
        this.automorphism = pick(choice, Kernel.AUTOMORPHISM, scalar, vector);
    }

    /** The kernels {@code k} runs on now (for tests: its form, or the scalar twin while the warm-up runs); null for the NTTs. */
    LimbKernels running(Kernel k) {
        return switch (k) {
            case NTT_FORWARD, NTT_INVERSE -> null;
            case DOT2 -> live(dot2);
            case SUM_SHOUP -> live(sumShoup);
            case MUL_SHOUP -> live(mulShoup);
            case SUB_MUL_SHOUP -> live(subMulShoup);
            case LIFT_SIGNED -> live(liftSigned);
            case MUL_MOD -> live(mulMod);
            case AUTOMORPHISM -> live(automorphism);
        };
    }

    /** {@code k}, or its scalar twin while the warm-up compiles the vector forms. */
    private LimbKernels live(LimbKernels k) {
        return KernelWarmup.vectorsWarm() ? k : scalar;
    }

    /** Kernels whose form of {@code k} is FMA for the primes it takes and, for the others, the integer form unless it lost calibration. */
    private static LimbKernels withFma(KernelChoice choice, Kernel k) {
        Double vector = choice.vectorOverScalar().get(k.id());
        return new VectorLimbKernels(true, vector != null && vector >= KernelCalibration.MARGIN);
    }

    private static LimbKernels pick(KernelChoice c, Kernel k, LimbKernels scalar, LimbKernels vector) {
        return c.form(k) == Form.VECTOR ? vector : scalar;
    }

    public KernelChoice choice() {
        return choice;
    }

    /** The kernels dot products run on (for tests: which form a choice of dot2 selected). */
    LimbKernels dot2Kernels() {
        return dot2;
    }

    @Override
    public void dot2Montgomery(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            boolean accumulate) {
        live(dot2).dot2Montgomery(x, xOff, y, z, terms, out0, out1, q, accumulate);
    }

    @Override
    public void dot2MontgomeryPacked(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            boolean accumulate) {
        live(dot2).dot2MontgomeryPacked(x, xOff, y, z, terms, out0, out1, q, accumulate);
    }

    @Override
    public void dot2MontgomeryMulti(
            long[][] x,
            long[][] y,
            long[][][] f,
            int[][] fOff,
            boolean packed,
            int terms,
            int outs,
            long[][] out0,
            long[][] out1,
            long q,
            boolean accumulate) {
        live(dot2).dot2MontgomeryMulti(x, y, f, fOff, packed, terms, outs, out0, out1, q, accumulate);
    }

    @Override
    public void mulShoup(long[] x, long w, long ws, long q, long[] out, int from, int len) {
        live(mulShoup).mulShoup(x, w, ws, q, out, from, len);
    }

    @Override
    public void sumShoup(long[][] y, int yOff, int terms, long[] w, long[] ws, long d, long[] out, int off, int len) {
        live(sumShoup).sumShoup(y, yOff, terms, w, ws, d, out, off, len);
    }

    @Override
    public void liftSigned(long[] c, long w, long ws, long q, long[] out) {
        live(liftSigned).liftSigned(c, w, ws, q, out);
    }

    @Override
    public void subMulShoup(long[] a, long[] b, long[] out, long w, long ws, long q) {
        live(subMulShoup).subMulShoup(a, b, out, w, ws, q);
    }

    @Override
    public void mulMod(long[] a, long[] b, long[] out, long q, boolean accumulate) {
        live(mulMod).mulMod(a, b, out, q, accumulate);
    }

    @Override
    public void mulModSum(long[] a0, long[] b0, long[] a1, long[] b1, long[] out, long q) {
        live(mulMod).mulModSum(a0, b0, a1, b1, out, q);
    }

    @Override
    public void automorphismNtt(long[] x, long[] y, long[] out, NttPermutation p, long q, boolean accumulate) {
        live(automorphism).automorphismNtt(x, y, out, p, q, accumulate);
    }

    @Override
    public String form() {
        return choice.forms().values().stream().distinct().count() == 1
                ? choice.form(Kernel.DOT2).id()
                : "mixed";
    }

    @Override
    public String toString() {
        return "tuned " + choice.summary();
    }
}
