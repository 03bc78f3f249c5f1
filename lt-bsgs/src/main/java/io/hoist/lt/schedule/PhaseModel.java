package io.hoist.lt.schedule;

import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;

/**
 * The six-phase traffic model of spec §7.2 in closed form, for a dense matrix (all n diagonals) under
 * TH-BSGS(n1', n2', n3'), DH-BSGS(n1, n2) = TH(n1, 1, n2) or the hoisted diagonal method = TH(n, 1, 1):
 * per phase the bytes read and written by kind, the tile iterations and the peak working set of the
 * phased executor's loop nests. The formulas are written out in docs/schedule.md with the rules that
 * resolve the spec's [R] items; tests hold them equal to the executor's measured ledger and to the
 * counting interpreter. Quantities in limbs, converted to bytes at the end (compact diagonals count
 * 8N bytes per word vector).
 */
public final class PhaseModel {
    private final LimbLayout lay;
    private final Storage storage;
    private final int n1, n2, n3;
    private final int lq, d, beta;

    /**
     * @param n1 inner factor (b1), @param n2 middle factor (b2/b1), @param n3 outer factor (n/b2).
     */
    public PhaseModel(LimbLayout layout, Storage storage, int n1, int n2, int n3) {
        InvalidTransformException.check(n1 >= 1 && n2 >= 1 && n3 >= 1, "factors must be ≥ 1");
        // the counts below multiply the factors as ints: a dimension past any transform's would overflow them
        InvalidTransformException.check(
                (long) n1 * n2 * n3 <= Plan.MAX_DIMENSION,
                "factors multiply past the largest dimension " + Plan.MAX_DIMENSION);
        this.lay = layout;
        this.storage = storage;
        this.n1 = n1;
        this.n2 = n2;
        this.n3 = n3;
        this.lq = layout.lq();
        this.d = layout.d();
        this.beta = layout.beta();
    }

    /** The model of a dense plan (every diagonal present). */
    public static PhaseModel of(Plan plan, LimbLayout layout, Storage storage) {
        InvalidTransformException.check(
                plan.indices().size() == plan.dimension(),
                "the closed forms are for dense matrices; %s has %s of %s diagonals",
                plan,
                plan.indices().size(),
                plan.dimension());
        int[] s = plan.split();
        return switch (plan.algorithm()) {
            case TH_BSGS -> new PhaseModel(layout, storage, s[0], s[1], s[2]);
            case DH_BSGS -> new PhaseModel(layout, storage, s[0], 1, s[1]);
            case DIAGONAL -> new PhaseModel(layout, storage, plan.dimension(), 1, 1);
            case BSGS -> throw new InvalidTransformException("BSGS has no six-phase schedule");
        };
    }

    private int alpha() {
        return lay.alpha();
    }

    private static long ceil(long a, long b) {
        return (a + b - 1) / b;
    }

    /** The whole ledger under {@code g}. */
    public TrafficLedger ledger(Grouping g) {
        TrafficLedger.Builder b = new TrafficLedger.Builder();
        for (int p = 1; p <= 6; p++) phase(p, g, b);
        return b.build();
    }

    /**
     * The ledger of a block product whose {@code blocks} nonzero blocks are all dense, with
     * {@code inputs} nonzero block columns and {@code outputs} nonzero block rows: phases 1–3 per
     * input, phase 4 per block, phases 5–6 per output, and in phase 4 the U_{0,k}, U_{1,k} of a row
     * read back (2·n3·D limbs) for every block after the row's first. Peaks are those of one block.
     */
    public TrafficLedger blockLedger(Grouping g, int inputs, int outputs, int blocks) {
        InvalidTransformException.check(
                inputs >= 0
                        && outputs >= 0
                        && blocks >= Math.max(inputs, outputs)
                        && (long) blocks <= (long) inputs * outputs,
                "%s blocks cannot cover %s inputs and %s outputs",
                blocks,
                inputs,
                outputs);
        TrafficLedger.Builder b = new TrafficLedger.Builder();
        if (blocks == 0) return b.build();
        for (int i = 0; i < inputs; i++) for (int p = 1; p <= 3; p++) phase(p, g, b);
        for (int i = 0; i < blocks; i++) phase(4, g, b);
        b.read(4, LedgerKind.CIPHERTEXT, (long) (blocks - outputs) * 2L * n3 * d * lay.limbBytes());
        for (int i = 0; i < outputs; i++) for (int p = 5; p <= 6; p++) phase(p, g, b);
        return b.build();
    }

    /** Peak working set of phase {@code p} under {@code g}, in bytes. */
    public long peak(int p, Grouping g) {
        TrafficLedger.Builder b = new TrafficLedger.Builder();
        phase(p, g, b);
        return b.build().phase(p).peakResidentBytes();
    }

    /** Bytes moved by phase {@code p} under {@code g}. */
    public long traffic(int p, Grouping g) {
        TrafficLedger.Builder b = new TrafficLedger.Builder();
        phase(p, g, b);
        return b.build().phase(p).total();
    }

