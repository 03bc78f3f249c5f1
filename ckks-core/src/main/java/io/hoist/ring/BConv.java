package io.hoist.ring;

import io.hoist.math.ModArith;

import java.util.Objects;

/**
 * Fast basis conversion from a basis C to a basis D (spec lt-algorithms §2.3), coefficient domain:
 * y_i = [x_i·Ĉ_i^-1]_{c_i}, out_j = Σ_i y_i·[Ĉ_i]_{d_j} mod d_j. The result is x + u·C with
 * 0 ≤ u &lt; |C| (u left uncorrected). This is the primitive under Decompose (ModUp) and ModDown.
 *
 * <p>The inner sum is accumulated as an unsigned 128-bit value and reduced once per output
 * coefficient (lazy reduction); |C| ≤ 16 keeps the sum below 2^128 for 62-bit primes.
 * Work is blocked over coefficients so the y_i of a block stay in cache.
 */
public final class BConv {
    private static final int BLOCK = 256;
    public static final int MAX_SOURCE_PRIMES = 16;

    private final RnsBasis from;
    private final RnsBasis to;
    /** [Ĉ_i]_{d_j}, indexed [j][i]. */
    private final long[][] qHatModD;

    public BConv(RnsBasis from, RnsBasis to) {
        this.from = Objects.requireNonNull(from, "from");
        this.to = Objects.requireNonNull(to, "to");
        if (from.size() > MAX_SOURCE_PRIMES) {
            throw new IllegalArgumentException("BConv supports at most " + MAX_SOURCE_PRIMES + " source primes, got " + from.size());
        }
        qHatModD = new long[to.size()][from.size()];
        for (int j = 0; j < to.size(); j++) {
            for (int i = 0; i < from.size(); i++) qHatModD[j][i] = from.qHatMod(i, to.prime(j));
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

    /**
     * Converts {@code in[0..|C|)} (residues mod the primes of C, each in [0, c_i)) into
     * {@code out[0..|D|)}. Input and output arrays must not alias.
     */
    public void apply(long[][] in, long[][] out, int n, OpCounters counters) {
        int nc = from.size(), nd = to.size();
        if (in.length < nc || out.length < nd) {
            throw new IllegalArgumentException("BConv " + nc + "→" + nd + " primes given " + in.length + " input and " + out.length + " output limbs");
        }
        for (int i = 0; i < nc; i++) checkLen(in[i], n, "input", i);
        for (int j = 0; j < nd; j++) checkLen(out[j], n, "output", j);
        long[] y = new long[nc * BLOCK];
        final long[] cp = new long[nc];
        for (int i = 0; i < nc; i++) cp[i] = from.prime(i);
        for (int start = 0; start < n; start += BLOCK) {
            int len = Math.min(BLOCK, n - start);
            for (int i = 0; i < nc; i++) {
                final long c = cp[i], w = from.qHatInv[i], ws = from.qHatInvShoup[i];
                final long[] x = in[i];
                for (int k = 0; k < len; k++) y[i * BLOCK + k] = ModArith.mulShoup(x[start + k], w, ws, c);
            }
            for (int j = 0; j < nd; j++) {
                final long d = to.prime(j);
                final long muHi = to.modulus(j).muHi(), muLo = to.modulus(j).muLo();
                final long[] h = qHatModD[j];
                final long[] o = out[j];
                for (int k = 0; k < len; k++) {
                    long lo = 0, hi = 0;
                    for (int i = 0; i < nc; i++) {
                        long a = y[i * BLOCK + k], b = h[i];
                        long pl = a * b;
                        hi += Math.unsignedMultiplyHigh(a, b);
                        lo += pl;
                        if (Long.compareUnsigned(lo, pl) < 0) hi++;
                    }
                    o[start + k] = ModArith.reduce128(hi, lo, d, muHi, muLo);
                }
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
