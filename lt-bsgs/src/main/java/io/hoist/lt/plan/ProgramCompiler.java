package io.hoist.lt.plan;

import io.hoist.lt.plan.LtProgram.Buffer;
import io.hoist.lt.plan.LtProgram.Kind;
import io.hoist.lt.plan.LtProgram.Role;
import io.hoist.lt.plan.LtProgram.Step;
import it.unimi.dsi.fastutil.ints.Int2IntOpenHashMap;
import java.util.ArrayList;
import java.util.List;

/** Builds the step list in Algorithm 2's order. */
/**
 * The compiler of {@link LtProgram#compile}: Algorithm 2 of spec §5.2 (with block sizes b1 | b2) laid
 * out as named buffers and steps, each tagged with its line and its schedule phase.
 */
final class ProgramCompiler {
    private final Plan plan;
    private final LimbLayout layout;
    private final boolean rescale;
    private final List<Buffer> buffers = new ArrayList<>();
    private final List<Step> steps = new ArrayList<>();
    private static final IntSequence NONE = IntSequence.of();

    ProgramCompiler(Plan plan, LimbLayout layout, boolean rescale) {
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
            IntSequence diagonals,
            IntSequence babies) {
        steps.add(new Step(
                steps.size(),
                kind,
                line,
                phase,
                IntSequence.copyOf(in),
                IntSequence.copyOf(out),
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
                    IntSequence.copyOf(rs),
                    IntSequence.copyOf(babies));
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
