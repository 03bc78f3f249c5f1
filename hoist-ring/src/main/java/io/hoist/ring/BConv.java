package io.hoist.ring;

import io.hoist.math.ModArith;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;

/**
 * Basis conversion from a basis C to a basis D (spec lt-algorithms §2.3), coefficient domain:
 * y_i = [x_i·Ĉ_i^-1]_{c_i}, out_j = Σ_i y_i·[Ĉ_i]_{d_j} mod d_j. This is the primitive under
 * Decompose (ModUp) and ModDown, in two flavours:
 * <ul>
 *   <li><b>fast</b>: the result is x + u·C with 0 ≤ u &lt; |C| left uncorrected (hardware designs);</li>
 *   <li><b>exact, centred</b> (Lattigo's {@code ModUpExact}): u = round(Σ_i y_i/c_i) is estimated
 *       in floating point and −u·C is added as one more term, so the result is the centred
 *       representative of x in [−C/2, C/2). ModDown built on it rounds x/P instead of flooring
 *       it, which removes the constant bias that otherwise piles up in the slots near ζ^{±1}.</li>
 * </ul>
 *
 * <p>The work splits into {@link #prepare} (the y_i and, for the exact flavour, u — everything that
 * needs all source limbs) and {@link #convert} (any range of target limbs), so a schedule can
 * produce the target limbs group by group; {@link #apply} does both, blocked over coefficients so
 * the y_i of a block stay in cache. Constants [Ĉ_i]_{d_j} are fixed: every term is a Shoup
 * product with a precomputed quotient, summed lazily in the engine's {@link LimbKernels}.
 */
public final class BConv {
    private static final int BLOCK = 256;
    private static final ThreadLocal<long[][]> SCRATCH = ThreadLocal.withInitial(() -> new long[0][]);
    private static final ThreadLocal<double[]> ESTIMATE_SCRATCH = ThreadLocal.withInitial(() -> new double[BLOCK]);

    private final RnsBasis from;
    private final RnsBasis to;
    /** [Ĉ_i]_{d_j} and their Shoup quotients, indexed [j][i]; index |C| holds −[C]_{d_j} for the centred term. */
    private final long[][] qHatModD;

    private final long[][] qHatModDShoup;
    /** 1/c_i for the floating-point estimate of u. */
    private final double[] invPrimes;

    public BConv(RnsBasis from, RnsBasis to) {
        this.from = Objects.requireNonNull(from, "from");
        this.to = Objects.requireNonNull(to, "to");
        int nc = from.size();
        qHatModD = new long[to.size()][nc + 1];
        qHatModDShoup = new long[to.size()][nc + 1];
        BigInteger c = from.product();
        for (int j = 0; j < to.size(); j++) {
            long d = to.prime(j);
            for (int i = 0; i < nc; i++) {
                qHatModD[j][i] = from.qHatMod(i, d);
                qHatModDShoup[j][i] = ModArith.shoupQuotient(qHatModD[j][i], d);
            }
            long cMod = c.mod(BigInteger.valueOf(d)).longValue();
            qHatModD[j][nc] = cMod == 0 ? 0 : d - cMod;
            qHatModDShoup[j][nc] = ModArith.shoupQuotient(qHatModD[j][nc], d);
        }
        invPrimes = new double[nc];
        for (int i = 0; i < nc; i++) invPrimes[i] = 1.0 / from.prime(i);
    }

    public RnsBasis from() {
        return from;
    }

    public RnsBasis to() {
        return to;
    }

    /** Modular multiplications of one conversion of N coefficients: |C|·N + |C|·|D|·N (the §6.2 model's count). */
    public long modMuls(int n) {
        return (long) from.size() * n + (long) from.size() * to.size() * n;
    }

    /** {@link #apply(long[][], long[][], int, OpCounters, LimbKernels)} with the best kernels here. */
    public void apply(long[][] in, long[][] out, int n, OpCounters counters) {
        apply(in, out, n, counters, LimbKernels.best());
    }

    /**
     * The fast conversion of all target limbs, out = x + u·C with 0 ≤ u &lt; |C|: {@code in[0..|C|)}
     * (residues mod the primes of C, each in [0, c_i)) into {@code out[0..|D|)}, blocked over
     * coefficients. Input and output arrays must not alias. The centred flavour is
     * {@link #prepare} with u, then {@link #convert}.
     */
    public void apply(long[][] in, long[][] out, int n, OpCounters counters, LimbKernels kernels) {
        int nc = from.size(), nd = to.size();
        if (in.length < nc || out.length < nd) {
            throw new IllegalArgumentException("BConv " + nc + "→" + nd + " primes given " + in.length + " input and "
                    + out.length + " output limbs");
        }
        for (int i = 0; i < nc; i++) checkLen(in[i], n, "input", i);
        for (int j = 0; j < nd; j++) checkLen(out[j], n, "output", j);
        long[][] y = scratch(nc);
        for (int start = 0; start < n; start += BLOCK) {
            int len = Math.min(BLOCK, n - start);
            for (int i = 0; i < nc; i++) {
                System.arraycopy(in[i], start, y[i], 0, len);
                kernels.mulShoup(y[i], from.qHatInv[i], from.qHatInvShoup[i], from.prime(i), y[i], 0, len);
            }
            for (int j = 0; j < nd; j++) {
                kernels.sumShoup(y, 0, nc, qHatModD[j], qHatModDShoup[j], to.prime(j), out[j], start, len);
            }
        }
        count(counters, n, nd);
    }

