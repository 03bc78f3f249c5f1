package io.hoist.lt.schedule;

import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Storage;

/** The paper's non-optimised DH-BSGS baseline traffic (spec §7.3), the reference the six-phase schedule is measured against. */
public final class StraightforwardTraffic {
    private StraightforwardTraffic() {}

    /**
     * The non-optimised baseline (spec §7.3): every step reads its whole inputs (ciphertext parts,
     * digits, keys, diagonals, one twiddle table per limb transform) from the backing store and writes
     * its whole outputs back; nothing is reused between steps. Per phase of the step's line; the
     * iterations are the steps and the resident bytes the largest step's inputs plus outputs.
     */
    public static TrafficLedger of(LtProgram program, Storage storage) {
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
                    if (addend >= 0) r0 += program.limbs(addend);
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
