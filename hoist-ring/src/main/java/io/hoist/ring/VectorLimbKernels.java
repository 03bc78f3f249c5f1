package io.hoist.ring;

import io.hoist.math.ModArith;
import java.util.Arrays;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link LimbKernels} on {@code LongVector} lanes, the scalar twin's arithmetic lane by lane:
 * 64×64→128 products rebuilt from four 32×32→64 products, Montgomery reduction of 128-bit sums,
 * Shoup products by fixed operands, conditional subtractions as in {@link VectorNttBackend} (UMIN
 * with AVX-512, a sign test and a blend on AVX2). Tails shorter than a vector go to the scalar twin. As in the
 * vector NTT, no helper takes or returns a vector, so the product code is written out inside each
 * loop. Measured with helpers (2026-11-30, AVX2): dotBlock passed C2's node-count inlining cutoff
 * and boxed every vector (267 KB per call), and the inlined Shoup loops ran 15–35 % slower.
 */
public final class VectorLimbKernels implements LimbKernels {
    private static final VectorSpecies<Long> S = LongVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final long M32 = 0xFFFF_FFFFL;
    /** Primes from here on run the scalar twin (the lazy Shoup forms need 4q below 2^63). */
    static final long MAX_Q = 1L << 61;
    /**
     * Whether 64-bit lane multiplies are native (AVX-512 has vpmullq; 8 lanes implies it here). On
     * AVX2 C2 builds a general {@code LongVector.mul} from vpmulld and vphaddd, which is slower than
     * the three vpmuludq of the written-out low word, so there the low words are rebuilt from 32-bit
     * partial products. Either way every operand of a partial product is an AND or a shift of a vector
     * (never a broadcast of a masked scalar): only then does C2 emit a single vpmuludq for it.
     */
    static final boolean WIDE = L >= 8;

    private final ScalarLimbKernels scalar = new ScalarLimbKernels();

    /** Whether dot products over primes in [2^31, 2^50) run in FMA lanes ({@link FmaDotKernels}). */
    private final boolean fmaDot;

    /** With {@link #fmaDot}: whether the other primes' dot products run on the scalar twin (its vector form lost calibration). */
    private final boolean scalarOutsideFma;

    /** The integer forms of every kernel. */
    public VectorLimbKernels() {
        this(false, false);
    }

    /**
     * With {@code fmaDot}, dot products over primes in [2^31, 2^50) run in FMA lanes (the FMA form of
     * {@link Kernel#DOT2}); the other primes take the integer vector path (one multiply per product
     * below 2^31), or the scalar twin with {@code scalarOutsideFma}.
     */
    VectorLimbKernels(boolean fmaDot, boolean scalarOutsideFma) {
        this.fmaDot = fmaDot;
        this.scalarOutsideFma = fmaDot && scalarOutsideFma;
    }

    static boolean usable() {
        return L >= 4;
    }

    /**
     * Coefficients per block of {@link #sumShoup} and of the packed dot products above {@link #WHOLE_LIMB_MAX}:
     * each term's operands are read as contiguous runs, the running sums stay in L1 (rows of 2 KB).
     */
    private static final int BLOCK = 256;

    /**
     * Limbs up to this length run as one block: every diagonal or key limb then streams in one run
     * (64 KB at 2^13) instead of 2 KB pieces from many arrays, which the hardware prefetcher follows,
     * and the accumulators (4 rows, at most 256 KB) stay in L2. Measured on the n13 demo matrix
     * (TH-BSGS, AVX2 EPYC): warm evaluation 0.70–0.74 s with blocks of 256, 0.53–0.58 s as one block.
     * Longer limbs run in blocks of {@link #LARGE_DOT_BLOCK} (docs/benchmarks.md).
     */
    static final int WHOLE_LIMB_MAX = 1 << 13;

    /**
     * Coefficients per block of {@link #dot2Montgomery} and of the integer pairs above {@link #WHOLE_LIMB_MAX}: a
     * key inner product's β digits and key limbs, or a giant step's diagonals and babies, are read in runs of 32 KB
     * rather than 2 KB, so the prefetchers follow them, while the sums (4 or 8 rows of 32 KB) stay in L2. Measured
     * against blocks of {@link #BLOCK} (AVX-512 EPYC, a 60-bit prime, 5 terms at 2^16, operands from memory): 0.78
     * of the kernel's time; CoeffsToSlots boot16 0.91 (docs/benchmarks.md, thirty-second session).
     */
    static final int LARGE_DOT_BLOCK = 1 << 12;

    /** Length of the dot kernels' rows of sums: the longest block any of them runs (whole, large or packed). */
    private static final int DOT_ROW = Math.max(WHOLE_LIMB_MAX, Math.max(LARGE_DOT_BLOCK, BLOCK));