    void phase(int p, Grouping g, TrafficLedger.Builder b) {
        long lb = lay.limbBytes();
        int i1 = n1 - 1; // inner rotations
        int s = n2 > 1 ? n1 - 1 : 0; // sources of the middle layer (b_i → b'_i → D_i)
        int j = n2 - 1; // middle rotations
        int bb = n1 * n2; // baby steps B
        int k1 = n3 - 1; // outer rotations
        boolean d0 = i1 > 0 || j > 0; // is D_0 needed
        switch (p) {
            case 1 -> {
                b.read(1, LedgerKind.CIPHERTEXT, 2L * lq * lb);
                b.read(1, LedgerKind.TWIDDLES, d0 ? (long) (lq + d + (s > 0 ? d : 0)) * lb : 0);
                b.read(1, LedgerKind.KEYS, 2L * beta * i1 * d * lb);
                b.write(1, LedgerKind.CIPHERTEXT, (2L * lq + 2L * i1 * d + (long) s * d) * lb);
                b.write(1, LedgerKind.DIGITS, d0 ? (long) beta * d * lb : 0);
                b.iterations(1, d0 ? ceil(d, g.l1()) * Math.max(1, ceil(i1, g.m1())) : 0);
                long l = Math.min(g.l1(), d), m = Math.min(g.m1(), i1);
                long sb = s > 0 ? 1 : 0;
                b.peak(
                        1,
                        (d0
                                        ? 2L * lq
                                                + beta
                                                + Math.min(l, lq)
                                                + l * (1 + beta + sb + 2L * beta * m + (2 + sb) * m)
                                        : 2L * lq)
                                * lb);
            }
            case 2 -> {
                b.read(2, LedgerKind.CIPHERTEXT, (long) s * d * lb);
                b.read(2, LedgerKind.TWIDDLES, ceil(s, g.m2()) * d * lb);
                b.write(2, LedgerKind.DIGITS, (long) s * beta * d * lb);
                b.iterations(2, ceil(s, g.m2()) * ceil(d, g.l2()));
                long m = Math.min(g.m2(), s), l = Math.min(g.l2(), d), per = 2L * lq + beta;
                b.peak(2, s == 0 ? 0 : Math.max(m * per + l + m * beta * l, (m - 1) * per + d + 1 + lq) * lb);
            }
            case 3 -> {
                long kg = ceil(j, g.m3());
                b.read(3, LedgerKind.KEYS, 2L * beta * j * d * lb);
                b.read(3, LedgerKind.CIPHERTEXT, j == 0 ? 0 : kg * (lq + (long) (n1 - 1) * d) * lb);
                b.read(3, LedgerKind.DIGITS, j == 0 ? 0 : kg * n1 * (long) beta * d * lb);
                b.write(3, LedgerKind.CIPHERTEXT, 2L * n1 * j * d * lb);
                b.iterations(3, j == 0 ? 0 : ceil(d, g.l3()) * kg * ceil(n1, g.m4()));
                long l = Math.min(g.l3(), d), m3 = Math.min(g.m3(), j), m4 = Math.min(g.m4(), n1);
                long first =
                        (m4 - 1) * l + Math.min(l, lq) + m4 * beta * l; // the source group holding A_0 (Q limbs only)
                long other = n1 > m4 ? Math.min(m4, n1 - m4) * (l + beta * l) : 0;
                b.peak(3, j == 0 ? 0 : (2L * beta * m3 * l + Math.max(first, other) + 2 * l) * lb);
            }
            case 4 -> {
                long og = ceil(n3, g.m5());
                boolean compact = storage == Storage.COMPACT;
                b.read(4, LedgerKind.CIPHERTEXT, og * 2L * (lq + (long) (bb - 1) * d) * lb);
                if (compact) {
                    long units = n3 * ceil(lq, g.l4()) + (long) n3 * (bb - 1) * ceil(d, g.l4());
                    b.read(4, LedgerKind.DIAGONALS, units * lay.compactBytes());
                    b.read(4, LedgerKind.TWIDDLES, og * d * lb);
                } else {
                    b.read(4, LedgerKind.DIAGONALS, ((long) n3 * lq + (long) n3 * (bb - 1) * d) * lb);
                }
                b.write(4, LedgerKind.CIPHERTEXT, 2L * n3 * d * lb);
                b.iterations(4, og * ceil(d, g.l4()) * bb);
                long m = Math.min(g.m5(), n3), l = Math.min(g.l4(), d), lbb = bb > 1 ? l : Math.min(l, lq);
                long limbs = 2 * m * l + 2 * lbb + (compact ? l + m * lbb : m * lbb);
                b.peak(4, limbs * lb + (compact ? m * lay.compactBytes() : 0));
            }
            case 5 -> {
                long grp = ceil(k1, g.m6());
                b.read(5, LedgerKind.CIPHERTEXT, k1 == 0 ? 0 : (2L * k1 * d + 2L * d + (grp - 1) * 2L * d) * lb);
                b.read(5, LedgerKind.TWIDDLES, grp * 2L * d * lb);
                b.read(5, LedgerKind.KEYS, 2L * beta * k1 * d * lb);
                b.write(5, LedgerKind.CIPHERTEXT, grp * 2L * d * lb);
                b.iterations(5, grp * ceil(d, g.l5()));
                long m = Math.min(g.m6(), k1), l = Math.min(g.l5(), d), per = 2L * lq + beta;
                long prologue = Math.max(m * (alpha() + 1 + lq) + 2, m * per);
                long tile = m * per + 3 * l + (3L * beta + 1) * l;
                b.peak(5, k1 == 0 ? 0 : Math.max(prologue, tile) * lb);
            }
            case 6 -> {
                int out = lq - 1;
                b.read(6, LedgerKind.CIPHERTEXT, 2L * d * lb);
                b.read(6, LedgerKind.TWIDDLES, (long) d * lb);
                b.write(6, LedgerKind.CIPHERTEXT, 2L * out * lb);
                b.iterations(6, ceil(out, g.l6()));
                long l = Math.min(g.l6(), out);
                b.peak(6, (2L * alpha() + 4 + 5 * l) * lb);
            }
            default -> throw new InvalidTransformException("phases are 1 … 6: " + p);
        }
    }
}
