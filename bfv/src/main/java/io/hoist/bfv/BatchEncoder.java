package io.hoist.bfv;

import io.hoist.ring.ConstantTimeNtt;
import java.util.Arrays;

/**
 * SEAL's batch encoding: N slots modulo t (t prime ≡ 1 mod 2N) seen as a 2 × (N/2) matrix. Slot i of
 * row 0 is the plaintext's value at ψ^(3^i), slot i of row 1 its value at ψ^(−3^i) (ψ the minimal
 * primitive 2N-th root mod t), stored at SEAL's bit-reversed NTT positions, so SEAL's row rotations
 * and column swap mean the same here. Encoding and decoding run the constant-time NTT modulo t; the
 * slot map is public. Thread-safe.
 */
public final class BatchEncoder {
    private final BfvContext ctx;
    private final ConstantTimeNtt ntt;
    private final int[] map;

    public BatchEncoder(BfvContext ctx) {
        this.ctx = ctx;
        this.ntt = ctx.nttT();
        int n = ctx.n(), logN = Integer.numberOfTrailingZeros(n), row = n >>> 1;
        long m = 2L * n, pos = 1;
        map = new int[n];
        for (int i = 0; i < row; i++) {
            int i1 = (int) ((pos - 1) >>> 1), i2 = (int) ((m - pos - 1) >>> 1);
            map[i] = Integer.reverse(i1) >>> (32 - logN);
            map[row + i] = Integer.reverse(i2) >>> (32 - logN);
            pos = (pos * 3) & (m - 1);
        }
    }

    /** N, the number of slots. */
    public int slotCount() {
        return ctx.n();
    }

    /** Up to N values in [0, t), slot i = values[i], the other slots 0. */
    public BfvPlaintext encode(long[] values) {
        int n = ctx.n();
        if (values.length > n)
            throw new BfvOperandException("at most N = " + n + " slots, got " + values.length + " values");
        long t = ctx.t();
        long[] c = new long[n];
        for (int i = 0; i < values.length; i++) {
            if (values[i] < 0 || values[i] >= t)
                throw new BfvOperandException("slot " + i + " = " + values[i] + " is not in [0, t = " + t + ")");
            c[map[i]] = values[i];
        }
        ntt.inverse(c);
        return BfvPlaintext.wrap(ctx.params(), c);
    }

    /** Signed values in [−(t−1)/2, (t−1)/2], stored as v mod t. */
    public BfvPlaintext encodeSigned(long[] values) {
        long t = ctx.t(), h = (t - 1) / 2;
        long[] v = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            if (values[i] < -h || values[i] > h)
                throw new BfvOperandException("slot " + i + " = " + values[i] + " is not in [−" + h + ", " + h + "]");
            v[i] = values[i] + (t & (values[i] >> 63));
        }
        return encode(v);
    }

    /** One value in every slot: the constant polynomial, no NTT. */
    public BfvPlaintext encodeScalar(long value) {
        long t = ctx.t();
        if (value < 0 || value >= t)
            throw new BfvOperandException("the value " + value + " is not in [0, t = " + t + ")");
        long[] c = new long[ctx.n()];
        c[0] = value;
        return BfvPlaintext.wrap(ctx.params(), c);
    }

    /** The N slot values, in [0, t). */
    public long[] decode(BfvPlaintext p) {
        if (!p.params().equals(ctx.params()))
            throw new BfvOperandException("the plaintext belongs to " + p.params() + ", not to " + ctx.params());
        long[] c = p.coefficients();
        ntt.forward(c);
        long[] out = new long[c.length];
        for (int i = 0; i < out.length; i++) out[i] = c[map[i]];
        Arrays.fill(c, 0);
        return out;
    }
}