    /**
     * The first half: y_i = [x_i·Ĉ_i^-1]_{c_i} into {@code y[0..|C|)} and, when {@code u} is not
     * null, the centring estimate u = round(Σ y_i/c_i). y may alias in (element-wise).
     */
    public void prepare(long[][] in, long[][] y, long[] u, int n, OpCounters counters, LimbKernels kernels) {
        int nc = from.size();
        if (in.length < nc || y.length < nc)
            throw new IllegalArgumentException(
                    "BConv prepare needs " + nc + " limbs, given " + in.length + " → " + y.length);
        for (int i = 0; i < nc; i++) {
            checkLen(in[i], n, "input", i);
            checkLen(y[i], n, "prepared", i);
            kernels.mulShoup(in[i], from.qHatInv[i], from.qHatInvShoup[i], from.prime(i), y[i], 0, n);
        }
        if (u != null) {
            checkLen(u, n, "centring", 0);
            estimate(y, 0, u, 0, n);
        }
        if (counters != null) {
            counters.increment(Op.BCONV);
            counters.add(Op.MOD_MULS, (long) nc * n);
        }
    }

    /**
     * The second half: target limbs j ∈ [jFrom, jTo) written into {@code out[j]} (other entries are
     * not touched and may be null), from the output of {@link #prepare}; centred if u is not null.
     */
    public void convert(
            long[][] y, long[] u, long[][] out, int jFrom, int jTo, int n, OpCounters counters, LimbKernels kernels) {
        int nc = from.size();
        if (jFrom < 0 || jTo > to.size() || jFrom > jTo)
            throw new IllegalArgumentException(
                    "target range [" + jFrom + ", " + jTo + ") outside [0, " + to.size() + ")");
        long[][] src = y;
        int terms = nc;
        if (u != null) {
            src = new long[nc + 1][];
            System.arraycopy(y, 0, src, 0, nc);
            src[nc] = u;
            terms = nc + 1;
        }
        for (int start = 0; start < n; start += BLOCK) {
            int len = Math.min(BLOCK, n - start);
            for (int j = jFrom; j < jTo; j++) {
                kernels.sumShoup(src, start, terms, qHatModD[j], qHatModDShoup[j], to.prime(j), out[j], start, len);
            }
        }
        if (counters != null) counters.add(Op.MOD_MULS, (long) nc * (jTo - jFrom) * n);
    }

    /**
     * u[uOff+k] = round(Σ_i y_i[yOff+k]/c_i): the multiple of C that centres Σ y_i·Ĉ_i. Terms outer over
     * blocks of sums: each coefficient's sum still adds 0.5, then the terms in order (the same doubles),
     * but the sums of a block are independent, so C2 vectorizes them instead of waiting on one chain of
     * dependent additions per coefficient.
     */
    private void estimate(long[][] y, int yOff, long[] u, int uOff, int len) {
        int nc = from.size();
        double[] sum = ESTIMATE_SCRATCH.get();
        for (int base = 0; base < len; base += BLOCK) {
            int m = Math.min(BLOCK, len - base);
            Arrays.fill(sum, 0, m, 0.5);
            for (int i = 0; i < nc; i++) {
                long[] yi = y[i];
                double inv = invPrimes[i];
                int o = yOff + base;
                for (int k = 0; k < m; k++) sum[k] += (double) yi[o + k] * inv;
            }
            int o = uOff + base;
            for (int k = 0; k < m; k++) u[o + k] = (long) sum[k]; // sum ≥ 0.5: the cast floors, round(Σ y_i/c_i)
        }
    }

    private void count(OpCounters counters, int n, int targets) {
        if (counters != null) {
            counters.increment(Op.BCONV);
            counters.add(Op.MOD_MULS, (long) from.size() * n + (long) from.size() * targets * n);
        }
    }

    private static long[][] scratch(int rows) {
        long[][] s = SCRATCH.get();
        if (s.length < rows) {
            s = new long[rows][BLOCK];
            SCRATCH.set(s);
        }
        return s;
    }

    private static void checkLen(long[] a, int n, String what, int i) {
        if (a == null) throw new NullPointerException(what + " limb " + i); // the message only when thrown
        if (a.length != n)
            throw new IllegalArgumentException(
                    what + " limb " + i + " has " + a.length + " coefficients, expected " + n);
    }
}
