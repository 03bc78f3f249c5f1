package io.hoist.bootstrap;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.KeySizes;
import io.hoist.lt.dft.DftPlan;
import io.hoist.lt.dft.DftPlanner;
import io.hoist.lt.dft.HomomorphicDft;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Objective;
import io.hoist.ring.Automorphism;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * How one bootstrapping runs, known from the parameters alone: the level of every stage, the scale
 * EvalMod works at, the constants folded into the DFTs, the plan of every DFT matrix and the exact
 * key set. Levels, bottom up: output (the residual top), SlotsToCoeffs, EvalMod, CoeffsToSlots.
 *
 * <p>Scales (docs/bootstrapping.md): after ModRaise the plaintext is t = Δ_s·m + q_0·I; the
 * ciphertext is read at the EvalMod scale S and CoeffsToSlots carries the factor S/(q_0·K), so its
 * slots hold v = t/(q_0·K). EvalMod leaves sin(2πt/q_0)/(2π) ≈ Δ_s·m/q_0 at scale S; SlotsToCoeffs
 * carries Δ·(q_0/Δ_s)/S and the output is read at Δ: the message at the user's scale. Immutable.
 */
public final class BootstrapPlan {
    private final BootstrapParameters bp;
    private final CkksParameters params;
    private final HomomorphicDft cts, stc;
    private final DftPlan ctsPlan, stcPlan;
    private final long scaleUp;
    private final String ctsAlgorithm, stcAlgorithm;
    private final boolean joint;

    private BootstrapPlan(
            BootstrapParameters bp,
            Algorithm ctsAlgo,
            Algorithm stcAlgo,
            Objective objective,
            boolean joint,
            int keyBudget) {
        this.bp = bp;
        this.params = bp.ckks();
        this.joint = joint;
        int top = params.maxLevel();
        int evalTop = top - bp.ctsDepth();
        int stcTop = evalTop - bp.evalMod().depth();
        double q0 = params.q(0);
        double delta = params.defaultScale();
        // ScaleDown as Lattigo's: the nearest integer multiple of Δ to q_0 / ratio
        this.scaleUp = Math.max(1, Math.round(q0 / (bp.evalMod().messageRatio() * delta)));
        // sparse packing: the trace after ModRaise multiplies the kept coefficients by N/(2n)
        double ctsScaling = evalModScale() / (q0 * bp.evalMod().k()) / traceFactor(bp);
        double stcScaling = delta * (q0 / (delta * scaleUp)) / evalModScale();
        int[] ctsLevels = HomomorphicDft.oneMatrixPerLevel(bp.ctsDepth());
        int[] stcLevels = HomomorphicDft.oneMatrixPerLevel(bp.stcDepth());
        this.cts = HomomorphicDft.scaled(
                HomomorphicDft.Kind.COEFFS_TO_SLOTS, bp.logN(), bp.logSlots(), ctsLevels, top, ctsScaling);
        this.stc = HomomorphicDft.scaled(
                HomomorphicDft.Kind.SLOTS_TO_COEFFS, bp.logN(), bp.logSlots(), stcLevels, stcTop, stcScaling);
        if (objective == null) {
            this.ctsPlan = DftPlanner.lattigo(cts, params, 1);
            this.stcPlan = DftPlanner.lattigo(stc, params, 1);
            this.ctsAlgorithm = this.stcAlgorithm = "lattigo";
        } else if (joint && ctsAlgo == stcAlgo) {
            List<DftPlan> both = DftPlanner.joint(List.of(cts, stc), params, ctsAlgo, objective, keyBudget);
            this.ctsPlan = both.get(0);
            this.stcPlan = both.get(1);
            this.ctsAlgorithm = name(ctsAlgo);
            this.stcAlgorithm = name(stcAlgo);
        } else {
            this.ctsPlan = joint
                    ? DftPlanner.joint(List.of(cts), params, ctsAlgo, objective, keyBudget)
                            .get(0)
                    : DftPlanner.perMatrix(cts, params, ctsAlgo, objective, keyBudget);
            this.stcPlan = joint
                    ? DftPlanner.joint(List.of(stc), params, stcAlgo, objective, keyBudget)
                            .get(0)
                    : DftPlanner.perMatrix(stc, params, stcAlgo, objective, keyBudget);
            this.ctsAlgorithm = name(ctsAlgo);
            this.stcAlgorithm = name(stcAlgo);
        }
    }

