package io.hoist.ring;

import io.hoist.math.ModArith;

import java.util.Objects;

/**
 * Fast basis conversion from a basis C to a basis D (spec lt-algorithms §2.3), coefficient domain:
 * y_i = [x_i·Ĉ_i^-1]_{c_i}, out_j = Σ_i y_i·[Ĉ_i]_{d_j} mod d_j. The result is x + u·C with
 * 0 ≤ u &lt; |C| (u left uncorrected). This is the primitive under Decompose (ModUp) and ModDown.
 *
 * <p>The constants [Ĉ_i]_{d_j} are fixed, so every term is a Shoup product with a precomputed
 * quotient, accumulated lazily in [0, 2d_j) and reduced once. Work is blocked over coefficients
 * so the y_i of a block stay in cache; the arithmetic runs in the engine's {@link LimbKernels}.
 */
public final class BConv {
    private static final int BLOCK = 256;

    private final RnsBasis from;
    private final RnsBasis to;
    /** [Ĉ_i]_{d_j} and their Shoup quotients, indexed [j][i]. */
    private final long[][] qHatModD;
    private final long[][] qHatModDShoup;

    public BConv(RnsBasis from, RnsBasis to) {
        this.from = Objects.requireNonNull(from, "from");
        this.to = Objects.requireNonNull(to, "to");
        qHatModD = new long[to.size()][from.size()];
        qHatModDShoup = new long[to.size()][from.size()];
        for (int j = 0; j < to.size(); j++) {
            for (int i = 0; i < from.size(); i++) {
                qHatModD[j][i] = from.qHatMod(i, to.prime(j));
                qHatModDShoup[j][i] = ModArith.shoupQuotient(qHatModD[j][i], to.prime(j));
            }
        }
    }

    public RnsBasis from() {
        return from;
    }

    public RnsBasis to() {
        return to;
    }

    /** Modular multiplications of one conversion of N coefficients: |C|·N + |C|·|D|·N. */
    public long modMuls(int n) {
        return (long) from.size() * n + (long) from.size() * to.size() * n;
    }

    /** {@link #apply(long[][], long[][], int, OpCounters, LimbKernels)} with the best kernels here. */
    public void apply(long[][] in, long[][] out, int n, OpCounters counters) {
        apply(in, out, n, counters, LimbKernels.best());
    }

    /**
     * Converts {@code in[0..|C|)} (residues mod the primes of C, each in [0, c_i)) into
     * {@code out[0..|D|)}. Input and output arrays must not alias. Each term y_i·[Ĉ_i]_{d_j} is a
     * Shoup product by a fixed constant, summed lazily in [0, 2d_j).
     */
    public void apply(long[][] in, long[][] out, int n, OpCounters counters, LimbKernels kernels) {
        int nc = from.size(), nd = to.size();
        if (in.length < nc || out.length < nd) {
            throw new IllegalArgumentException("BConv " + nc + "→" + nd + " primes given " + in.length + " input and " + out.length + " output limbs");
        }
        for (int i = 0; i < nc; i++) checkLen(in[i], n, "input", i);
        for (int j = 0; j < nd; j++) checkLen(out[j], n, "output", j);
        long[][] y = new long[nc][BLOCK];
        long[][] src = new long[nc][];
        for (int start = 0; start < n; start += BLOCK) {
            int len = Math.min(BLOCK, n - start);
            for (int i = 0; i < nc; i++) {
                System.arraycopy(in[i], start, y[i], 0, len);
                kernels.mulShoup(y[i], from.qHatInv[i], from.qHatInvShoup[i], from.prime(i), y[i], 0, len);
                src[i] = y[i];
            }
            for (int j = 0; j < nd; j++) {
                kernels.sumShoup(src, nc, qHatModD[j], qHatModDShoup[j], to.prime(j), out[j], start, len);
            }
        }
        if (counters != null) {
            counters.increment(Op.BCONV);
            counters.add(Op.MOD_MULS, modMuls(n));
        }
    }

    private static void checkLen(long[] a, int n, String what, int i) {
        Objects.requireNonNull(a, what + " limb " + i);
        if (a.length != n) throw new IllegalArgumentException(what + " limb " + i + " has " + a.length + " coefficients, expected " + n);
    }
}
