package io.hoist.bfv;

import io.hoist.SecretKeyAccess;
import io.hoist.ring.ConstantTimeNtt;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * Decrypts BFV ciphertexts in constant time: ct(s) = c0 + c1·s through the constant-time NTT, then
 * SEAL's BEHZ scale-and-round to t (multiply by tγ, fast base conversion to {t, γ}, multiply by −Q^-1,
 * the centred γ correction as a masked select, multiply by γ^-1), with Shoup products by public
 * constants and masks instead of branches or divisions (docs/bfv.md). A seeded ciphertext's c1 is
 * expanded limb by limb, never held whole. {@link #invariantNoiseBudget} is a diagnostic and is not
 * constant time. Not thread-safe (the scratch limbs are the decryptor's).
 */
public final class BfvDecryptor {
    private final BfvContext ctx;
    private final BfvSecretKey sk;
    private final long[][] x;

    public BfvDecryptor(BfvContext ctx, BfvSecretKey sk, SecretKeyAccess access) {
        if (access == null) throw new BfvOperandException("a SecretKeyAccess token is required");
        ctx.checkSame(sk.context(), "the secret key");
        this.ctx = ctx;
        this.sk = sk;
        this.x = new long[ctx.dataLevelSize()][ctx.n()];
    }

    /** The plaintext of {@code ct}. */
    public BfvPlaintext decrypt(BfvCiphertext ct) {
        phase(ct);
        BfvPlaintext p = scaleAndRound(ctx, x);
        for (long[] l : x) Arrays.fill(l, 0);
        return p;
    }

    /** round(t·x/Q) mod t of x = ct(s) given modulo each data prime (BEHZ with γ), constant time. */
    static BfvPlaintext scaleAndRound(BfvContext ctx, long[][] x) {
        int n = ctx.n(), k = ctx.dataLevelSize();
        long t = ctx.t(), g = ctx.gamma;
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            long sumT = 0, sumG = 0;
            for (int j = 0; j < k; j++) {
                long y = Ct.mulShoup(x[j][i], ctx.tGammaQHatInv[j], ctx.tGammaQHatInvShoup[j], ctx.prime(j));
                sumT = Ct.add(sumT, Ct.mulShoup(y, ctx.qHatModT[j], ctx.qHatModTShoup[j], t), t);
                sumG = Ct.add(sumG, Ct.mulShoup(y, ctx.qHatModGamma[j], ctx.qHatModGammaShoup[j], g), g);
            }
            long zt = Ct.mulShoup(sumT, ctx.negInvQModT, ctx.negInvQModTShoup, t);
            long zg = Ct.mulShoup(sumG, ctx.negInvQModGamma, ctx.negInvQModGammaShoup, g);
            long high = Ct.gtMask(zg, ctx.gammaHalf);
            long v = Ct.select(high, g - zg, zg);
            long vt = Ct.mulShoup(v, 1, ctx.oneShoupT, t);
            long r = Ct.select(high, Ct.add(zt, vt, t), Ct.sub(zt, vt, t));
            out[i] = Ct.mulShoup(r, ctx.invGammaModT, ctx.invGammaModTShoup, t);
        }
        return BfvPlaintext.wrap(ctx.params(), out);
    }

    /**
     * SEAL's invariant noise budget in bits: log2 Q − log2 ‖t·ct(s) mod Q‖∞ − 1, at least 0. A
     * diagnostic on secret data through BigInteger, not constant time.
     */
    public int invariantNoiseBudget(BfvCiphertext ct) {
        phase(ct);
        int n = ctx.n(), k = ctx.dataLevelSize();
        BigInteger bigQ = BigInteger.ONE;
        for (int j = 0; j < k; j++) bigQ = bigQ.multiply(BigInteger.valueOf(ctx.prime(j)));
        BigInteger[] coef = new BigInteger[k];
        for (int j = 0; j < k; j++) {
            BigInteger qj = BigInteger.valueOf(ctx.prime(j)), hat = bigQ.divide(qj);
            coef[j] = hat.multiply(hat.modInverse(qj));
        }
        BigInteger half = bigQ.shiftRight(1), bt = BigInteger.valueOf(ctx.t()), max = BigInteger.ZERO;
        for (int i = 0; i < n; i++) {
            BigInteger v = BigInteger.ZERO;
            for (int j = 0; j < k; j++) v = v.add(coef[j].multiply(BigInteger.valueOf(x[j][i])));
            v = v.multiply(bt).mod(bigQ);
            if (v.compareTo(half) > 0) v = bigQ.subtract(v);
            if (v.compareTo(max) > 0) max = v;
        }
        for (long[] l : x) Arrays.fill(l, 0);
        return Math.max(0, bigQ.bitLength() - max.bitLength() - 1);
    }

    /** x = c0 + c1·s modulo each data prime. */
    private void phase(BfvCiphertext ct) {
        ctx.checkSame(ct.context(), "the ciphertext");
        int n = ctx.n(), k = ctx.dataLevelSize();
        UniformSampler seeded = ct.isSeeded() ? ct.sampler() : null;
        for (int j = 0; j < k; j++) {
            long q = ctx.prime(j);
            ConstantTimeNtt ntt = ctx.ntt(j);
            long[] a = x[j];
            if (seeded != null) seeded.next(a);
            else System.arraycopy(ct.c1(j), 0, a, 0, n);
            ntt.forward(a);
            long[] s = sk.ntt(j);
            for (int i = 0; i < n; i++) a[i] = ctx.mul(j, a[i], s[i]);
            ntt.inverse(a);
            long[] c0 = ct.c0(j);
            for (int i = 0; i < n; i++) a[i] = Ct.add(a[i], c0[i], q);
        }
    }
}
