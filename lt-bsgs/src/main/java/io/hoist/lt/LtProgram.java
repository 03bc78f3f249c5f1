package io.hoist.lt;

import com.google.common.base.Preconditions;
import com.google.common.collect.ImmutableList;
import com.google.common.primitives.ImmutableIntArray;
import io.hoist.ckks.LevelMismatchException;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A hoisted linear transform (diagonal method, DH-BSGS, TH-BSGS) compiled from its {@link Plan}:
 * an immutable list of steps over named buffers, each tagged with its Algorithm 2 line (spec §5.2)
 * and its phase 1–6 of the memory-aware schedule (§7). Every executor runs this one program:
 * {@link DirectExecutor} step by step on whole polynomials, {@link PhasedExecutor} phase by phase
 * in limb and polynomial groups, and {@link CountingInterpreter} without arithmetic, for the
 * closed-form counts and the traffic of a schedule. BSGS (full rotations over Q) is not compiled.
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
            ImmutableIntArray in,
            ImmutableIntArray out,
            int rotation,
            boolean accumulate,
            int outer,
            ImmutableIntArray diagonals,
            ImmutableIntArray babies) {
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
    private final ImmutableIntArray lastUse;
    private final int ct0, ct1, out0, out1;

    private LtProgram(
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
        this.lastUse = ImmutableIntArray.copyOf(last);
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
        Preconditions.checkArgument(
                plan.algorithm() != Algorithm.BSGS, "BSGS runs full rotations over Q and has no LT program");
        if (rescale && layout.level() < 1)
            throw new LevelMismatchException("linear transforms need a ciphertext level ≥ 1 (line 19 rescales)");
        return new Compiler(plan, layout, rescale).run();
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

    private String names(ImmutableIntArray ids) {
        List<String> n = new ArrayList<>();
        for (int i = 0; i < ids.length(); i++)
            n.add(ids.get(i) < 0 ? "—" : buffers.get(ids.get(i)).name());
        return n.size() > 4 ? n.subList(0, 4) + "…(" + n.size() + ")" : n.toString();
    }

    /** Builds the step list in Algorithm 2's order. */
    private static final class Compiler {
        private final Plan plan;
        private final LimbLayout layout;
        private final boolean rescale;
        private final List<Buffer> buffers = new ArrayList<>();
        private final List<Step> steps = new ArrayList<>();
        private static final ImmutableIntArray NONE = ImmutableIntArray.of();

        Compiler(Plan plan, LimbLayout layout, boolean rescale) {
            this.plan = plan;
            this.layout = layout;
            this.rescale = rescale;
        }

        private int buffer(String name, Role role, boolean digits, boolean qOnly) {
            buffers.add(new Buffer(buffers.size(), name, role, digits, qOnly));
            return buffers.size() - 1;
        }

        private void step(Kind kind, int line, int phase, int[] in, int[] out) {
            step(kind, line, phase, in, out, 0, false, 0, NONE, NONE);
        }

        private void step(
                Kind kind,
                int line,
                int phase,
                int[] in,
                int[] out,
                int rotation,
                boolean acc,
                int outer,
                ImmutableIntArray diagonals,
                ImmutableIntArray babies) {
            steps.add(new Step(
                    steps.size(),
                    kind,
                    line,
                    phase,
                    ImmutableIntArray.copyOf(in),
                    ImmutableIntArray.copyOf(out),
                    rotation,
                    acc,
                    outer,
                    diagonals,
                    babies));
        }

        LtProgram run() {
            int ct0 = buffer("C'0", Role.INPUT, false, true), ct1 = buffer("C'1", Role.INPUT, false, true);
            Int2IntOpenHashMap a = new Int2IntOpenHashMap(),
                    b = new Int2IntOpenHashMap(),
                    digits = new Int2IntOpenHashMap();
            // line 1: D_0 ← Decompose(C'_1); A_0 ← P·C'_0, B_0 ← P·C'_1
            if (plan.needsFirstDecompose()) {
                digits.put(0, buffer("D0", Role.TEMPORARY, true, false));
                step(Kind.DECOMPOSE, 1, 1, new int[] {ct1}, new int[] {digits.get(0)});
            }
            a.put(0, buffer("A0", Role.TEMPORARY, false, true));
            b.put(0, buffer("B0", Role.TEMPORARY, false, true));
            step(Kind.TIMES_P, 1, 1, new int[] {ct0}, new int[] {a.get(0)});
            step(Kind.TIMES_P, 1, 1, new int[] {ct1}, new int[] {b.get(0)});
            // lines 2–4: inner layer, hoisted on D_0
            for (int i : plan.innerRotations()) {
                if (i == 0) continue;
                a.put(i, buffer("A" + i, Role.TEMPORARY, false, false));
                b.put(i, buffer("B" + i, Role.TEMPORARY, false, false));
                step(
                        Kind.KEY_SWITCH,
                        3,
                        1,
                        new int[] {digits.get(0), a.get(0)},
                        new int[] {a.get(i), b.get(i)},
                        i,
                        false,
                        0,
                        NONE,
                        NONE);
            }
            // line 5: b_i ← INTT(B_i) for the inner indices the middle layer uses
            var sources = plan.middleSources();
            Int2IntOpenHashMap coeff = new Int2IntOpenHashMap();
            for (int i : sources) {
                coeff.put(i, buffer("b" + i, Role.TEMPORARY, false, false));
                step(Kind.INTT, 5, 1, new int[] {b.get(i)}, new int[] {coeff.get(i)});
            }
            // lines 6–7: b'_i ← ModDown(b_i); D_i ← Decompose(b'_i)
            for (int i : sources) {
                int bp = buffer("b'" + i, Role.TEMPORARY, false, true);
                step(Kind.MOD_DOWN, 6, 2, new int[] {coeff.get(i)}, new int[] {bp});
                digits.put(i, buffer("D" + i, Role.TEMPORARY, true, false));
                step(Kind.DECOMPOSE, 7, 2, new int[] {bp}, new int[] {digits.get(i)});
            }
            // lines 8–11: middle layer, hoisted per i
            for (var e : plan.middlePairs().entrySet()) {
                int j = e.getKey();
                for (int i : e.getValue()) {
                    a.put(j + i, buffer("A" + (j + i), Role.TEMPORARY, false, false));
                    b.put(j + i, buffer("B" + (j + i), Role.TEMPORARY, false, false));
                    step(
                            Kind.KEY_SWITCH,
                            10,
                            3,
                            new int[] {digits.get(i), a.get(i)},
                            new int[] {a.get(j + i), b.get(j + i)},
                            j,
                            false,
                            0,
                            NONE,
                            NONE);
                }
            }
            // lines 12–14: U_k = Σ_b F̃_{k,b} ⊙ (A_b, B_b)
            Int2IntOpenHashMap u0 = new Int2IntOpenHashMap(), u1 = new Int2IntOpenHashMap();
            for (var g : plan.groups().entrySet()) {
                int k = g.getKey();
                List<Integer> rs = g.getValue();
                int[] in = new int[2 * rs.size()];
                int[] babies = new int[rs.size()];
                for (int t = 0; t < rs.size(); t++) {
                    int bb = plan.baby(rs.get(t));
                    babies[t] = bb;
                    in[2 * t] = a.get(bb);
                    in[2 * t + 1] = b.get(bb);
                }
                u0.put(k, buffer("U0_" + k, Role.TEMPORARY, false, false));
                u1.put(k, buffer("U1_" + k, Role.TEMPORARY, false, false));
                step(
                        Kind.DIAGONAL_SUM,
                        12,
                        4,
                        in,
                        new int[] {u0.get(k), u1.get(k)},
                        0,
                        false,
                        k,
                        ImmutableIntArray.copyOf(rs),
                        ImmutableIntArray.copyOf(babies));
            }
            // C_0 ← U_{0,0}, C_1 ← U_{1,0}
            int c0 = buffer("C0", Role.TEMPORARY, false, false), c1 = buffer("C1", Role.TEMPORARY, false, false);
            boolean k0 = plan.outerRotations().contains(0);
            step(Kind.MOVE, 14, 5, new int[] {k0 ? u0.get(0) : -1, k0 ? u1.get(0) : -1}, new int[] {c0, c1});
            // lines 15–18: outer rotations
            for (int k : plan.outerRotations()) {
                if (k == 0) continue;
                step(Kind.INTT, 15, 5, new int[] {u1.get(k)}, new int[] {u1.get(k)});
                int uk = buffer("u" + k, Role.TEMPORARY, false, true);
                step(Kind.MOD_DOWN, 15, 5, new int[] {u1.get(k)}, new int[] {uk});
                int ek = buffer("E" + k, Role.TEMPORARY, true, false);
                step(Kind.DECOMPOSE, 16, 5, new int[] {uk}, new int[] {ek});
                step(Kind.KEY_SWITCH, 17, 5, new int[] {ek, u0.get(k)}, new int[] {c0, c1}, k, true, 0, NONE, NONE);
            }
            // line 19: ModDown merged with rescale (or a plain ModDown when the level is shared)
            int o0 = buffer("out0", Role.OUTPUT, false, true), o1 = buffer("out1", Role.OUTPUT, false, true);
            Kind last = rescale ? Kind.MOD_DOWN_RESCALE : Kind.MOD_DOWN_KEEP_LEVEL;
            step(last, 19, 6, new int[] {c0}, new int[] {o0});
            step(last, 19, 6, new int[] {c1}, new int[] {o1});
            return new LtProgram(plan, layout, buffers, steps, ct0, ct1, o0, o1);
        }
    }
}
