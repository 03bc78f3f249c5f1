package io.hoist.bootstrap;

import com.google.common.collect.ImmutableMap;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.InvalidScaleException;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.MissingRelinearizationKeyException;
import io.hoist.ckks.MissingRotationKeyException;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.Progress;
import io.hoist.ckks.Scratch;
import io.hoist.lt.dft.DftEvaluator;
import io.hoist.lt.dft.DftResult;
import io.hoist.lt.dft.EncodedDft;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.Parallel;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Bootstraps CKKS ciphertexts: ScaleDown → (switch to the ephemeral sparse secret) → ModRaise →
 * (switch back) → CoeffsToSlots → EvalMod (on the real and imaginary halves, or once when sparse) →
 * SlotsToCoeffs, each DFT matrix evaluated with its plan's algorithm. The output is at
 * {@link BootstrapPlan#outputLevel} and the input's scale. The constructor checks every key of the
 * plan before encoding anything, then encodes the DFT matrices once. Thread-safe.
 */
public final class Bootstrapper {
    private final CkksContext ctx;
    private final BootstrapPlan plan;
    private final BootstrappingKeys keys;
    private final Evaluator ev;
    private final DftEvaluator dft;
    private final EvalMod evalMod;
    private final EncodedDft cts, stc;

    /** Per-stage wall time in milliseconds. */
    public record Millis(double scaleDown, double modRaise, double cts, double evalMod, double stc, double total) {}

    /**
     * The bootstrapped ciphertext, the stages' times and the counts of this call alone ({@link OpCounters#count}:
     * other bootstraps running on the same context meanwhile are not included).
     */
    public record Result(Ciphertext output, Millis millis, Map<Op, Long> counts) {
        public Result {
            counts = ImmutableMap.copyOf(counts);
        }
    }

    /**
     * @throws MissingRotationKeyException if a Galois key of the plan is missing (named, before any work)
     */
    public Bootstrapper(
            CkksContext ctx, BootstrapPlan plan, BootstrappingKeys keys, Storage storage, Progress progress) {
        this.ctx = Objects.requireNonNull(ctx, "ctx is null");
        this.plan = Objects.requireNonNull(plan, "plan is null");
        this.keys = Objects.requireNonNull(keys, "keys is null");
        Objects.requireNonNull(storage, "storage is null");
        if (!ctx.params().equals(plan.ckks()))
            throw new ParameterMismatchException("context and plan differ in parameters");
        if (!keys.rotations().params().equals(plan.ckks()))
            throw new ParameterMismatchException("keys made under other parameters than the plan's");
        checkKeys(plan, keys);
        this.ev = new Evaluator(ctx, keys.relinearization(), keys.rotations());
        this.dft = new DftEvaluator(ctx, keys.rotations(), Schedule.direct());
        this.evalMod = new EvalMod(ev, plan.parameters().evalMod());
        Progress p = progress == null ? Progress.NONE : progress;
        int all = plan.coeffsToSlots().matrices().stream()
                        .mapToInt(m -> m.diagonalCount())
                        .sum()
                + plan.slotsToCoeffs().matrices().stream()
                        .mapToInt(m -> m.diagonalCount())
                        .sum();
        int ctsCount = plan.coeffsToSlots().matrices().stream()
                .mapToInt(m -> m.diagonalCount())
                .sum();
        this.cts = dft.encode(plan.coeffsToSlotsPlan(), storage, (d, n) -> p.step(d, all));
        this.stc = dft.encode(plan.slotsToCoeffsPlan(), storage, (d, n) -> p.step(ctsCount + d, all));
        // the basis conversions of every level a bootstrap switches keys at, built here and not in the first
        // bootstrap: their BigInteger arithmetic there had C2 compile modInverse for 0.28 s beside it (boot14)
        for (int level : plan.keySwitchLevels()) ctx.prepareKeySwitching(level);
    }

    /**
     * Every Galois element of the plan present at or above the level the plan uses it at, the relinearization key deep
     * enough, the encapsulation keys there if asked.
     */
    static void checkKeys(BootstrapPlan plan, BootstrappingKeys keys) {
        var params = plan.ckks();
        for (Map.Entry<Long, Integer> e : plan.galoisKeyLevels().entrySet()) {
            long g = e.getKey();
            String what = g == params.galoisElementForConjugation() ? "the conjugation" : nameOf(params, g);
            if (!keys.rotations().contains(g))
                throw new MissingRotationKeyException("bootstrapping needs the Galois key for " + what
                        + " (Galois element " + g + "), which the key set does not hold");
            int level = keys.rotations().get(g, what).level();
            if (level < e.getValue())
                throw new LevelMismatchException("the Galois key for " + what + " (Galois element " + g
                        + ") is made at level " + level + "; bootstrapping switches with it at level " + e.getValue());
        }
        if (keys.relinearization().key().level() < plan.relinearizationLevel())
            throw new MissingRelinearizationKeyException("the relinearization key is made at level "
                    + keys.relinearization().key().level() + "; EvalMod multiplies at level "
                    + plan.relinearizationLevel());
        if (plan.parameters().encapsulation()) {
            if (keys.toSparse() == null)
                throw new MissingEncapsulationKeyException(
                        "the plan switches to an ephemeral sparse secret but the key set holds no encapsulation keys");
            if (!keys.toSparse().params().equals(params)
                    || !keys.toDense().params().equals(params))
                throw new ParameterMismatchException("encapsulation keys made under other parameters");
            if (keys.toDense().level() < plan.ctsLevel())
                throw new MissingEncapsulationKeyException("the key back to the main secret is made at level "
                        + keys.toDense().level() + "; it switches at level " + plan.ctsLevel());
        }
    }

    /** "rotation by k" for g = 5^k with k below the slots, the sparse trace's "automorphism 5^k" past them. */
    static String nameOf(CkksParameters params, long g) {
        long twoN = 2L * params.n(), power = 1;
        for (int k = 1; k < params.n() / 2; k++) {
            power = power * 5 % twoN;
            if (power == g) return k < params.slots() ? "rotation by " + k : "the trace automorphism 5^" + k;
        }
        return "the automorphism";
    }

    public BootstrapPlan plan() {
        return plan;
    }

    /**
     * Bytes the limb pools hold between bootstraps (idle and lent): the transforms' buffers, the key-switching
     * temporaries and EvalMod's intermediate ciphertexts, which later bootstraps borrow instead of allocating.
     */
    public long pooledBytes() {
        return ev.pooledBytes() + dft.pooledBytes();
    }

    /** Bytes of the encoded DFT matrices. */
    public long diagonalBytes() {
        return cts.memoryBytes() + stc.memoryBytes();
    }

    /**
     * Bootstraps {@code ct} (any level; dropped to level 0 first) whose scale is the parameters' Δ:
     * the same message at {@link BootstrapPlan#outputLevel}.
     */
    public Result bootstrap(Ciphertext ct) {
        Objects.requireNonNull(ct, "ct is null");
        if (!ct.params().equals(plan.ckks()))
            throw new ParameterMismatchException("ciphertext made under other parameters");
        OpCounters.Counted<Result> r = OpCounters.count(() -> run(ct));
        return new Result(r.value().output(), r.value().millis(), r.counts());
    }

    private Result run(Ciphertext ct) {
        // every intermediate ciphertext of the stages below in pooled limbs, given back once read; only the output
        // leaves
        try (Scratch scratch = ev.scratch()) {
            return run(ct, scratch);
        }
    }

    private Result run(Ciphertext ct, Scratch scratch) {
        long t0 = System.nanoTime();
        Ciphertext x = ct.level() == 0 ? ct : ev.atLevel(ct, 0);
        // ScaleDown: the nearest integer k to the planned Δ·k / scale, and the output scale corrected by what is left
        double want = plan.raisedMessageScale();
        long k = Math.round(want / x.scale());
        if (k < 1 || x.scale() > want * (1 + 1e-9))
            throw new InvalidScaleException("the input's scale 2^" + log2(x.scale())
                    + " is above the bootstrapping's 2^" + log2(want) + " (q_0 over the message ratio)");
        double raised = x.scale() * k;
        if (k > 1) x = ev.mulInteger(x, k);
        boolean encapsulate = plan.parameters().encapsulation(); // the plan decides, not which keys came along
        if (encapsulate) x = ev.switchKeys(x, keys.toSparse(), scratch);
        long t1 = System.nanoTime();
        x = next(scratch, x, ModRaise.raise(ctx, x, plan.ctsLevel(), plan.evalModScale(), scratch));
        if (encapsulate) x = next(scratch, x, ev.switchKeys(x, keys.toDense(), scratch));
        for (long g : plan.traceElements()) x = next(scratch, x, ev.add(x, ev.automorphism(x, g)));
        long t2 = System.nanoTime();
        DftResult slots = dft.coeffsToSlots(x, cts, scratch);
        next(scratch, x, null);
        long t3 = System.nanoTime();
        // the real and imaginary halves are independent: on as many threads as halves, one per thread, each EvalMod's
        // steps on its thread alone (no section waits for the slower thread); on more threads every step splits over
        // all of them, as it does with one half (nested sections would run in place: two threads of many)
        List<Ciphertext> halves = slots.outputs();
        Ciphertext[] reduced = new Ciphertext[halves.size()];
        int threads = ctx.engine().threads();
        if (threads == halves.size())
            Parallel.forEach(
                    threads,
                    halves.size(),
                    i -> reduced[i] = evalMod.apply(halves.get(i), plan.evalModScale(), scratch));
        else
            for (int i = 0; i < reduced.length; i++)
                reduced[i] = evalMod.apply(halves.get(i), plan.evalModScale(), scratch);
        for (Ciphertext h : halves) next(scratch, h, null);
        long t4 = System.nanoTime();
        Ciphertext out =
                dft.slotsToCoeffs(List.of(reduced), stc, scratch).outputs().get(0);
        if (scratch.holds(out)) scratch.keep(out); // the caller's
        for (Ciphertext r : reduced) next(scratch, r, null);
        // read at Δ (times what ScaleDown's rounding left): the message itself
        out = ev.withScale(out, plan.ckks().defaultScale() * raised / want);
        long t5 = System.nanoTime();
        Millis ms = new Millis(ms(t0, t1), ms(t1, t2), ms(t2, t3), ms(t3, t4), ms(t4, t5), ms(t0, t5));
        return new Result(out, ms, Map.of());
    }

    /** {@code made}, once {@code dead} has been read: dead's limbs go back if it was made in the scratch. */
    private static Ciphertext next(Scratch scratch, Ciphertext dead, Ciphertext made) {
        if (dead != made && scratch.holds(dead)) scratch.release(dead);
        return made;
    }

    private static double ms(long a, long b) {
        return (b - a) / 1e6;
    }

    private static String log2(double x) {
        return String.format(Locale.ROOT, "%.2f", Math.log(x) / Math.log(2));
    }
}
