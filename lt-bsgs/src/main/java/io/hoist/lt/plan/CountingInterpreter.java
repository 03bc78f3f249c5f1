package io.hoist.lt.plan;

import java.util.List;
import java.util.Set;

/**
 * Walks an {@link LtProgram} without arithmetic. {@link #counts} adds up each step's closed-form
 * operation counts (spec §4.3, §5.3, §5.5) and the §6.2 multiplication model — the numbers the
 * direct executor's counters must reproduce; their traffic is the schedule's business
 * ({@code io.hoist.lt.schedule}: the dry walk and the straightforward baseline).
 */
public final class CountingInterpreter {
    private CountingInterpreter() {}

    /** Closed-form counts of one evaluation of {@code program} with diagonals kept as {@code storage}. */
    public static Cost counts(LtProgram program, Storage storage) {
        return total(program, tally(program, storage, 1, 6, null));
    }

    /**
     * Closed-form counts of a block product (the spec of a block transform's cost): phases
     * 1–3 once per input ciphertext ({@code blockCols}), phase 4 once per nonzero block with that
     * block's own diagonals, phases 5–6 once per output ciphertext ({@code blockRows}).
     */
    public static Cost blockCounts(
            LtProgram program,
            Storage storage,
            int blockRows,
            int blockCols,
            List<? extends Set<Integer>> blockDiagonals) {
        long[] sum = new long[5];
        add(sum, tally(program, storage, 1, 3, null), blockCols);
        for (Set<Integer> b : blockDiagonals) add(sum, tally(program, storage, 4, 4, b), 1);
        add(sum, tally(program, storage, 5, 6, null), blockRows);
        return total(program, sum);
    }

    private static void add(long[] sum, long[] t, long times) {
        for (int i = 0; i < sum.length; i++) sum[i] += t[i] * times;
    }

    /** {decompose, modDown, ksip, ptMuls, ntt} of the steps of phases [from, to]; diagonal sums over {@code only} when given. */
    private static long[] tally(LtProgram program, Storage storage, int fromPhase, int toPhase, Set<Integer> only) {
        LimbLayout lay = program.layout();
        int d = lay.d(), lq = lay.lq(), beta = lay.beta();
        long dec = 0, md = 0, ksip = 0, pt = 0, ntt = 0;
        for (LtProgram.Step s : program.steps()) {
            if (s.phase() < fromPhase || s.phase() > toPhase) continue;
            switch (s.kind()) {
                case DECOMPOSE -> {
                    dec++;
                    ntt += (long) beta * d;
                }
                case KEY_SWITCH -> ksip++;
                case INTT -> ntt += d;
                case MOD_DOWN -> md++; // coefficient domain: its INTT is the preceding INTT step, no NTT after
                case MOD_DOWN_RESCALE, MOD_DOWN_KEEP_LEVEL -> {
                    md++;
                    ntt += d;
                }
                case DIAGONAL_SUM -> {
                    for (int t = 0; t < s.diagonals().length(); t++) {
                        if (only != null && !only.contains(s.diagonals().get(t))) continue;
                        pt++;
                        if (storage == Storage.COMPACT) ntt += s.babies().get(t) == 0 ? lq : d;
                    }
                }
                case TIMES_P, MOVE -> {}
            }
        }
        return new long[] {dec, md, ksip, pt, ntt};
    }

    private static Cost total(LtProgram program, long[] c) {
        LimbLayout lay = program.layout();
        int keys = program.plan().rotations().size();
        double mults = c[0] * decomposeMults(lay)
                + c[1] * modDownMults(lay)
                + c[2] * keySwitchMults(lay)
                + c[3] * 2.0 * lay.d() * lay.n();
        return new Cost(c[0], c[1], c[2], c[3], c[4], keys, keys * lay.keyBytes(), keys * lay.seededKeyBytes(), mults);
    }

    /** §6.2: C_T = (N/2)·log2 N per limb (I)NTT. */
    public static double transformMults(LimbLayout lay) {
        return (lay.n() / 2.0) * lay.logN();
    }

    /** §6.2: Decompose = β·D·C_T + N·Σ_t α_t(1 + D − α_t). */
    public static double decomposeMults(LimbLayout lay) {
        double c = (double) lay.beta() * lay.d() * transformMults(lay);
        for (int t = 0; t < lay.beta(); t++) {
            int at = lay.digitSize(t);
            c += (double) lay.n() * at * (1 + lay.d() - at);
        }
        return c;
    }

    /** §6.2: ModDown = D·C_T + N·α(L+2) + N(L+1), with L + 1 = Lq. */
    public static double modDownMults(LimbLayout lay) {
        return lay.d() * transformMults(lay)
                + (double) lay.n() * lay.alpha() * (lay.level() + 2)
                + (double) lay.n() * lay.lq();
    }

    /** §6.2: KS-IP = 2βDN. */
    public static double keySwitchMults(LimbLayout lay) {
        return 2.0 * lay.beta() * lay.d() * lay.n();
    }
}
