package io.hoist.lt;

import java.util.List;
import java.util.Set;

/**
 * Walks an {@link LtProgram} without arithmetic. {@link #counts} adds up each step's closed-form
 * operation counts (spec §4.3, §5.3, §5.5) and the §6.2 multiplication model — the numbers the
 * direct executor's counters must reproduce; {@link #traffic} runs the phased schedule's walk with
 * no data (the same loop nest the phased executor runs, so the same ledger); and
 * {@link #straightforwardTraffic} charges every step its whole inputs and outputs, the paper's
 * non-optimised DH-BSGS baseline.
 */
public final class CountingInterpreter {
    private CountingInterpreter() {}

    /** Closed-form counts of one evaluation of {@code program} with diagonals kept as {@code storage}. */
    public static Cost counts(LtProgram program, Storage storage) {
        return total(program, tally(program, storage, 1, 6, null));
    }

    /**
     * Closed-form counts of a block product (spec of {@link EncodedBlockTransform#cost()}): phases
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
    static double decomposeMults(LimbLayout lay) {
        double c = (double) lay.beta() * lay.d() * transformMults(lay);
        for (int t = 0; t < lay.beta(); t++) {
            int at = lay.digitSize(t);
            c += (double) lay.n() * at * (1 + lay.d() - at);
        }
        return c;
    }

    /** §6.2: ModDown = D·C_T + N·α(L+2) + N(L+1), with L + 1 = Lq. */
    static double modDownMults(LimbLayout lay) {
        return lay.d() * transformMults(lay)
                + (double) lay.n() * lay.alpha() * (lay.level() + 2)
                + (double) lay.n() * lay.lq();
    }

    /** §6.2: KS-IP = 2βDN. */
    static double keySwitchMults(LimbLayout lay) {
        return 2.0 * lay.beta() * lay.d() * lay.n();
    }

    /** The traffic of the six-phase schedule under {@code grouping}: the phased executor's walk, without data. */
    public static TrafficLedger traffic(LtProgram program, Storage storage, Grouping grouping) {
        return PhasedExecutor.walk(program, storage, grouping, Long.MAX_VALUE, null);
    }

    /**
     * The non-optimised baseline (spec §7.3): every step reads its whole inputs (ciphertext parts,
     * digits, keys, diagonals, one twiddle table per limb transform) from the backing store and writes
     * its whole outputs back; nothing is reused between steps. Per phase of the step's line; the
     * iterations are the steps and the resident bytes the largest step's inputs plus outputs.
     */
    public static TrafficLedger straightforwardTraffic(LtProgram program, Storage storage) {
        LimbLayout lay = program.layout();
        int d = lay.d(), lq = lay.lq(), beta = lay.beta();
        long lb = lay.limbBytes();
        TrafficLedger.Builder led = new TrafficLedger.Builder();
        for (LtProgram.Step s : program.steps()) {
            int p = s.phase();
            long r0 = 0, w0 = 0; // ciphertext-part limbs read / written
            long dig = 0, digW = 0, keys = 0, diag = 0, tw = 0;
            switch (s.kind()) {
                case DECOMPOSE -> {
                    r0 = lq;
                    tw = (long) beta * d;
                    digW = (long) beta * d;
                }
                case TIMES_P -> {
                    r0 = lq;
                    w0 = lq;
                }
                case KEY_SWITCH -> {
                    dig = (long) beta * d;
                    keys = 2L * beta * d;
                    int addend = s.in().get(1);
                    if (addend >= 0) r0 += program.buffer(addend).qOnly() ? lq : d;
                    if (s.accumulate()) r0 += 2L * d;
                    w0 = 2L * d;
                }
                case INTT -> {
                    r0 = d;
                    tw = d;
                    w0 = d;
                }
                case MOD_DOWN -> {
                    r0 = d;
                    w0 = lq;
                }
                case MOD_DOWN_RESCALE -> {
                    r0 = d;
                    tw = d;
                    w0 = lq - 1;
                }
                case MOD_DOWN_KEEP_LEVEL -> {
                    r0 = d;
                    tw = d;
                    w0 = lq;
                }
                case DIAGONAL_SUM -> {
                    for (int t = 0; t < s.babies().length(); t++) {
                        int limbs = s.babies().get(t) == 0 ? lq : d;
                        r0 += 2L * limbs;
                        if (storage == Storage.COMPACT) tw += limbs;
                        else diag += limbs;
                    }
                    w0 = 2L * d;
                }
                case MOVE -> {}
            }
            long compact = s.kind() == LtProgram.Kind.DIAGONAL_SUM && storage == Storage.COMPACT
                    ? (long) s.diagonals().length() * lay.compactBytes()
                    : 0;
            led.read(p, LedgerKind.CIPHERTEXT, r0 * lb);
            led.read(p, LedgerKind.DIGITS, dig * lb);
            led.read(p, LedgerKind.KEYS, keys * lb);
            led.read(p, LedgerKind.DIAGONALS, diag * lb + compact);
            led.read(p, LedgerKind.TWIDDLES, tw * lb);
            led.write(p, LedgerKind.CIPHERTEXT, w0 * lb);
            led.write(p, LedgerKind.DIGITS, digW * lb);
            if (s.kind() != LtProgram.Kind.MOVE) led.iterations(p, 1);
            led.peak(p, (r0 + w0 + dig + digW + keys + diag + tw) * lb + compact);
        }
        return led.build();
    }
}