    /**
     * Words each row of sums gets beyond its length. Rows of 2^12 or 2^13 words, allocated one after another, start
     * a multiple of 4 KB apart (plus the 16-byte header), so the same coefficient of all rows falls in one L1 set
     * and eight rows and the operands' streams overflow its eight ways. 24 words skew each row by 208 bytes. In a
     * harness on an AMD EPYC (Zen 4, L1d 32 KB 8-way), the integer pairs' whole-limb rows at 2^13 took 24–26 cycles
     * per diagonal vector padded against 36–115 unpadded, depending on where the heap put them; the FMA fours
     * 14.8–15.9 against 17.6–19.2 (docs/benchmarks.md, thirty-first session).
     */
    static final int ROW_PAD = 24;

    private static long[][] longRows(int count, int len) {
        long[][] rows = new long[count][];
        for (int r = 0; r < count; r++) rows[r] = new long[len + ROW_PAD];
        return rows;
    }

    private static double[][] doubleRows(int count, int len) {
        double[][] rows = new double[count][];
        for (int r = 0; r < count; r++) rows[r] = new double[len + ROW_PAD];
        return rows;
    }

    private static final ThreadLocal<long[][]> SCRATCH = ThreadLocal.withInitial(() -> longRows(4, DOT_ROW));

    private static final ThreadLocal<double[][]> FMA_SCRATCH = ThreadLocal.withInitial(() -> doubleRows(2, DOT_ROW));

    /** The running sums of {@link #sumShoup}: one block. */
    private static final ThreadLocal<long[]> SUM_SCRATCH = ThreadLocal.withInitial(() -> new long[BLOCK]);

    @Override
    public String form() {
        return fmaDot ? "fma" : "vector";
    }

    @Override
    public void dot2Montgomery(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            boolean accumulate) {
        LimbKernels.checkDot(x, xOff, y, z, terms, out0, out1);
        final int n = out0.length;
        final int vecEnd = n - n % L;
        final int block = n <= WHOLE_LIMB_MAX ? Math.max(vecEnd, L) : LARGE_DOT_BLOCK;
        // one output: y and out0 stand in for z and out1, so the blocks' hoisted range checks hold
        final boolean two = z != null;
        final long[][] zz = two ? z : y;
        final long[] o1 = two ? out1 : out0;
        // a key inner product's few terms: the sums in registers, each operand streamed once
        if (two && xOff == null && q >= VectorDotKernels.SMALL_Q) {
            final boolean inFma = fmaDot && FmaDotKernels.accepts(q);
            if (inFma && FusedDotKernels.fmaTakes(terms, q)) {
                FusedDotKernels.fma(x, y, z, terms, out0, out1, q, ModArith.montgomeryRInverse(q), accumulate, vecEnd);
                if (vecEnd < n) tail(x, xOff, y, z, terms, out0, out1, q, accumulate, vecEnd);
                return;
            }
            if (!inFma && !scalarOutsideFma && FusedDotKernels.integerTakes(terms, q)) {
                FusedDotKernels.integer(
                        x, y, z, terms, out0, out1, q, ModArith.montgomeryNegInv(q), accumulate, vecEnd);
                if (vecEnd < n) tail(x, xOff, y, z, terms, out0, out1, q, accumulate, vecEnd);
                return;
            }
        }
        if (fmaDot && q >= VectorDotKernels.SMALL_Q && FmaDotKernels.accepts(q)) {
            final long rInv = ModArith.montgomeryRInverse(q);
            final double[][] scratch = FMA_SCRATCH.get();
            for (int base = 0; base < vecEnd; base += block) {
                FmaDotKernels.dotBlock(
                        x,
                        xOff,
                        y,
                        zz,
                        two,
                        terms,
                        out0,
                        o1,
                        q,
                        rInv,
                        accumulate,
                        base,
                        Math.min(block, vecEnd - base),
                        scratch);
            }
            if (vecEnd < n) tail(x, xOff, y, z, terms, out0, out1, q, accumulate, vecEnd);
            return;
        }
        if (scalarOutsideFma) {
            scalar.dot2Montgomery(x, xOff, y, z, terms, out0, out1, q, accumulate);
            return;
        }
        final long ni = ModArith.montgomeryNegInv(q);
        final int chunk = LimbKernels.montgomeryTerms(q);
        final long[][] scratch = SCRATCH.get();
        for (int base = 0; base < vecEnd; base += block) {
            VectorDotKernels.dotBlock(
                    x,
                    xOff,
                    y,
                    zz,
                    two,
                    terms,
                    out0,
                    o1,
                    q,
                    ni,
                    chunk,
                    accumulate,
                    base,
                    Math.min(block, vecEnd - base),
                    scratch);
        }
        if (vecEnd < n) tail(x, xOff, y, z, terms, out0, out1, q, accumulate, vecEnd);
    }