    private static String name(Algorithm a) {
        return a == null ? "any" : a.toString();
    }

    /**
     * A plan with {@code ctsAlgo} and {@code stcAlgo} (null: any) chosen by {@code objective}. With
     * {@code joint} and one algorithm for both DFTs, all their matrices are planned together so that
     * their keys are one union; with two algorithms, each DFT's matrices are planned together.
     */
    public static BootstrapPlan of(
            BootstrapParameters bp,
            Algorithm ctsAlgo,
            Algorithm stcAlgo,
            Objective objective,
            boolean joint,
            int keyBudget) {
        Objects.requireNonNull(bp, "bp is null");
        Objects.requireNonNull(objective, "objective is null (use lattigo() for Lattigo's rule)");
        return new BootstrapPlan(bp, ctsAlgo, stcAlgo, objective, joint, keyBudget);
    }

    /** TH-BSGS on every matrix, both DFTs planned jointly for the fewest keys: the default. */
    public static BootstrapPlan fewestKeys(BootstrapParameters bp) {
        return of(bp, Algorithm.TH_BSGS, Algorithm.TH_BSGS, Objective.FEWEST_KEYS, true, 0);
    }

    /** Lattigo's own choice: DH-BSGS with its BSGS-ratio rule on every matrix. */
    public static BootstrapPlan lattigo(BootstrapParameters bp) {
        Objects.requireNonNull(bp, "bp is null");
        return new BootstrapPlan(bp, null, null, null, false, 0);
    }

    public BootstrapParameters parameters() {
        return bp;
    }

    public CkksParameters ckks() {
        return params;
    }

    /** The scale EvalMod works at, 2^logScale of its primes. */
    public double evalModScale() {
        return Math.pow(2, bp.evalMod().logScale());
    }

    /** The integer the input is multiplied by at level 0 so that q_0/(Δ·k) ≥ the message ratio. */
    public long scaleUp() {
        return scaleUp;
    }

    /** Δ·k: the scale of the message inside ModRaise (q_0 / it is the effective message ratio). */
    public double raisedMessageScale() {
        return params.defaultScale() * scaleUp;
    }

    public HomomorphicDft coeffsToSlots() {
        return cts;
    }

    public HomomorphicDft slotsToCoeffs() {
        return stc;
    }

    public DftPlan coeffsToSlotsPlan() {
        return ctsPlan;
    }

    public DftPlan slotsToCoeffsPlan() {
        return stcPlan;
    }

    public String ctsAlgorithm() {
        return ctsAlgorithm;
    }

    public String stcAlgorithm() {
        return stcAlgorithm;
    }

    public boolean joint() {
        return joint;
    }

    /** Level of CoeffsToSlots' first matrix (the top). */
    public int ctsLevel() {
        return params.maxLevel();
    }

    /** Level EvalMod starts at (CoeffsToSlots' output). */
    public int evalModLevel() {
        return params.maxLevel() - bp.ctsDepth();
    }

    /** Level SlotsToCoeffs starts at (EvalMod's output). */
    public int stcLevel() {
        return evalModLevel() - bp.evalMod().depth();
    }

    /** Level of the bootstrapped output. */
    public int outputLevel() {
        return stcLevel() - bp.stcDepth();
    }

    /**
     * Every level a bootstrap switches keys at: the DFTs' and EvalMod's levels above the output, and level 0
     * with encapsulation (the switch to the sparse key). For {@code CkksContext.startKernelWarmup(int[])}.
     */
    public int[] keySwitchLevels() {
        return IntStream.concat(
                        bp.encapsulation() ? IntStream.of(0) : IntStream.empty(),
                        IntStream.rangeClosed(outputLevel() + 1, ctsLevel()))
                .toArray();
    }

    /** The Galois elements of both DFTs and the trace, conjugation included (CoeffsToSlots splits real and imaginary parts with it). */
    public SortedSet<Long> galoisElements() {
        TreeSet<Long> all = new TreeSet<>(DftPlan.union(ImmutableList.of(ctsPlan, stcPlan)));
        all.addAll(traceElements());
        return ImmutableSortedSet.copyOf(all);
    }

