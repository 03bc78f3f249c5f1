package io.hoist.lt;


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
        LimbLayout lay = program.layout();
        int d = lay.d(), lq = lay.lq(), beta = lay.beta();
        long dec = 0, md = 0, ksip = 0, pt = 0, ntt = 0;
        for (LtProgram.Step s : program.steps()) {
            switch (s.kind()) {
                case DECOMPOSE -> { dec++; ntt += (long) beta * d; }
                case KEY_SWITCH -> ksip++;
                case INTT -> ntt += d;
                case MOD_DOWN -> md++;   // coefficient domain: its INTT is the preceding INTT step, no NTT after
                case MOD_DOWN_RESCALE, MOD_DOWN_KEEP_LEVEL -> { md++; ntt += d; }
                case DIAGONAL_SUM -> {
                    pt += s.diagonals().length();
                    if (storage == Storage.COMPACT) {
                        for (int t = 0; t < s.babies().length(); t++) ntt += s.babies().get(t) == 0 ? lq : d;
                    }
                }
                case TIMES_P, MOVE -> { }
            }
        }
        int keys = program.plan().rotations().size();
        double mults = dec * decomposeMults(lay) + md * modDownMults(lay) + ksip * keySwitchMults(lay) + pt * 2.0 * d * lay.n();
        return new Cost(dec, md, ksip, pt, ntt, keys, keys * lay.keyBytes(), keys * lay.seededKeyBytes(), mults);
    }

    /** §6.2: C_T = (N/2)·log2 N per limb (I)NTT. */
    static double transformMults(LimbLayout lay) {
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
        return lay.d() * transformMults(lay) + (double) lay.n() * lay.alpha() * (lay.level() + 2) + (double) lay.n() * lay.lq();
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
            long r0 = 0, w0 = 0;   // ciphertext-part limbs read / written
            long dig = 0, digW = 0, keys = 0, diag = 0, tw = 0;
            switch (s.kind()) {
                case DECOMPOSE -> { r0 = lq; tw = (long) beta * d; digW = (long) beta * d; }
                case TIMES_P -> { r0 = lq; w0 = lq; }
                case KEY_SWITCH -> {
                    dig = (long) beta * d;
                    keys = 2L * beta * d;
                    int addend = s.in().get(1);
                    if (addend >= 0) r0 += program.buffer(addend).qOnly() ? lq : d;
                    if (s.accumulate()) r0 += 2L * d;
                    w0 = 2L * d;
                }
                case INTT -> { r0 = d; tw = d; w0 = d; }
                case MOD_DOWN -> { r0 = d; w0 = lq; }
                case MOD_DOWN_RESCALE -> { r0 = d; tw = d; w0 = lq - 1; }
                case MOD_DOWN_KEEP_LEVEL -> { r0 = d; tw = d; w0 = lq; }
                case DIAGONAL_SUM -> {
                    for (int t = 0; t < s.babies().length(); t++) {
                        int limbs = s.babies().get(t) == 0 ? lq : d;
                        r0 += 2L * limbs;
                        if (storage == Storage.COMPACT) tw += limbs;
                        else diag += limbs;
                    }
                    w0 = 2L * d;
                }
                case MOVE -> { }
            }
            long compact = s.kind() == LtProgram.Kind.DIAGONAL_SUM && storage == Storage.COMPACT ? (long) s.diagonals().length() * lay.compactBytes() : 0;
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