    /**
     * Blocks as in {@link #dot2Montgomery} (a multiple of 16 coefficients, so every block starts at a
     * group of {@link PackedLimbs}), each on {@link VectorDotKernels#dotBlockSmallPacked}; wider
     * vectors than a group, and the scalar-outside-FMA choice, run the scalar twin.
     */
    @Override
    public void dot2MontgomeryPacked(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            boolean accumulate) {
        LimbKernels.checkPacked(x, xOff, y, z, terms, out0, out1, q);
        if (scalarOutsideFma || L > PackedLimbs.GROUP) {
            scalar.dot2MontgomeryPacked(x, xOff, y, z, terms, out0, out1, q, accumulate);
            return;
        }
        final int n = out0.length;
        final int block = n <= WHOLE_LIMB_MAX ? n : BLOCK;
        final boolean two = z != null;
        final long ni = ModArith.montgomeryNegInv(q);
        final long[][] scratch = SCRATCH.get();
        for (int base = 0; base < n; base += block) {
            VectorDotKernels.dotBlockSmallPacked(
                    x,
                    xOff,
                    y,
                    two ? z : y,
                    two,
                    terms,
                    out0,
                    two ? out1 : out0,
                    q,
                    ni,
                    accumulate,
                    base,
                    Math.min(block, n - base),
                    scratch);
        }
    }

    private void tail(
            long[][] x,
            int[] xOff,
            long[][] y,
            long[][] z,
            int terms,
            long[] out0,
            long[] out1,
            long q,
            boolean acc,
            int from) {
        int len = out0.length - from;
        long[][] xs = new long[terms][], ys = new long[terms][], zs = z == null ? null : new long[terms][];
        for (int t = 0; t < terms; t++) {
            int xo = (xOff == null ? 0 : xOff[t]) + from;
            xs[t] = Arrays.copyOfRange(x[t], xo, xo + len);
            ys[t] = Arrays.copyOfRange(y[t], from, from + len);
            if (zs != null) zs[t] = Arrays.copyOfRange(z[t], from, from + len);
        }
        long[] o0 = Arrays.copyOfRange(out0, from, from + len),
                o1 = z == null ? null : Arrays.copyOfRange(out1, from, from + len);
        scalar.dot2Montgomery(xs, ys, zs, terms, o0, o1, q, acc);
        System.arraycopy(o0, 0, out0, from, len);
        if (o1 != null) System.arraycopy(o1, 0, out1, from, len);
    }

    /**
     * Coefficients per block of grouped outputs in the FMA form ({@link FmaDotKernels#groupBlock}): whole
     * limbs at 2^13. The kernel is bound by its streams, and a diagonal read in two runs of 32 KB restarts
     * the prefetchers twice as often; the eight padded rows of sums (512 KB) still fit a 1 MB L2
     * (docs/benchmarks.md, thirty-second session: 4096 measured 1.06× as slow at the n13 preset).
     */
    static final int GROUP_BLOCK = 8192;

    /** The FMA form's rows of sums, eight for four outputs per pass (four for two). */
    private static final ThreadLocal<double[][]> GROUP_SCRATCH =
            ThreadLocal.withInitial(() -> doubleRows(8, GROUP_BLOCK));

    /** The eight rows of 128-bit sums of the integer form's pairs ({@link VectorDotKernels#dualBlock}). */
    private static final ThreadLocal<long[][]> WIDE_DUAL_SCRATCH = ThreadLocal.withInitial(() -> longRows(8, DOT_ROW));

