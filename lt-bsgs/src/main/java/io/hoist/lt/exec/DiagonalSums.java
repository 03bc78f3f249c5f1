package io.hoist.lt.exec;

import io.hoist.ckks.PolyQP;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.Domain;
import io.hoist.ring.NttTables;
import io.hoist.ring.Op;
import io.hoist.ring.Parallel;
import io.hoist.ring.SubringPoly;
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
    /**
     * Giant steps per pass over compact diagonals: the multi-output kernels take them in fours, each baby's limbs
     * converted once for all four (one at a time, the diagonal products took 1.6× their precomputed time).
     */
    private static final int COMPACT_OUTS = 4;

    private DiagonalSums() {}

    /**
     * The diagonal sums of {@code group} over all QP limbs, the limbs spread over the engine's threads:
     * the whole group at once (the kernels pair giant steps over the same babies), compact diagonals
     * {@link #COMPACT_OUTS} steps at a time (their expanded scratch grows with the outputs).
     */
    static void all(
            ExecState st, ExecState src, EncodedDiagonals block, List<LtProgram.Step> group, boolean accumulate) {
        for (List<LtProgram.Step> g : passes(block.storage(), group))
            range(st, src, block, g, 0, st.d, true, accumulate);
    }

    /**
     * The groups {@link #all} passes to {@link #range}: the whole group, or its steps {@link #COMPACT_OUTS} at a
     * time over compact diagonals.
     */
    private static List<List<LtProgram.Step>> passes(Storage storage, List<LtProgram.Step> group) {
        if (storage != Storage.COMPACT) return List.of(group);
        List<List<LtProgram.Step>> out = new ArrayList<>(group.size());
        for (int i = 0; i < group.size(); i += COMPACT_OUTS)
            out.add(group.subList(i, Math.min(group.size(), i + COMPACT_OUTS)));
        return out;
    }

    /**
     * The pooled limbs each pass over {@code block}'s compact diagonals holds at once in the first chunk of a
     * Q limb (every direct evaluation runs it), at the index of the pass's last step; null unless compact. The
     * expansions' scratch, held beside the pass's buffers, for the pool's reservation.
     */
    static int[] compactScratch(EncodedDiagonals block) {
        LtProgram prog = block.program();
        if (block.storage() != Storage.COMPACT || prog == null) return null;
        int lq = prog.layout().level() + 1, d = prog.layout().d();
        int[] scratch = new int[prog.steps().size()];
        for (List<LtProgram.Step> pass : directPasses(prog, block.storage()))
            scratch[pass.getLast().index()] = scratchLimbs(tables(block, pass, lq, d));
        return scratch;
    }

    /** The limbs a pass with term tables {@code t} over compact diagonals expands in its first chunk of a Q limb. */
    private static int scratchLimbs(Tables t) {
        int chunk = Math.min(COMPACT_CHUNK, t.of[0].length), limbs = 0;
        for (int[] row : t.diag) for (int k = 0; k < chunk; k++) if (row[t.of[0][k]] >= 0) limbs++;
        return limbs;
    }

    /**
     * For the six-phase walk's call of {@link #range} on {@code group} over QP limbs [from, to): builds the term
     * tables it will use (as {@link #prepareDirect} does for the direct schedule) and returns the limbs one
     * thread's pass then expands over compact diagonals (0 over precomputed ones).
     */
    static int preparePhased(EncodedDiagonals block, List<LtProgram.Step> group, int from, int to, int threads) {
        LtProgram prog = block.program();
        int lq = prog.layout().level() + 1, d = prog.layout().d();
        int scratch = 0;
        for (List<LtProgram.Step> g : splits(block.storage(), group, from, to, d, threads)) {
            Tables t = tables(block, g, lq, d);
            if (block.storage() == Storage.COMPACT) scratch = Math.max(scratch, scratchLimbs(t));
        }
        return scratch;
    }

    /**
     * The passes a direct evaluation of {@code prog} over diagonals of {@code storage} makes, in program order:
     * each run of DIAGONAL_SUM steps (what {@link DirectExecutor} and {@link BlockExecutor} pass to {@link #all})
     * cut as {@link #passes} cuts it.
     */
    private static List<List<LtProgram.Step>> directPasses(LtProgram prog, Storage storage) {
        List<List<LtProgram.Step>> out = new ArrayList<>();
        List<LtProgram.Step> steps = prog.steps();
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).kind() != LtProgram.Kind.DIAGONAL_SUM) continue;
            int run = i + 1;
            while (run < steps.size() && steps.get(run).kind() == LtProgram.Kind.DIAGONAL_SUM) run++;
            out.addAll(passes(storage, steps.subList(i, run)));
            i = run - 1;
        }
        return out;
    }

    /**
     * Builds ahead the term tables of the groups a direct evaluation of {@code block} on {@code threads}
     * threads runs: each run of DIAGONAL_SUM steps in program order (what {@link DirectExecutor} and
     * {@link BlockExecutor} pass to {@link #all}), split as {@link #range} splits it. Built in the first
     * evaluation, they cost it their construction and C2's compilation of it (an on-stack compile of
     * 45 ms on the block product 8192², never run again since the tables are kept).
     */
    static void prepareDirect(EncodedDiagonals block, int threads) {
        LtProgram prog = block.program();
        if (prog == null) return;
        int lq = prog.layout().level() + 1, d = prog.layout().d();
        for (List<LtProgram.Step> pass : directPasses(prog, block.storage()))
            for (List<LtProgram.Step> g : splits(block.storage(), pass, 0, d, d, threads)) tables(block, g, lq, d);
    }

    /**
     * {@code group}'s term tables in {@code block}, built on first use. A look-up first, and the building
     * lambda only on a miss: on the direct schedule the tables were built at encoding.
     */
    private static Tables tables(EncodedDiagonals block, List<LtProgram.Step> group, int lq, int d) {
        GroupKey key = new GroupKey(group);
        Tables built = block.sumTables.get(key);
        return built != null ? built : block.sumTables.computeIfAbsent(key, k -> new Tables(group, block, lq, d));
    }

    /**
     * The groups {@link #range} makes one {@link Call} each of: {@code group} itself, or its two halves
     * when precomputed limbs are few for the threads (see there).
     */
    private static List<List<LtProgram.Step>> splits(
            Storage storage, List<LtProgram.Step> group, int from, int to, int d, int threads) {
        int outs = group.size(), half = outs / 8 * 4;
        if (threads == 1 || to - from < 2) return List.of(group);
        if (storage != Storage.COMPACT && half > 0 && from == 0 && to == d && d < 4 * threads)
            return List.of(group.subList(0, half), group.subList(half, outs));
        return List.of(group);
    }

    /**
     * The diagonal sums of {@code group} over QP limbs [from, to), spread over the engine's threads;
     * counts when {@code last}. The group's term tables are built once per block and group, not once
     * per task and evaluation: with tasks of one limb their setup ran 2d times per group in every
     * evaluation, and C2 compiled it (with the driver) during the first.
     */
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
            sums(st, src, block, new Call(st, group, block), from, to, last, accumulate);
            return;
        }
        List<List<LtProgram.Step>> parts = splits(block.storage(), group, from, to, st.d, st.threads);
        if (parts.size() == 2) {
            // few limbs of unequal cost (the n13 preset's 60-bit P limb takes the integer-form kernel, 1.5×
            // an FMA limb): split by limbs, one thread got 55 % of the work. Tasks of one limb and half the
            // giant steps (whole fours, so the kernels group them as before), the widest limbs first,
            // taken in turn, even out.
            Call[] halves = {new Call(st, parts.get(0), block), new Call(st, parts.get(1), block)};
            Parallel.forEach(st.threads, 2 * (to - from), i -> {
                int j = to - 1 - i / 2;
                sums(st, src, block, halves[i % 2], j, j + 1, last && j == from, accumulate);
            });
            return;
        }
        Call call = new Call(st, group, block);
        Parallel.ranges(
                st.threads,
                to - from,
                (a0, a1) -> sums(st, src, block, call, from + a0, from + a1, last && a0 == 0, accumulate));
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
            Call call,
            int from,
            int to,
            boolean last,
            boolean accumulate) {
        // the two storages in their own limb loops (one loop with both paths' branches inside its inner
        // loops compiled to 60–78 KB, three times, in the first evaluation)
        if (block.storage() == Storage.COMPACT) compactLimbs(st, src, call, from, to, accumulate);
        else precomputedLimbs(st, src, block, call, from, to, accumulate);
        if (last) call.count(st);
    }

    /**
     * {@link #sums} over precomputed diagonals. The limb loop holds no inner loop: its few back edges
     * per call keep it below C2's thresholds (C2 compiled the driver on stack and whole, two or three
     * times, in the first evaluation: 0.3–0.6 s of C2 beside the engine's threads on two processors).
     */
    private static void precomputedLimbs(
            ExecState st, ExecState src, EncodedDiagonals block, Call call, int from, int to, boolean accumulate) {
        LimbArgs args = new LimbArgs(call);
        for (int j = from; j < to; j++) {
            int p = (st.lq - 1 - j) >>> 31; // 1 on a P limb (j ≥ lq)
            int terms = args.fill(src, call, p, j);
            if (terms > 0)
                st.kernels.dot2MontgomeryMulti(
                        args.x,
                        args.y,
                        call.t.slabs[p],
                        call.t.fOff[j],
                        block.packed(j),
                        terms,
                        call.u0.length,
                        args.o0,
                        args.o1,
                        st.ctx.tablesQP(st.level, j).q(),
                        accumulate);
            else if (!accumulate) zero(args.o0, args.o1);
        }
    }

    /**
     * {@link #sums} over compact diagonals: each limb's terms expanded and transformed {@link #COMPACT_CHUNK} at a
     * time. The expanded limbs start at word 0, and the kernels get offsets of 0 rather than none: the warm-up
     * and precomputed diagonals pass offsets, and a null met first here trapped the grouped kernels' C2 code
     * in the first evaluation (+100–300 ms at n13).
     */
    private static void compactLimbs(ExecState st, ExecState src, Call call, int from, int to, boolean accumulate) {
        int outs = call.u0.length;
        long[][][] words = call.t.compactWords;
        SubringPoly[][] subring = call.t.compactSubring;
        long[][] o0 = new long[outs][], o1 = new long[outs][];
        long[][] x = new long[COMPACT_CHUNK][], y = new long[COMPACT_CHUNK][];
        long[][][] f = new long[outs][COMPACT_CHUNK][];
        int[][] atZero = new int[outs][COMPACT_CHUNK];
        List<long[]> scratch = new ArrayList<>(), lifted = new ArrayList<>();
        for (int j = from; j < to; j++) {
            NttTables tj = st.ctx.tablesQP(st.level, j);
            for (int o = 0; o < outs; o++) {
                o0[o] = call.u0[o].limb(j);
                o1[o] = call.u1[o].limb(j);
            }
            int[] ts = call.t.of[(st.lq - 1 - j) >>> 31];
            boolean first = !accumulate;
            for (int c0 = 0; c0 < ts.length; c0 += COMPACT_CHUNK) {
                int terms = 0;
                try { // the expanded diagonals' scratch goes back even when a step throws
                    for (int i = c0; i < Math.min(ts.length, c0 + COMPACT_CHUNK); i++) {
                        int t = ts[i];
                        x[terms] = src.poly(call.t.a[t]).limb(j);
                        y[terms] = src.poly(call.t.b[t]).limb(j);
                        for (int o = 0; o < outs; o++)
                            f[o][terms] = words[o][t] == null
                                    ? null
                                    : expand(st, words[o][t], subring[o][t], tj, scratch, lifted);
                        terms++;
                    }
                    transformScratch(st, lifted, tj);
                    st.kernels.dot2MontgomeryMulti(x, y, f, atZero, false, terms, outs, o0, o1, tj.q(), !first);
                } finally {
                    lifted.clear();
                    for (long[] a : scratch) st.pool.put(a);
                    scratch.clear();
                }
                first = false;
            }
            if (first) zero(o0, o1);
        }
    }

    private static void zero(long[][] o0, long[][] o1) {
        for (int o = 0; o < o0.length; o++) {
            Arrays.fill(o0[o], 0L);
            Arrays.fill(o1[o], 0L);
        }
    }

    /** One call's U buffers, created on the calling thread (so that no two tasks create one), and its group's tables against one block. */
    private static final class Call {
        final PolyQP[] u0;
        final PolyQP[] u1;
        final Tables t;

        Call(ExecState st, List<LtProgram.Step> group, EncodedDiagonals block) {
            int outs = group.size();
            u0 = new PolyQP[outs];
            u1 = new PolyQP[outs];
            for (int o = 0; o < outs; o++) {
                u0[o] = st.ensure(group.get(o).out().get(0), Domain.NTT);
                u1[o] = st.ensure(group.get(o).out().get(1), Domain.NTT);
            }
            t = tables(block, group, st.lq, st.d);
        }

        void count(ExecState st) {
            st.counters.add(Op.PT_MUL, t.ptMuls);
            st.counters.add(Op.MOD_MULS, 2L * t.ptMuls * st.d * st.n);
        }
    }

    /** A group of steps as a key: the same steps, compared by reference, in the same order. */
    static final class GroupKey {
        private final LtProgram.Step[] steps;
        private final int hash;

        GroupKey(List<LtProgram.Step> group) {
            steps = new LtProgram.Step[group.size()];
            for (int i = 0; i < steps.length; i++) steps[i] = group.get(i); // not toArray: see transformScratch
            int h = 1;
            for (LtProgram.Step s : steps) h = 31 * h + System.identityHashCode(s);
            hash = h;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof GroupKey k) || k.hash != hash || k.steps.length != steps.length) return false;
            for (int i = 0; i < steps.length; i++) if (k.steps[i] != steps[i]) return false;
            return true;
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * One group's terms against one block, built once and kept by the block ({@link
     * EncodedDiagonals#sumTables}): the distinct babies; each output's diagonal per baby (−1: none); the
     * babies' input ids; the terms with a diagonal in some output on a Q limb ({@code of[0]}) and on a P
     * limb ({@code of[1]}: all but baby 0, whose A_0, B_0 have no P limbs); the PtMuls; for compact
     * diagonals each term's words; for precomputed ones each term's slab and the word where each limb
     * starts in it. A limb picks its list by an index computed without a branch: a branch on it trapped
     * in the first evaluation.
     * Built per call, these loops ran often enough for C2 to compile them during the first evaluations.
     */
    static final class Tables {
        final int[] babies;
        final int[][] diag;
        final int[] a;
        final int[] b;
        final int[][] of;
        final long ptMuls;
        /** Compact diagonals: each output's words per baby (null: none). */
        final long[][][] compactWords;
        /** Compact diagonals in a proper subring Z[X^g] (null: none, or not in one), transformed by {@link SubringPoly}. */
        final SubringPoly[][] compactSubring;

        final long[][][][] slabs;
        final int[][][] fOff;

        /** The tables of {@code group} (steps of a program with {@code lq} Q limbs of {@code d} QP limbs) against {@code block}. */
        Tables(List<LtProgram.Step> group, EncodedDiagonals block, int lq, int d) {
            int outs = group.size();
            babies = babies(group);
            diag = new int[outs][babies.length];
            a = new int[babies.length];
            b = new int[babies.length];
            long muls = 0;
            for (int o = 0; o < outs; o++) {
                LtProgram.Step s = group.get(o);
                Arrays.fill(diag[o], -1);
                for (int t = 0; t < s.babies().length(); t++) {
                    int ti = Arrays.binarySearch(babies, s.babies().get(t));
                    int r = s.diagonals().get(t);
                    diag[o][ti] = block.contains(r) ? r : -1;
                    a[ti] = s.in().get(2 * t);
                    b[ti] = s.in().get(2 * t + 1);
                }
                for (int r : diag[o]) if (r >= 0) muls++;
            }
            ptMuls = muls;
            of = new int[][] {presentTerms(diag, -1), presentTerms(diag, Arrays.binarySearch(babies, 0))};
            // precomputed diagonals: per list and output each term's slab, and per limb (its list's terms)
            // the words where each output's term starts in it
            boolean precomputed = block.storage() != Storage.COMPACT;
            compactWords = precomputed ? null : new long[outs][babies.length][];
            compactSubring = precomputed ? null : new SubringPoly[outs][babies.length];
            for (int o = 0; !precomputed && o < outs; o++)
                for (int t = 0; t < babies.length; t++)
                    if (diag[o][t] >= 0) {
                        compactWords[o][t] = block.compact(diag[o][t]);
                        compactSubring[o][t] = SubringPoly.of(compactWords[o][t]);
                    }
            slabs = precomputed ? new long[2][outs][][] : null;
            for (int p = 0; precomputed && p < 2; p++)
                for (int o = 0; o < outs; o++) {
                    slabs[p][o] = new long[of[p].length][];
                    for (int i = 0; i < of[p].length; i++) {
                        int r = diag[o][of[p][i]];
                        slabs[p][o][i] = r < 0 ? null : block.slab(r);
                    }
                }
            fOff = precomputed ? new int[d][outs][] : null;
            for (int j = 0; precomputed && j < d; j++) {
                int[] ts = of[(lq - 1 - j) >>> 31];
                for (int o = 0; o < outs; o++) {
                    fOff[j][o] = new int[ts.length];
                    for (int i = 0; i < ts.length; i++) {
                        int r = diag[o][ts[i]];
                        fOff[j][o][i] = r < 0 ? 0 : block.offsets(r)[j];
                    }
                }
            }
        }
    }

    /** One task's kernel arguments over precomputed diagonals, refilled limb by limb. */
    private static final class LimbArgs {
        final long[][] x;
        final long[][] y;
        final long[][] o0;
        final long[][] o1;

        LimbArgs(Call call) {
            int most = call.t.of[0].length, outs = call.u0.length;
            x = new long[most][];
            y = new long[most][];
            o0 = new long[outs][];
            o1 = new long[outs][];
        }

        /** Limb j's outputs and babies from term list p; returns its term count. */
        int fill(ExecState src, Call call, int p, int j) {
            for (int o = 0; o < o0.length; o++) {
                o0[o] = call.u0[o].limb(j);
                o1[o] = call.u1[o].limb(j);
            }
            int[] ts = call.t.of[p];
            for (int i = 0; i < ts.length; i++) {
                x[i] = src.poly(call.t.a[ts[i]]).limb(j);
                y[i] = src.poly(call.t.b[ts[i]]).limb(j);
            }
            return ts.length;
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

    /**
     * A compact diagonal's limb in Montgomery form, in a pooled limb kept in {@code scratch}: transformed
     * here when the diagonal is in a subring ({@code subring} not null, one small NTT), else lifted
     * modulo t's prime and added to {@code lifted}, which {@code transformScratch} transforms in one call.
     */
    private static long[] expand(
            ExecState st, long[] words, SubringPoly subring, NttTables t, List<long[]> scratch, List<long[]> lifted) {
        long[] s = st.pool.get();
        scratch.add(s);
        DiagonalEncoder.liftLimb(st.ctx, subring, words, t, st.counters, s);
        if (subring == null) lifted.add(s);
        return s;
    }

    /**
     * The lifted limbs transformed in one call. Copied out by hand: {@code ArrayList.toArray(T[])} checks the
     * array's class against a profile all of the JDK's callers share, and that check trapped in the compiled
     * driver on two threads (three deoptimizations of {@link #compactLimbs} in the first evaluations at n13).
     */
    private static void transformScratch(ExecState st, List<long[]> scratch, NttTables t) {
        int count = scratch.size();
        if (count == 0) return;
        long[][] limbs = new long[count][];
        NttTables[] ts = new NttTables[count];
        for (int i = 0; i < count; i++) {
            limbs[i] = scratch.get(i);
            ts[i] = t;
        }
        st.ctx.engine().forward(limbs, ts, count, st.counters);
    }
}