    /**
     * Each Galois element of {@link #galoisElements()} with the highest level it switches keys at, the level its key
     * is generated at (a key serves every level at or below its own, and one below the top is smaller: at boot16 a
     * SlotsToCoeffs key at level 12 holds 108 limbs against 300 at the top). CoeffsToSlots' matrices at their levels,
     * its conjugation at its output level, SlotsToCoeffs' matrices at theirs, the trace at the top.
     */
    public SortedMap<Long, Integer> galoisKeyLevels() {
        TreeMap<Long, Integer> at = new TreeMap<>();
        for (DftPlan p : List.of(ctsPlan, stcPlan))
            for (int i = 0; i < p.plans().size(); i++) {
                int level = p.dft().levels().get(i);
                for (long g : p.galoisElements(i)) at.merge(g, level, Math::max);
            }
        if (ctsPlan.needsConjugation()) at.merge(params.galoisElementForConjugation(), evalModLevel(), Math::max);
        for (long g : traceElements()) at.merge(g, ctsLevel(), Math::max);
        return ImmutableSortedMap.copyOfSorted(at);
    }

    /**
     * Sparse packing: after ModRaise, q_0·I fills every coefficient while the DFT reads only the
     * multiples of N/(2n). The trace Σ σ_a over a = 5^{n·i} (the automorphisms fixing X^{N/(2n)})
     * keeps those, times N/(2n), and zeroes the rest: log2(N/(2n)) steps ct += σ_{5^{n·2^j}}(ct).
     */
    public List<Long> traceElements() {
        List<Long> out = new ArrayList<>();
        int n = 1 << bp.logSlots();
        for (long step = n; step < (long) params.n() / 2; step <<= 1)
            out.add(Automorphism.galoisElement(params.logN(), step));
        return ImmutableList.copyOf(out);
    }

    private static double traceFactor(BootstrapParameters bp) {
        return Math.pow(2, bp.logN() - 1 - bp.logSlots());
    }

    /** Rotation keys (Galois elements other than the conjugation). */
    public int rotationKeys() {
        return galoisElements().size() - (galoisElements().contains(params.galoisElementForConjugation()) ? 1 : 0);
    }

    /** The highest level a relinearization happens at (EvalMod's first product). */
    public int relinearizationLevel() {
        return evalModLevel();
    }

    /**
     * Bytes of every key the plan needs, before generating any: Galois keys at their levels ({@link
     * #galoisKeyLevels()}), relinearization at EvalMod's level, the two encapsulation keys.
     */
    public KeySizes keySizes() {
        KeySizes all = galoisKeySizes();
        all = all.plus(switching(relinearizationLevel()));
        if (bp.encapsulation()) {
            all = all.plus(switching(0));
            all = all.plus(switching(params.maxLevel()));
        }
        return all;
    }

    /** Bytes of the Galois keys, each at its level ({@link #galoisKeyLevels()}). */
    public KeySizes galoisKeySizes() {
        KeySizes all = new KeySizes(0, 0);
        for (int level : galoisKeyLevels().values()) all = all.plus(switching(level));
        return all;
    }

    private KeySizes switching(int level) {
        return KeySizes.switchingKey(params.beta(level), level + 1 + params.alpha(), params.n());
    }

    /** Lattigo's qDiff = q_0 / 2^round(log2 q_0). */
    public double lattigoQDiff() {
        double q0 = params.q(0);
        return q0 / Math.pow(2, Math.round(Math.log(q0) / Math.log(2)));
    }

    /** Lattigo's CtS scaling qDiv/(K·qDiff), qDiv = min(1, 2^EvalModLogScale / 2^round(log2 q_0)). */
    public double lattigoCtsScaling() {
        double q0 = params.q(0);
        double qDiv = Math.min(1, evalModScale() / Math.pow(2, Math.round(Math.log(q0) / Math.log(2))));
        return qDiv / (bp.evalMod().k() * lattigoQDiff());
    }

    /** Lattigo's StC scaling Δ / (2^EvalModLogScale / messageRatio). */
    public double lattigoStcScaling() {
        return params.defaultScale() / (evalModScale() / bp.evalMod().messageRatio());
    }

    @Override
    public String toString() {
        return "BootstrapPlan[" + bp.name() + ", CtS " + ctsAlgorithm + " at " + ctsLevel() + ", EvalMod at "
                + evalModLevel() + ", StC " + stcAlgorithm + " at " + stcLevel() + ", output level " + outputLevel()
                + ", " + galoisElements().size() + " Galois keys]";
    }
}
