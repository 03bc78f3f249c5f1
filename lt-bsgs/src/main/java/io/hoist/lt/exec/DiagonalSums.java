package io.hoist.lt.exec;

import io.hoist.ckks.PolyQP;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.Domain;
import io.hoist.ring.NttTables;
import io.hoist.ring.Op;
import io.hoist.ring.Parallel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The DIAGONAL_SUM kernel (Algorithm 2 lines 12–14): the giant steps' accumulators U_{0,k}, U_{1,k}
 * of one state from the babies (A_b, B_b) of a source state (itself, or a block column's) and the
 * diagonals of one encoded transform (a block's own, in a block product).
 */
final class DiagonalSums {
    /** Babies per pass when expanding compact diagonals: bounds the expanded scratch to this many limbs per output. */
    private static final int COMPACT_CHUNK = 8;

    private DiagonalSums() {}

    /**
     * The diagonal sums of {@code group} over all QP limbs, the limbs spread over the engine's threads:
     * the whole group at once (the kernels pair giant steps over the same babies), compact diagonals
     * one step at a time (their expanded scratch would grow with the outputs).
     */
    static void all(
            ExecState st, ExecState src, EncodedDiagonals block, List<LtProgram.Step> group, boolean accumulate) {
        if (block.storage() == Storage.COMPACT)
            for (LtProgram.Step s : group) range(st, src, block, List.of(s), 0, st.d, true, accumulate);
        else range(st, src, block, group, 0, st.d, true, accumulate);
    }

    /** The diagonal sums of {@code group} over QP limbs [from, to), spread over the engine's threads; counts when {@code last}. */
    static void range(
            ExecState st,
            ExecState src,
            EncodedDiagonals block,
            List<LtProgram.Step> group,
            int from,
            int to,
            boolean last,
            boolean accumulate) {
        if (st.threads == 1 || to - from < 2) {
            sums(st, src, block, group, from, to, last, accumulate);
            return;
        }
        for (LtProgram.Step s : group) {
            st.ensure(s.out().get(0), Domain.NTT);
            st.ensure(s.out().get(1), Domain.NTT);
        }
        int outs = group.size(), half = outs / 8 * 4;
        if (block.storage() != Storage.COMPACT && half > 0 && from == 0 && to == st.d && st.d < 4 * st.threads) {
            // few limbs of unequal cost (the n13 preset's 60-bit P limb takes the integer-form kernel, 1.5×
            // an FMA limb): split by limbs, one thread got 55 % of the work. Tasks of one limb and half the
            // giant steps (whole fours, so the kernels group them as before), the widest limbs first,
            // taken in turn, even out.
            List<List<LtProgram.Step>> halves = List.of(group.subList(0, half), group.subList(half, outs));
            Parallel.forEach(st.threads, 2 * (to - from), i -> {
                int j = to - 1 - i / 2;
                sums(st, src, block, halves.get(i % 2), j, j + 1, last && j == from, accumulate);
            });
            return;
        }
        Parallel.ranges(
                st.threads,
                to - from,
                (a0, a1) -> sums(st, src, block, group, from + a0, from + a1, last && a0 == 0, accumulate));
    }

    /**
     * DIAGONAL_SUM of several giant steps at once over QP limbs [from, to): per limb one multi-output
     * kernel call over the babies (A_b, B_b) of {@code src} and the diagonals of {@code block}, into
     * this state's U buffers, added to them when {@code accumulate} (the blocks of one block row).
     * Diagonals the block does not hold are zero and skipped. Compact diagonals are expanded one limb
     * and at most {@link #COMPACT_CHUNK} babies at a time. Counts the PtMuls when {@code last}.
     */
    private static void sums(
            ExecState st,
            ExecState src,
            EncodedDiagonals block,
            List<LtProgram.Step> group,
            int from,
            int to,
            boolean last,
            boolean accumulate) {
        int outs = group.size();
        int[] babies = babies(group);
        // term table: diag[o][t] = r, or −1 when giant step o has no diagonal with baby t
        int[][] diag = new int[outs][babies.length];
        int[] aBuf = new int[babies.length], bBuf = new int[babies.length];
        boolean compact = block.storage() == Storage.COMPACT;
        // each term's diagonal looked up once here, not once per limb: the limb loop then holds no map
        // lookups (less for C2 to compile in the first evaluation)
        long[][][] words = new long[outs][babies.length][]; // the slab, or the compact words
        int[][][] offsets = compact ? null : new int[outs][babies.length][];
        for (int o = 0; o < outs; o++) {
            LtProgram.Step s = group.get(o);
            Arrays.fill(diag[o], -1);
            for (int t = 0; t < s.babies().length(); t++) {
                int ti = Arrays.binarySearch(babies, s.babies().get(t));
                int r = s.diagonals().get(t);
                diag[o][ti] = block.contains(r) ? r : -1;
                if (diag[o][ti] >= 0 && compact) words[o][ti] = block.compact(r);
                else if (diag[o][ti] >= 0) {
                    words[o][ti] = block.limb(r, from);
                    offsets[o][ti] = block.offsets(r);
                }
                aBuf[ti] = s.in().get(2 * t);
                bBuf[ti] = s.in().get(2 * t + 1);
            }
        }
        PolyQP[] u0 = new PolyQP[outs], u1 = new PolyQP[outs];
        for (int o = 0; o < outs; o++) {
            u0[o] = st.ensure(group.get(o).out().get(0), Domain.NTT);
            u1[o] = st.ensure(group.get(o).out().get(1), Domain.NTT);
        }
        long[][] o0 = new long[outs][], o1 = new long[outs][];
        int chunk = compact ? COMPACT_CHUNK : babies.length;
        long[][] x = new long[chunk][], y = new long[chunk][];
        long[][][] f = new long[outs][chunk][];
        int[][] fOff = new int[outs][chunk]; // word offsets in the slabs; compact scratch limbs start at 0
        List<long[]> scratch = new ArrayList<>();
        // the terms with a diagonal in some output, on a Q limb, and on a P limb: all but baby 0 (A_0, B_0
        // have no P limbs). The limb picks its list without a branch: C2 compiled the sums on stack
        // before a P limb with baby 0 had run, and that limb's branch trapped and threw the compiled code
        // away in the first evaluation
        int[][] termsOf = {presentTerms(diag, -1), presentTerms(diag, Arrays.binarySearch(babies, 0))};
        for (int j = from; j < to; j++) {
            NttTables tj = st.ctx.tablesQP(st.level, j);
            long q = tj.q();
            for (int o = 0; o < outs; o++) {
                o0[o] = u0[o].limb(j);
                o1[o] = u1[o].limb(j);
            }
            int[] ts = termsOf[(st.lq - 1 - j) >>> 31]; // 1 on a P limb (j ≥ lq)
            boolean first = !accumulate;
            for (int c0 = 0; c0 < ts.length; c0 += chunk) {
                int terms = 0;
                for (int i = c0; i < Math.min(ts.length, c0 + chunk); i++) {
                    int t = ts[i];
                    x[terms] = src.poly(aBuf[t]).limb(j);
                    y[terms] = src.poly(bBuf[t]).limb(j);
                    for (int o = 0; o < outs; o++) {
                        long[] w = words[o][t];
                        f[o][terms] = w == null ? null : compact ? expand(st, w, tj, scratch) : w;
                        fOff[o][terms] = w == null || compact ? 0 : offsets[o][t][j];
                    }
                    terms++;
                }
                if (compact) transformScratch(st, scratch, tj);
                st.kernels.dot2MontgomeryMulti(
                        x, y, f, fOff, !compact && block.packed(j), terms, outs, o0, o1, q, !first);
                first = false;
                for (long[] a : scratch) st.pool.put(a);
                scratch.clear();
            }
            if (first)
                for (int o = 0; o < outs; o++) {
                    Arrays.fill(o0[o], 0L);
                    Arrays.fill(o1[o], 0L);
                }
        }
        if (last) {
            for (int o = 0; o < outs; o++) {
                int terms = 0;
                for (int t = 0; t < babies.length; t++) if (diag[o][t] >= 0) terms++;
                st.counters.add(Op.PT_MUL, terms);
                st.counters.add(Op.MOD_MULS, 2L * terms * st.d * st.n);
            }
        }
    }

    /** The distinct babies of {@code group}'s steps, ascending (a loop, not a stream: C2 compiled the stream's classes in the first evaluation). */
    private static int[] babies(List<LtProgram.Step> group) {
        int count = 0;
        for (LtProgram.Step s : group) count += s.babies().length();
        int[] all = new int[count];
        int k = 0;
        for (LtProgram.Step s : group)
            for (int t = 0; t < s.babies().length(); t++) all[k++] = s.babies().get(t);
        Arrays.sort(all);
        int distinct = 0;
        for (int i = 0; i < all.length; i++) if (i == 0 || all[i] != all[i - 1]) all[distinct++] = all[i];
        return Arrays.copyOf(all, distinct);
    }

    /** The terms t ≠ {@code skip} (none skipped when negative) for which some output has a diagonal, ascending. */
    private static int[] presentTerms(int[][] diag, int skip) {
        int count = diag.length == 0 ? 0 : diag[0].length, k = 0;
        int[] out = new int[count];
        for (int t = 0; t < count; t++) {
            boolean any = false;
            for (int[] row : diag) any |= row[t] >= 0;
            if (any && t != skip) out[k++] = t;
        }
        return Arrays.copyOf(out, k);
    }

    /** A compact diagonal's limb (its words lifted modulo t's prime) in the coefficient domain, Montgomery form (NTT follows in {@code transformScratch}). */
    private static long[] expand(ExecState st, long[] words, NttTables t, List<long[]> scratch) {
        long[] s = st.pool.get();
        st.kernels.liftSigned(words, t.montgomeryR(), t.montgomeryRShoup(), t.q(), s);
        scratch.add(s);
        return s;
    }

    private static void transformScratch(ExecState st, List<long[]> scratch, NttTables t) {
        if (scratch.isEmpty()) return;
        NttTables[] ts = new NttTables[scratch.size()];
        Arrays.fill(ts, t);
        st.ctx.engine().forward(scratch.toArray(new long[0][]), ts, ts.length, st.counters);
    }
}