    /**
     * Outputs in groups that share their terms, so that each baby block (A_b, B_b) is read once per
     * group rather than once per giant step: four (else two) at a time in the FMA form ({@link
     * FmaDotKernels#groupBlock}, blocks of {@link #GROUP_BLOCK}), two at a time in the integer form for
     * primes of at least 2^31 ({@link VectorDotKernels#dualBlock}, whole limbs up to {@link
     * #WHOLE_LIMB_MAX}, blocks of {@link #LARGE_DOT_BLOCK} above, as the single-output form); otherwise output
     * by output on the single-output kernel, as {@link LimbKernels#multiByOutput}. The n13 demo matrix,
     * TH-BSGS on one thread: warm evaluation 0.91 with pairs, then 0.90 with fours; N = 2^16, 256
     * diagonals: 0.92 with the integer pairs in blocks (docs/benchmarks.md). Interleaving all outputs
     * per coefficient block measured slower.
     */
    @Override
    public void dot2MontgomeryMulti(
            long[][] x,
            long[][] y,
            long[][][] f,
            int[][] fOff,
            boolean packed,
            int terms,
            int outs,
            long[][] out0,
            long[][] out1,
            long q,
            boolean accumulate) {
        final int n = outs > 1 ? out0[0].length : 0;
        final boolean fma = fmaDot && FmaDotKernels.accepts(q);
        final int block = fma ? Math.min(n, GROUP_BLOCK) : n <= WHOLE_LIMB_MAX ? n : LARGE_DOT_BLOCK;
        if (packed
                || block == 0
                || n % L != 0
                || n % block != 0
                || q < VectorDotKernels.SMALL_Q
                || (!fma && (scalarOutsideFma || q >= MAX_Q))) {
            LimbKernels.multiByOutput(this, x, y, f, fOff, packed, terms, outs, out0, out1, q, accumulate);
            return;
        }
        if (fOff != null && fOff.length < outs)
            throw new IllegalArgumentException(fOff.length + " rows of offsets for " + outs + " outputs");
        final long ni = ModArith.montgomeryNegInv(q), rInv = fma ? ModArith.montgomeryRInverse(q) : 0;
        final int chunk = LimbKernels.montgomeryTerms(q);
        long[][] fa = new long[terms][], fb = new long[terms][], xs = new long[terms][], ys = new long[terms][];
        int[] oa = fOff == null ? null : new int[terms], ob = fOff == null ? null : new int[terms];
        // allocated up front, not on the first four: a branch the warm-up's single four never takes would
        // be an uncommon trap in the first evaluation (C2's code thrown away, the dispatcher recompiled)
        final long[][][] f4 = fma ? new long[4][terms][] : null;
        final int[][] o4 = fma && fOff != null ? new int[4][terms] : null;
        for (int o = 0; o < outs; o++) {
            final int c = LimbKernels.presentTerms(x, y, f, fOff, o, terms, fa, oa, xs, ys);
            if (c == 0) {
                if (!accumulate) {
                    Arrays.fill(out0[o], 0L);
                    Arrays.fill(out1[o], 0L);
                }
            } else if (fma && o + 3 < outs && sameTerms(f, o, 4, terms) && sameLength(out0, o, 4, n)) {
                group(4, x, y, f, fOff, terms, c, o, out0, out1, q, rInv, accumulate, n, block, f4, o4, xs, ys);
                o += 3;
            } else if (fma && o + 1 < outs && sameTerms(f, o, 2, terms) && sameLength(out0, o, 2, n)) {
                group(2, x, y, f, fOff, terms, c, o, out0, out1, q, rInv, accumulate, n, block, f4, o4, xs, ys);
                o++;
            } else if (!fma && o + 1 < outs && sameTerms(f, o, 2, terms) && sameLength(out0, o, 2, n)) {
                LimbKernels.presentTerms(x, y, f, fOff, o + 1, terms, fb, ob, xs, ys);
                LimbKernels.checkDot(fa, oa, xs, ys, c, out0[o], out1[o]);
                LimbKernels.checkDot(fb, ob, xs, ys, c, out0[o + 1], out1[o + 1]);
                final long[][] scratch = WIDE_DUAL_SCRATCH.get();
                for (int base = 0; base < n; base += block)
                    VectorDotKernels.dualBlock(
                            fa,
                            oa,
                            fb,
                            ob,
                            xs,
                            ys,
                            c,
                            out0[o],
                            out1[o],
                            out0[o + 1],
                            out1[o + 1],
                            q,
                            ni,
                            chunk,
                            accumulate,
                            base,
                            block,
                            scratch);
                o++;
            } else dot2Montgomery(fa, oa, xs, ys, c, out0[o], out1[o], q, accumulate);
        }
    }

    /**
     * Outputs o … o+count−1 (count 2 or 4), which have the same c present terms, by {@link
     * FmaDotKernels#groupBlock} block by block; f4 and o4 receive their terms (xs and ys, the babies,
     * are the same for all of them).
     */
    private static void group(
            int count,
            long[][] x,
            long[][] y,
            long[][][] f,
            int[][] fOff,
            int terms,
            int c,
            int o,
            long[][] out0,
            long[][] out1,
            long q,
            long rInv,
            boolean accumulate,
            int n,
            int block,
            long[][][] f4,
            int[][] o4,
            long[][] xs,
            long[][] ys) {
        for (int i = 0; i < count; i++) {
            int[] oi = o4 == null ? null : o4[i];
            LimbKernels.presentTerms(x, y, f, fOff, o + i, terms, f4[i], oi, xs, ys);
            LimbKernels.checkDot(f4[i], oi, xs, ys, c, out0[o + i], out1[o + i]);
        }
        final double[][] scratch = GROUP_SCRATCH.get();
        for (int base = 0; base < n; base += block)
            FmaDotKernels.groupBlock(
                    count == 4, f4, o4, xs, ys, c, out0, out1, o, q, rInv, accumulate, base, block, scratch);
    }

