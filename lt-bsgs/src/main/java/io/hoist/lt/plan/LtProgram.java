package io.hoist.lt.plan;

import com.google.common.collect.ImmutableList;
import io.hoist.ckks.LevelMismatchException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A hoisted linear transform (diagonal method, DH-BSGS, TH-BSGS) compiled from its {@link Plan}:
 * an immutable list of steps over named buffers, each tagged with its Algorithm 2 line (spec §5.2)
 * and its phase 1–6 of the memory-aware schedule (§7). Every executor runs this one program:
 * the engine's direct executor step by step on whole polynomials, the six-phase walk
 * ({@code io.hoist.lt.schedule.SixPhaseWalk}) phase by phase in limb and polynomial groups, with
 * kernel hooks or dry for the traffic, and {@link CountingInterpreter} without arithmetic, for the
 * closed-form counts. BSGS (full rotations over Q) is not compiled.
 *
 * <p>Algorithm 1 (DH-BSGS) and the hoisted diagonal method are the cases without middle layer
 * (b1 = b2): their programs simply have no Phase 2 and 3 steps.
 */
public final class LtProgram {

    /** The step kinds, named after the operations of the papers. */
    public enum Kind {
        /** D ← Decompose(c): β digits over QP, NTT (lines 1, 7, 16). */
        DECOMPOSE,
        /** A_0 ← P·C'_0, B_0 ← P·C'_1: Q limbs only, the P limbs are zero (line 1). */
        TIMES_P,
        /** (A, B) ← φ_g(addend + ⟨D, SWK⟩), φ_g(⟨D, SWK.a⟩), optionally accumulated (lines 3–4, 10–11, 17–18). */
        KEY_SWITCH,
        /** b ← INTT(B) (lines 5 and 15). */
        INTT,
        /** b' ← ModDown_{QP→Q}(b), coefficient domain (lines 6 and 15). */
        MOD_DOWN,
        /** U_{0,k}, U_{1,k} ← Σ_b F̃_{k,b} ⊙ (A_b, B_b) (lines 12–14). */
        DIAGONAL_SUM,
        /** (C_0, C_1) ← (U_{0,0}, U_{1,0}), or zero when there is no giant step 0 (after line 14). */
        MOVE,
        /** out ← ModDown merged with rescale, ÷(P·q_ℓ) (line 19). */
        MOD_DOWN_RESCALE,
        /**
         * out ← ModDown ÷P into the NTT domain, without the rescale (line 19 of a transform that shares
         * its level with the next one, as Lattigo's {@code Levels}); the output stays at level ℓ.
         */
        MOD_DOWN_KEEP_LEVEL
    }

    /** What a buffer holds. */
    public enum Role {
        INPUT,
        TEMPORARY,
        OUTPUT
    }

    /**
     * A named buffer: one polynomial (Q only or QP) or β digits. {@code qOnly} buffers have Q limbs
     * only (their P limbs are zero or absent).
     */
    public record Buffer(int id, String name, Role role, boolean digits, boolean qOnly) {}

    /**
     * One step. {@code in}/{@code out} are buffer ids (−1 for none): DECOMPOSE [src] → [digits];
     * TIMES_P, INTT, MOD_DOWN, MOD_DOWN_RESCALE [src] → [dst]; KEY_SWITCH [digits, addend] → [A, B];
     * MOVE [U0, U1] → [C0, C1]; DIAGONAL_SUM [A_b, B_b for each term] → [U0, U1]. {@code rotation} is
     * the KEY_SWITCH's rotation, {@code outer} a DIAGONAL_SUM's k; {@code diagonals} and
     * {@code babies} its terms r and b = r − k.
     */
    public record Step(
            int index,
            Kind kind,
            int line,
            int phase,
            IntSequence in,
            IntSequence out,
            int rotation,
            boolean accumulate,
            int outer,
            IntSequence diagonals,
            IntSequence babies) {
        public String lines() {
            return switch (kind) {
                case KEY_SWITCH -> line + "–" + (line + 1);
                case DIAGONAL_SUM -> "12–14";
                default -> Integer.toString(line);
            };
        }
    }

    private final Plan plan;
    private final LimbLayout layout;
    private final ImmutableList<Buffer> buffers;
    private final ImmutableList<Step> steps;
    private final IntSequence lastUse;
    private final int ct0, ct1, out0, out1;

