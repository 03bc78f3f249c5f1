package io.hoist.bfv;

import io.hoist.ring.ConstantTimeNtt;
import java.util.Arrays;

/**
 * The server's side, for tests without SEAL: add, sub, negate and multiply by a plaintext, on full
 * ciphertexts (a seeded one is expanded first), with SEAL's results bit for bit: a plaintext
 * coefficient m ≥ (t+1)/2 is lifted as m − t before the negacyclic product modulo each prime.
 */
public final class BfvEvaluator {
    private final BfvContext ctx;

    public BfvEvaluator(BfvContext ctx) {
        this.ctx = ctx;
    }

    public BfvCiphertext add(BfvCiphertext a, BfvCiphertext b) {
        return combine(a, b, false);
    }

    public BfvCiphertext sub(BfvCiphertext a, BfvCiphertext b) {
        return combine(a, b, true);
    }

    private BfvCiphertext combine(BfvCiphertext a0, BfvCiphertext b0, boolean minus) {
        BfvCiphertext a = full(a0), b = full(b0);
        int n = ctx.n(), k = ctx.dataLevelSize();
        long[][][] out = new long[2][k][n];
        for (int p = 0; p < 2; p++)
            for (int j = 0; j < k; j++) {
                long q = ctx.prime(j);
                long[] x = p == 0 ? a.c0(j) : a.c1(j), y = p == 0 ? b.c0(j) : b.c1(j), o = out[p][j];
                for (int i = 0; i < n; i++) o[i] = minus ? Ct.sub(x[i], y[i], q) : Ct.add(x[i], y[i], q);
            }
        return BfvCiphertext.wrap(ctx, out[0], out[1]);
    }

    public BfvCiphertext negate(BfvCiphertext a0) {
        BfvCiphertext a = full(a0);
        int n = ctx.n(), k = ctx.dataLevelSize();
        long[][][] out = new long[2][k][n];
        for (int p = 0; p < 2; p++)
            for (int j = 0; j < k; j++) {
                long q = ctx.prime(j);
                long[] x = p == 0 ? a.c0(j) : a.c1(j), o = out[p][j];
                for (int i = 0; i < n; i++) o[i] = Ct.sub(0, x[i], q);
            }
        return BfvCiphertext.wrap(ctx, out[0], out[1]);
    }

    public BfvCiphertext multiplyPlain(BfvCiphertext a0, BfvPlaintext m) {
        BfvCiphertext a = full(a0);
        if (!m.params().equals(ctx.params()))
            throw new BfvOperandException("the plaintext belongs to " + m.params() + ", not to " + ctx.params());
        int n = ctx.n(), k = ctx.dataLevelSize();
        long t = ctx.t(), threshold = (t + 1) >>> 1;
        long[] mc = m.raw(), lifted = new long[n];
        long[][][] out = new long[2][k][n];
        for (int j = 0; j < k; j++) {
            long q = ctx.prime(j);
            ConstantTimeNtt ntt = ctx.ntt(j);
            for (int i = 0; i < n; i++) lifted[i] = mc[i] + ((q - t) & Ct.geMask(mc[i], threshold));
            ntt.forward(lifted);
            for (int p = 0; p < 2; p++) {
                long[] o = out[p][j];
                System.arraycopy(p == 0 ? a.c0(j) : a.c1(j), 0, o, 0, n);
                ntt.forward(o);
                for (int i = 0; i < n; i++) o[i] = ctx.mul(j, o[i], lifted[i]);
                ntt.inverse(o);
            }
        }
        Arrays.fill(lifted, 0);
        return BfvCiphertext.wrap(ctx, out[0], out[1]);
    }

    private BfvCiphertext full(BfvCiphertext c) {
        ctx.checkSame(c.context(), "the ciphertext");
        return c.expand();
    }
}