    /** Whether outputs o+1 … o+count−1 have the terms of output o present. */
    private static boolean sameTerms(long[][][] f, int o, int count, int terms) {
        for (int i = 1; i < count; i++)
            for (int t = 0; t < terms; t++) if ((f[o][t] == null) != (f[o + i][t] == null)) return false;
        return true;
    }

    /** Whether the first outputs o … o+count−1 are all n long (the grouped kernels' blocks cover n). */
    private static boolean sameLength(long[][] out0, int o, int count, int n) {
        for (int i = 0; i < count; i++) if (out0[o + i].length != n) return false;
        return true;
    }

    /**
     * One pass ({@link MulModKernels}): in FMA lanes for primes below 2^50 with {@code fmaDot}, else in integer lanes
     * below {@link #MAX_Q}, else (or with {@code scalarOutsideFma}) the scalar twin.
     */
    @Override
    public void mulMod(long[] a, long[] b, long[] out, long q, boolean accumulate) {
        LimbKernels.checkProduct(out, a, b);
        final int n = out.length, vecEnd = n - n % L;
        if (fmaDot && FmaDotKernels.accepts(q)) MulModKernels.fma(a, b, out, q, accumulate, vecEnd);
        else if (q < MAX_Q && !scalarOutsideFma) {
            long r = ModArith.montgomeryR(q);
            MulModKernels.integer(
                    a, b, out, q, ModArith.montgomeryNegInv(q), r, ModArith.shoupQuotient(r, q), accumulate, vecEnd);
        } else {
            scalar.mulMod(a, b, out, q, accumulate);
            return;
        }
        if (vecEnd < n) ScalarLimbKernels.mulModRange(a, b, out, q, accumulate, vecEnd, n);
    }

    @Override
    public void mulModSum(long[] a0, long[] b0, long[] a1, long[] b1, long[] out, long q) {
        LimbKernels.checkProduct(out, a0, b0, a1, b1);
        final int n = out.length, vecEnd = n - n % L;
        if (fmaDot && FmaDotKernels.accepts(q)) MulModKernels.fmaSum(a0, b0, a1, b1, out, q, vecEnd);
        else if (q < MAX_Q && !scalarOutsideFma) {
            long r = ModArith.montgomeryR(q);
            MulModKernels.integerSum(
                    a0, b0, a1, b1, out, q, ModArith.montgomeryNegInv(q), r, ModArith.shoupQuotient(r, q), vecEnd);
        } else {
            scalar.mulModSum(a0, b0, a1, b1, out, q);
            return;
        }
        if (vecEnd < n) ScalarLimbKernels.mulModSumRange(a0, b0, a1, b1, out, q, vecEnd, n);
    }

    @Override
    public void mulShoup(long[] x, long w, long ws, long q, long[] out, int from, int len) {
        if (q >= MAX_Q) {
            scalar.mulShoup(x, w, ws, q, out, from, len);
            return;
        }
        final LongVector v2q = LongVector.broadcast(S, 2 * q);
        final LongVector vq = LongVector.broadcast(S, q),
                vw = LongVector.broadcast(S, w),
                vs = LongVector.broadcast(S, ws);
        final LongVector wl = vs.and(M32), wh = vs.lanewise(VectorOperators.LSHR, 32);
        final LongVector vwl = vw.and(M32), vwh = vw.lanewise(VectorOperators.LSHR, 32);
        final LongVector ql = vq.and(M32), qh = vq.lanewise(VectorOperators.LSHR, 32);
        int end = from + len, vecEnd = from + len - len % L;
        for (int k = from; k < vecEnd; k += L) {
            LongVector v = LongVector.fromArray(S, x, k);
            LongVector vl = v.and(M32), vh = v.lanewise(VectorOperators.LSHR, 32);
            // ⌊v·ws / 2^64⌋ less 0, 1 or 2 (the carries of the dropped low partial products): r in [0, 4q)
            LongVector hi = vh.mul(wh)
                    .add(vl.mul(wh).lanewise(VectorOperators.LSHR, 32))
                    .add(vh.mul(wl).lanewise(VectorOperators.LSHR, 32));
            LongVector r;
            if (WIDE) r = v.mul(vw).sub(hi.mul(vq));
            else {
                LongVector il = hi.and(M32), ih = hi.lanewise(VectorOperators.LSHR, 32);
                r = vl.mul(vwl)
                        .add(vl.mul(vwh).add(vh.mul(vwl)).lanewise(VectorOperators.LSHL, 32))
                        .sub(il.mul(ql).add(il.mul(qh).add(ih.mul(ql)).lanewise(VectorOperators.LSHL, 32)));
            }
            r = (WIDE
                    ? r.lanewise(VectorOperators.UMIN, r.sub(v2q))
                    : r.sub(v2q).blend(r, r.sub(v2q).compare(VectorOperators.LT, 0L)));
            (WIDE
                            ? r.lanewise(VectorOperators.UMIN, r.sub(vq))
                            : r.sub(vq).blend(r, r.sub(vq).compare(VectorOperators.LT, 0L)))
                    .intoArray(out, k);
        }
        if (vecEnd < end) scalar.mulShoup(x, w, ws, q, out, vecEnd, end - vecEnd);
    }

