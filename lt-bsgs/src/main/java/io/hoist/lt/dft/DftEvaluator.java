package io.hoist.lt.dft;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.Scratch;
import io.hoist.ckks.WrongOperandException;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.Evaluation;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.Op;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs CoeffsToSlots and SlotsToCoeffs: each matrix through the {@link LinearTransformEvaluator}
 * at its level (the rescale merged into its last ModDown), then the real/imaginary split. Every
 * matrix may use a different algorithm and split; one key set serves them all. Thread-safe.
 */
public final class DftEvaluator {
    private final CkksContext ctx;
    private final LinearTransformEvaluator lt;
    private final Evaluator ev;

    public DftEvaluator(CkksContext ctx, RotationKeySet keys, Schedule schedule) {
        this.ctx = ctx;
        this.lt = new LinearTransformEvaluator(ctx, keys, schedule);
        this.ev = new Evaluator(ctx);
    }

    /** Bytes the transforms' and the split's limb pools hold for the next evaluation (idle and lent). */
    public long pooledBytes() {
        return lt.pooledBytes() + ev.pooledBytes();
    }

    /**
     * Encodes every matrix's diagonals for its plan at its level; for dense packing it also makes the ±i table of
     * the real/imaginary split (see {@link Evaluator#prepareMulByI}).
     */
    public EncodedDft encode(DftPlan plan, Storage storage, Progress progress) {
        if (!plan.params().equals(ctx.params())) throw new ParameterMismatchException("plan made for other parameters");
        List<EncodedTransform> out = new ArrayList<>();
        HomomorphicDft dft = plan.dft();
        int total = 0, done = 0;
        for (var m : dft.matrices()) total += m.diagonalCount();
        for (int i = 0; i < dft.depth(); i++) {
            final int before = done;
            final int all = total;
            int level = dft.levels().get(i);
            out.add(lt.encode(
                    dft.matrices().get(i),
                    plan.plans().get(i),
                    level,
                    storage,
                    dft.plaintextScale(i, ctx.params().q(level)),
                    dft.rescales(i),
                    (d, n) -> progress.step(before + d, all)));
            done += dft.matrices().get(i).diagonalCount();
        }
        // dense packing multiplies by −i after CoeffsToSlots and by i before SlotsToCoeffs: their tables now, so
        // that the first evaluation counts what the others do
        if (!dft.sparse()) {
            boolean cts = dft.kind() == HomomorphicDft.Kind.COEFFS_TO_SLOTS;
            ev.prepareMulByI(
                    cts ? -1 : 1, cts ? dft.outputLevel() : dft.levels().get(0));
        }
        return new EncodedDft(plan, ImmutableList.copyOf(out));
    }

    /**
     * CoeffsToSlots of a ciphertext whose plaintext polynomial holds the coefficients t (at the first
     * matrix's level): dense packing gives [Re, Im] of t_lo + i·t_hi, sparse packing one ciphertext
     * [Re | Im], both bit-reversed, at the input's scale.
     */
    public DftResult coeffsToSlots(Ciphertext ct, EncodedDft e) {
        try (Scratch scratch = ev.scratch()) {
            return keepOutputs(coeffsToSlots(ct, e, scratch), scratch);
        }
    }

    /**
     * {@link #coeffsToSlots(Ciphertext, EncodedDft)} with every intermediate ciphertext in {@code scratch}, each
     * given back once read, and the outputs left there: the caller releases or keeps them ({@link Scratch#holds}
     * tells which are there: a BSGS matrix makes its output in fresh memory, and the split then does too). The
     * input is only read.
     */
    public DftResult coeffsToSlots(Ciphertext ct, EncodedDft e, Scratch scratch) {
        requireKind(e, HomomorphicDft.Kind.COEFFS_TO_SLOTS);
        Objects.requireNonNull(scratch, "scratch is null").requireOpenFor(ctx.ringQ());
        requireStart(ct, e);
        List<Map<Op, Long>> counts = new ArrayList<>();
        Ciphertext x = runMatrices(ct, e, counts, scratch);
        Evaluation conj = lt.conjugate(x, scratch);
        Ciphertext w = conj.result();
        ImmutableList<Ciphertext> outs;
        if (x != ct && scratch.holds(x) && scratch.holds(w)) {
            // w + w̄ over w̄'s limbs, w − w̄ over w's, then times −i in place: (w − w̄)/2 = i·Im w
            List<Ciphertext> sd = ev.sumAndDifferenceInPlace(x, w, scratch);
            if (e.dft().sparse()) {
                scratch.release(sd.get(1));
                outs = ImmutableList.of(sd.get(0));
            } else outs = ImmutableList.of(sd.get(0), ev.mulByIInPlace(sd.get(1), -1, scratch));
        } else {
            outs = e.dft().sparse()
                    ? ImmutableList.of(ev.add(x, w))
                    : ImmutableList.of(ev.add(x, w), ev.mulByI(ev.sub(x, w), -1));
            if (scratch.holds(w)) scratch.release(w);
            if (x != ct && scratch.holds(x)) scratch.release(x);
        }
        return new DftResult(outs, ImmutableList.copyOf(counts), conj.counts());
    }

