package io.hoist.lt.schedule;

import com.google.errorprone.annotations.Immutable;
import io.hoist.lt.plan.InvalidTransformException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parallelism parameters of the six-phase schedule (spec §7.2): per phase, how many limbs
 * (l1 … l5) and how many polynomials (m1 … m6) are worked on together. l1: limbs per round of
 * Phase 1's BConv and key inner products, m1: inner keys applied together; l2, m2: Phase 2's
 * limb groups and ModDowns batched before their Decomposes; l3, m3, m4: Phase 3's limbs, middle
 * keys and (A_i, D_i) pairs; l4, m5: Phase 4's limbs and resident giant-step accumulators; l5,
 * m6: Phase 5's limbs and outer rotations per pass; l6: Phase 6's output limbs per round (the paper
 * does Phase 6 "all limbs at once", which does not fit 43 MB at the Table II size, so we stream it).
 * Values above the relevant count act as "all".
 */
@Immutable
public record Grouping(int l1, int m1, int l2, int m2, int l3, int m3, int m4, int l4, int m5, int l5, int m6, int l6) {
    public Grouping {
        int[] all = {l1, m1, l2, m2, l3, m3, m4, l4, m5, l5, m6, l6};
        for (int v : all)
            InvalidTransformException.check(v >= 1, "every group size must be ≥ 1: %s", Arrays.toString(all));
    }

    /** Every group of one limb and one polynomial: the smallest working set. */
    public static Grouping minimal() {
        return new Grouping(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
    }

    /** All limbs ({@code limbs}) and {@code polys} polynomials in every group. */
    public static Grouping uniform(int limbs, int polys) {
        return new Grouping(limbs, polys, limbs, polys, limbs, polys, polys, limbs, polys, limbs, polys, limbs);
    }

    /** As an ordered map (reports). */
    public Map<String, Integer> asMap() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("l1", l1);
        m.put("m1", m1);
        m.put("l2", l2);
        m.put("m2", m2);
        m.put("l3", l3);
        m.put("m3", m3);
        m.put("m4", m4);
        m.put("l4", l4);
        m.put("m5", m5);
        m.put("l5", l5);
        m.put("m6", m6);
        m.put("l6", l6);
        return m;
    }

    /** Replaces the parameters of one phase (1 … 6); phase 3 takes l3, m3 and m4 = {@code m2nd}; phase 6 only l6. */
    Grouping withPhase(int phase, int l, int m, int m2nd) {
        return switch (phase) {
            case 1 -> new Grouping(l, m, l2, m2, l3, m3, m4, l4, m5, l5, m6, l6);
            case 2 -> new Grouping(l1, m1, l, m, l3, m3, m4, l4, m5, l5, m6, l6);
            case 3 -> new Grouping(l1, m1, l2, m2, l, m, m2nd, l4, m5, l5, m6, l6);
            case 4 -> new Grouping(l1, m1, l2, m2, l3, m3, m4, l, m, l5, m6, l6);
            case 5 -> new Grouping(l1, m1, l2, m2, l3, m3, m4, l4, m5, l, m, l6);
            case 6 -> new Grouping(l1, m1, l2, m2, l3, m3, m4, l4, m5, l5, m6, l);
            default -> this;
        };
    }

    @Override
    public String toString() {
        return "l=" + l1 + "," + l2 + "," + l3 + "," + l4 + "," + l5 + "," + l6 + " m=" + m1 + "," + m2 + "," + m3 + ","
                + m4 + "," + m5 + "," + m6;
    }
}