    /**
     * Terms outer, coefficients inner over blocks of {@link #BLOCK}: each term's constant and its
     * halves are broadcast once per block, the running sums stay in an L1 row. Each Shoup product drops
     * the lowest partial product from its quotient (short by at most 2, so in [0, 4d)) and is brought
     * into [0, 2d) before it is added. Measured against coefficients outer with every term's
     * broadcasts inside (AVX-512, 6 terms, 25 targets at N = 2^16): 0.30 against 0.39 ns per product.
     */
    @Override
    public void sumShoup(long[][] y, int yOff, int terms, long[] w, long[] ws, long d, long[] out, int off, int len) {
        if (d >= MAX_Q || terms < 1) {
            scalar.sumShoup(y, yOff, terms, w, ws, d, out, off, len);
            return;
        }
        final LongVector vd = LongVector.broadcast(S, d), v2d = LongVector.broadcast(S, 2 * d);
        final LongVector dl = vd.and(M32), dh = vd.lanewise(VectorOperators.LSHR, 32);
        final long[] acc = SUM_SCRATCH.get();
        final int vecEnd = len - len % L;
        for (int base = 0; base < vecEnd; base += BLOCK) {
            final int end = Math.min(vecEnd, base + BLOCK);
            for (int i = 0; i < terms; i++) {
                final long[] yi = y[i];
                final boolean first = i == 0, last = i == terms - 1;
                final LongVector vw = LongVector.broadcast(S, w[i]), vs = LongVector.broadcast(S, ws[i]);
                final LongVector wl = vs.and(M32), wh = vs.lanewise(VectorOperators.LSHR, 32);
                final LongVector vwl = vw.and(M32), vwh = vw.lanewise(VectorOperators.LSHR, 32);
                for (int k = base; k < end; k += L) {
                    LongVector v = LongVector.fromArray(S, yi, yOff + k);
                    LongVector vl = v.and(M32), vh = v.lanewise(VectorOperators.LSHR, 32);
                    // ⌊v·ws / 2^64⌋ less 0, 1 or 2 (the carries of the dropped low partial products): p in [0, 4d)
                    LongVector hi = vh.mul(wh)
                            .add(vl.mul(wh).lanewise(VectorOperators.LSHR, 32))
                            .add(vh.mul(wl).lanewise(VectorOperators.LSHR, 32));
                    LongVector p;
                    if (WIDE) p = v.mul(vw).sub(hi.mul(vd));
                    else {
                        LongVector il = hi.and(M32), ih = hi.lanewise(VectorOperators.LSHR, 32);
                        p = vl.mul(vwl)
                                .add(vl.mul(vwh).add(vh.mul(vwl)).lanewise(VectorOperators.LSHL, 32))
                                .sub(il.mul(dl).add(il.mul(dh).add(ih.mul(dl)).lanewise(VectorOperators.LSHL, 32)));
                    }
                    p = (WIDE
                            ? p.lanewise(VectorOperators.UMIN, p.sub(v2d))
                            : p.sub(v2d).blend(p, p.sub(v2d).compare(VectorOperators.LT, 0L)));
                    if (!first) {
                        p = LongVector.fromArray(S, acc, k - base).add(p);
                        p = (WIDE
                                ? p.lanewise(VectorOperators.UMIN, p.sub(v2d))
                                : p.sub(v2d).blend(p, p.sub(v2d).compare(VectorOperators.LT, 0L)));
                    }
                    if (last)
                        (WIDE
                                        ? p.lanewise(VectorOperators.UMIN, p.sub(vd))
                                        : p.sub(vd).blend(p, p.sub(vd).compare(VectorOperators.LT, 0L)))
                                .intoArray(out, off + k);
                    else p.intoArray(acc, k - base);
                }
            }
        }
        if (vecEnd < len) scalar.sumShoup(y, yOff + vecEnd, terms, w, ws, d, out, off + vecEnd, len - vecEnd);
    }