    /**
     * SlotsToCoeffs: dense packing takes [Re, Im] (bit-reversed) and first forms Re + i·Im exactly;
     * sparse packing takes the one ciphertext [Re | Im]. The output's polynomial holds the coefficients.
     */
    public DftResult slotsToCoeffs(List<Ciphertext> in, EncodedDft e) {
        try (Scratch scratch = ev.scratch()) {
            return keepOutputs(slotsToCoeffs(in, e, scratch), scratch);
        }
    }

    /**
     * {@link #slotsToCoeffs(List, EncodedDft)} with Re + i·Im and every matrix's output in {@code scratch}, each given
     * back once read, and the output left there for the caller ({@link Scratch#holds} tells whether it is). The
     * inputs are only read.
     */
    public DftResult slotsToCoeffs(List<Ciphertext> in, EncodedDft e, Scratch scratch) {
        requireKind(e, HomomorphicDft.Kind.SLOTS_TO_COEFFS);
        Objects.requireNonNull(scratch, "scratch is null").requireOpenFor(ctx.ringQ());
        int want = e.dft().sparse() ? 1 : 2;
        if (in.size() != want) {
            throw new WrongOperandException("SlotsToCoeffs with " + (want == 1 ? "sparse" : "dense") + " packing takes "
                    + want + " ciphertext(s), got " + in.size());
        }
        requireStart(in.get(0), e); // before Re + i·Im, which would make its table at a wrong level first
        Ciphertext x = want == 1 ? in.get(0) : ev.addMulByI(in.get(0), in.get(1), 1, scratch);
        List<Map<Op, Long>> counts = new ArrayList<>();
        Ciphertext y = runMatrices(x, e, counts, scratch);
        if (x != in.get(0) && x != y) scratch.release(x);
        return new DftResult(ImmutableList.of(y), ImmutableList.copyOf(counts), ImmutableMap.of());
    }

    /** The outputs made in {@code scratch} let go of it: the caller's, as from the methods without a scratch. */
    private static DftResult keepOutputs(DftResult r, Scratch scratch) {
        for (Ciphertext c : r.outputs()) if (scratch.holds(c)) scratch.keep(c);
        return r;
    }

    /**
     * The matrices in turn, each output made in {@code scratch} where the executor makes it and given back once the
     * next matrix has read it; the last one is left there (the input is only read).
     */
    private Ciphertext runMatrices(Ciphertext ct, EncodedDft e, List<Map<Op, Long>> counts, Scratch scratch) {
        Ciphertext x = ct; // checked by the caller (requireStart)
        for (EncodedTransform m : e.matrices()) {
            Evaluation r = lt.evaluate(x, m, m.rescales() ? lt.schedule() : Schedule.direct(), scratch);
            counts.add(r.counts());
            if (x != ct && scratch.holds(x)) scratch.release(x);
            x = r.result();
        }
        return x;
    }

    /** The ciphertext a DFT starts from: these parameters, at its first matrix's level. */
    private void requireStart(Ciphertext ct, EncodedDft e) {
        if (!ct.params().equals(ctx.params()))
            throw new ParameterMismatchException("ciphertext made under other parameters");
        int first = e.dft().levels().get(0);
        if (ct.level() != first) {
            throw new LevelMismatchException(e.dft().kind().label() + " starts at level " + first
                    + ", the ciphertext is at level " + ct.level());
        }
    }

    private static void requireKind(EncodedDft e, HomomorphicDft.Kind kind) {
        if (e.dft().kind() != kind)
            throw new InvalidTransformException("expected an encoded " + kind.label() + ", got " + e.dft());
    }

    /** Sums of several count maps. */
    public static Map<Op, Long> sum(List<? extends Map<Op, Long>> maps) {
        Map<Op, Long> m = new EnumMap<>(Op.class);
        for (var x : maps) x.forEach((k, v) -> m.merge(k, v, Long::sum));
        return ImmutableMap.copyOf(m);
    }
}