    LtProgram(
            Plan plan,
            LimbLayout layout,
            List<Buffer> buffers,
            List<Step> steps,
            int ct0,
            int ct1,
            int out0,
            int out1) {
        this.plan = plan;
        this.layout = layout;
        this.buffers = ImmutableList.copyOf(buffers);
        this.steps = ImmutableList.copyOf(steps);
        this.ct0 = ct0;
        this.ct1 = ct1;
        this.out0 = out0;
        this.out1 = out1;
        int[] last = new int[buffers.size()];
        Arrays.fill(last, -1);
        for (Step s : steps) {
            for (int b : s.in().toArray()) if (b >= 0) last[b] = s.index();
            for (int b : s.out().toArray()) if (b >= 0) last[b] = Math.max(last[b], s.index());
        }
        this.lastUse = IntSequence.copyOf(last);
    }

    /** Compiles {@code plan} for ciphertexts of {@code layout}'s level; line 19 rescales. */
    public static LtProgram compile(Plan plan, LimbLayout layout) {
        return compile(plan, layout, true);
    }

    /**
     * Compiles {@code plan}; without {@code rescale}, line 19 is a plain ModDown and the output stays
     * at the input's level (a transform sharing its level with the next, as Lattigo's {@code Levels}).
     */
    public static LtProgram compile(Plan plan, LimbLayout layout, boolean rescale) {
        InvalidTransformException.check(
                plan.algorithm() != Algorithm.BSGS, "BSGS runs full rotations over Q and has no LT program");
        if (rescale && layout.level() < 1)
            throw new LevelMismatchException("linear transforms need a ciphertext level ≥ 1 (line 19 rescales)");
        return new ProgramCompiler(plan, layout, rescale).run();
    }

    /** Whether line 19 rescales (the output is one level below the input). */
    public boolean rescales() {
        return steps.get(steps.size() - 1).kind() == Kind.MOD_DOWN_RESCALE;
    }

    public Plan plan() {
        return plan;
    }

    public LimbLayout layout() {
        return layout;
    }

    public List<Buffer> buffers() {
        return buffers;
    }

    public List<Step> steps() {
        return steps;
    }

    public Buffer buffer(int id) {
        return buffers.get(id);
    }
    /** Limbs one polynomial of buffer {@code id} spans: ℓ+1 if it holds Q only, else ℓ+1+α (a digit buffer holds β). */
    public int limbs(int id) {
        return buffers.get(id).qOnly() ? layout.lq() : layout.d();
    }

    /** Index of the last step that reads or writes buffer {@code id}. */
    public int lastUse(int id) {
        return lastUse.get(id);
    }

    public int input0() {
        return ct0;
    }

    public int input1() {
        return ct1;
    }

    public int output0() {
        return out0;
    }

    public int output1() {
        return out1;
    }

    /** The buffers phase 4 writes (U_{0,k}, U_{1,k} per giant step), in program order: a block row's partial sums. */
    public List<Integer> sumBuffers() {
        List<Integer> ids = new ArrayList<>();
        for (Step s : phase(4)) {
            ids.add(s.out().get(0));
            ids.add(s.out().get(1));
        }
        return List.copyOf(ids);
    }

    /** The steps of phase {@code p} in program order. */
    public List<Step> phase(int p) {
        return steps.stream().filter(s -> s.phase() == p).toList();
    }

    /** A readable listing: one line per step, "phase · line · kind · in → out". */
    public String listing() {
        StringBuilder sb = new StringBuilder();
        for (Step s : steps) {
            sb.append(String.format(
                    Locale.ROOT, "%3d  phase %d  line %-6s %-17s", s.index(), s.phase(), s.lines(), s.kind()));
            sb.append(names(s.in())).append(" → ").append(names(s.out()));
            if (s.kind() == Kind.KEY_SWITCH)
                sb.append("  rot ").append(s.rotation()).append(s.accumulate() ? " (+=)" : "");
            if (s.kind() == Kind.DIAGONAL_SUM)
                sb.append("  k=")
                        .append(s.outer())
                        .append(", ")
                        .append(s.diagonals().length())
                        .append(" diagonals");
            sb.append('\n');
        }
        return sb.toString();
    }

    private String names(IntSequence ids) {
        List<String> n = new ArrayList<>();
        for (int i = 0; i < ids.length(); i++)
            n.add(ids.get(i) < 0 ? "—" : buffers.get(ids.get(i)).name());
        return n.size() > 4 ? n.subList(0, 4) + "…(" + n.size() + ")" : n.toString();
    }
}