    /**
     * Int lanes as many as {@link #S}'s: an automorphism's source lanes, widened to longs. Null where no
     * vector shape holds them — one long lane ({@code -XX:MaxVectorSize=8}: no 32-bit shape), or a width
     * that is not a shape of its own (a scalable vector of 384 bits) — and the automorphism then runs
     * the scalar loop.
     */
    private static final VectorSpecies<Integer> LANE_INDEX = laneIndex();

    private static VectorSpecies<Integer> laneIndex() {
        if (L < 2) return null;
        try {
            return VectorSpecies.of(int.class, VectorShape.forBitSize(32 * L));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The permutation block by block: an automorphism maps each aligned block of L outputs onto one
     * aligned block of L inputs ({@link NttPermutation#permutesBlocks}), so one load (and one of y, added
     * in the input's order), one lane reordering by the table's indices mod L, and one store, where a
     * gather (vpgatherdq) fetched every lane on its own and lost to the scalar loop. The indices come from
     * the table itself: no other table, nothing to build in a first evaluation (a {@code VectorShuffle}
     * from the int array boxed, 65 KB per call). Calibration: 0.32–0.36× the scalar loop's time with AVX-512,
     * 0.57× under {@code -XX:UseAVX=2} (docs/benchmarks.md, twenty-ninth session).
     */
    @Override
    public void automorphismNtt(long[] x, long[] y, long[] out, NttPermutation p, long q, boolean accumulate) {
        final int[] idx = p.table;
        final int n = idx.length;
        if (out == x || out == y) throw new IllegalArgumentException("automorphism cannot run in place");
        if (q >= MAX_Q
                || x.length != n
                || out.length != n
                || (y != null && y.length != n)
                || LANE_INDEX == null
                || !p.permutesBlocks(L)) {
            Automorphism.applyNttAdd(x, y, out, p, q, accumulate);
            return;
        }
        final LongVector vq = LongVector.broadcast(S, q);
        final boolean withY = y != null;
        final long[] yy = withY ? y : x; // never null, so range checks hoisted from a profile with y hold
        for (int t = 0; t < n; t += L) {
            final int s = idx[t] & -L;
            LongVector v = LongVector.fromArray(S, x, s);
            if (withY) {
                v = v.add(LongVector.fromArray(S, yy, s));
                v = (WIDE
                        ? v.lanewise(VectorOperators.UMIN, v.sub(vq))
                        : v.sub(vq).blend(v, v.sub(vq).compare(VectorOperators.LT, 0L)));
            }
            LongVector lanes = (LongVector)
                    IntVector.fromArray(LANE_INDEX, idx, t).and(L - 1).convertShape(VectorOperators.I2L, S, 0);
            v = lanes.selectFrom(v);
            if (accumulate) {
                v = v.add(LongVector.fromArray(S, out, t));
                v = (WIDE
                        ? v.lanewise(VectorOperators.UMIN, v.sub(vq))
                        : v.sub(vq).blend(v, v.sub(vq).compare(VectorOperators.LT, 0L)));
            }
            v.intoArray(out, t);
        }
    }

    @Override
    public void liftSigned(long[] c, long w, long ws, long q, long[] out) {
        if (q >= MAX_Q) {
            scalar.liftSigned(c, w, ws, q, out);
            return;
        }
        final LongVector v2q = LongVector.broadcast(S, 2 * q);
        final LongVector vq = LongVector.broadcast(S, q), vw = LongVector.broadcast(S, w), zero = LongVector.zero(S);
        final LongVector vs = LongVector.broadcast(S, ws);
        final LongVector wl = vs.and(M32), wh = vs.lanewise(VectorOperators.LSHR, 32);
        final LongVector vwl = vw.and(M32), vwh = vw.lanewise(VectorOperators.LSHR, 32);
        final LongVector ql = vq.and(M32), qh = vq.lanewise(VectorOperators.LSHR, 32);
        int n = out.length, vecEnd = n - n % L;
        for (int k = 0; k < vecEnd; k += L) {
            LongVector x = LongVector.fromArray(S, c, k);
            // |x| by a compare and a blend: AVX2 has neither a 64-bit lane ABS nor an arithmetic shift,
            // and a lanewise operation C2 cannot map stays in Java (16 ns per coefficient)
            VectorMask<Long> negative = x.compare(VectorOperators.LT, 0);
            LongVector v = x.blend(x.neg(), negative);
            LongVector vl = v.and(M32), vh = v.lanewise(VectorOperators.LSHR, 32);
            // ⌊v·ws / 2^64⌋ less 0, 1 or 2 (the carries of the dropped low partial products): r in [0, 4q)
            LongVector hi = vh.mul(wh)
                    .add(vl.mul(wh).lanewise(VectorOperators.LSHR, 32))
                    .add(vh.mul(wl).lanewise(VectorOperators.LSHR, 32));
            LongVector r;
            if (WIDE) r = v.mul(vw).sub(hi.mul(vq));
            else {
                LongVector il = hi.and(M32), ih = hi.lanewise(VectorOperators.LSHR, 32);
                r = vl.mul(vwl)
                        .add(vl.mul(vwh).add(vh.mul(vwl)).lanewise(VectorOperators.LSHL, 32))
                        .sub(il.mul(ql).add(il.mul(qh).add(ih.mul(ql)).lanewise(VectorOperators.LSHL, 32)));
            }
            r = (WIDE
                    ? r.lanewise(VectorOperators.UMIN, r.sub(v2q))
                    : r.sub(v2q).blend(r, r.sub(v2q).compare(VectorOperators.LT, 0L)));
            r = (WIDE
                    ? r.lanewise(VectorOperators.UMIN, r.sub(vq))
                    : r.sub(vq).blend(r, r.sub(vq).compare(VectorOperators.LT, 0L)));
            // negative inputs: q − r, except that 0 stays 0
            LongVector negated = vq.sub(r).blend(zero, r.compare(VectorOperators.EQ, 0));
            r.blend(negated, negative).intoArray(out, k);
        }
        if (vecEnd < n) {
            long[] cs = Arrays.copyOfRange(c, vecEnd, n), os = new long[n - vecEnd];
            scalar.liftSigned(cs, w, ws, q, os);
            System.arraycopy(os, 0, out, vecEnd, n - vecEnd);
        }
    }

    @Override
    public void subMulShoup(long[] a, long[] b, long[] out, long w, long ws, long q) {
        if (q >= MAX_Q) {
            scalar.subMulShoup(a, b, out, w, ws, q);
            return;
        }
        final LongVector v2q = LongVector.broadcast(S, 2 * q);
        final LongVector vq = LongVector.broadcast(S, q),
                vw = LongVector.broadcast(S, w),
                vs = LongVector.broadcast(S, ws);
        final LongVector wl = vs.and(M32), wh = vs.lanewise(VectorOperators.LSHR, 32);
        final LongVector vwl = vw.and(M32), vwh = vw.lanewise(VectorOperators.LSHR, 32);
        final LongVector ql = vq.and(M32), qh = vq.lanewise(VectorOperators.LSHR, 32);
        int n = out.length, vecEnd = n - n % L;
        for (int k = 0; k < vecEnd; k += L) {
            LongVector v = LongVector.fromArray(S, a, k)
                    .sub(LongVector.fromArray(S, b, k))
                    .add(vq); // in (0, 2q)
            LongVector vl = v.and(M32), vh = v.lanewise(VectorOperators.LSHR, 32);
            // ⌊v·ws / 2^64⌋ less 0, 1 or 2 (the carries of the dropped low partial products): r in [0, 4q)
            LongVector hi = vh.mul(wh)
                    .add(vl.mul(wh).lanewise(VectorOperators.LSHR, 32))
                    .add(vh.mul(wl).lanewise(VectorOperators.LSHR, 32));
            LongVector r;
            if (WIDE) r = v.mul(vw).sub(hi.mul(vq));
            else {
                LongVector il = hi.and(M32), ih = hi.lanewise(VectorOperators.LSHR, 32);
                r = vl.mul(vwl)
                        .add(vl.mul(vwh).add(vh.mul(vwl)).lanewise(VectorOperators.LSHL, 32))
                        .sub(il.mul(ql).add(il.mul(qh).add(ih.mul(ql)).lanewise(VectorOperators.LSHL, 32)));
            }
            r = (WIDE
                    ? r.lanewise(VectorOperators.UMIN, r.sub(v2q))
                    : r.sub(v2q).blend(r, r.sub(v2q).compare(VectorOperators.LT, 0L)));
            (WIDE
                            ? r.lanewise(VectorOperators.UMIN, r.sub(vq))
                            : r.sub(vq).blend(r, r.sub(vq).compare(VectorOperators.LT, 0L)))
                    .intoArray(out, k);
        }
        for (int k = vecEnd; k < n; k++) {
            long d = a[k] - b[k];
            if (d < 0) d += q;
            out[k] = ModArith.mulShoup(d, w, ws, q);
        }
    }
}
