package io.hoist.bfv;

import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import io.hoist.ring.ConstantTimeNtt;
import java.math.BigInteger;
import java.util.Locale;

/**
 * The precomputed public constants of one {@link BfvParameters}: constant-time NTT tables for the data
 * primes (the special prime's only when a key-level operation asks for them) and for t, the
 * round(Q·m/t) constants of encryption, the BEHZ scale-and-round constants of decryption (a 61-bit
 * auxiliary prime γ, as SEAL), the rounding constants of the division by the special prime, and
 * SEAL's slot map. Immutable; safe to share between threads.
 */
public final class BfvContext {
    private final BfvParameters params;
    private final int n;
    private final int kData;
    private final long[] q; // key level
    private final ConstantTimeNtt[] ntt; // data level
    private volatile ConstantTimeNtt specialNtt;
    private final ConstantTimeNtt nttT; // null without batching

    // encryption: c0 += ⌊Q/t⌋·m + ⌊((Q mod t)·m + ⌊(t+1)/2⌋) / t⌋
    final long[] deltaModQ, deltaModQShoup;
    final long qModT, qModTShoup, halfTUp;

    // decryption (BEHZ): x_j·(tγ·q̂_j^-1 mod q_j), then Σ·(q̂_j mod {t, γ}), ·(−Q^-1), γ-correction, ·γ^-1
    final long gamma, gammaHalf;
    final long[] tGammaQHatInv, tGammaQHatInvShoup;
    final long[] qHatModT, qHatModTShoup, qHatModGamma, qHatModGammaShoup;
    final long negInvQModT, negInvQModTShoup, negInvQModGamma, negInvQModGammaShoup;
    final long invGammaModT, invGammaModTShoup, oneShoupT;

    // public-key encryption: round(c / q_last) on the data primes
    final long lastHalf;
    final long[] lastHalfModQ, lastInvModQ, lastInvModQShoup, oneShoupQ;

    // Barrett constants of the key-level primes, for products of two variable residues
    final long[] muHi, muLo;

    private BfvContext(BfvParameters p) {
        this.params = p;
        this.n = p.n();
        this.kData = p.dataLevelSize();
        this.q = p.keyPrimes();
        int logN = p.logN();
        long t = p.t();
        ntt = new ConstantTimeNtt[kData];
        for (int j = 0; j < kData; j++) ntt[j] = ConstantTimeNtt.of(logN, q[j]);
        nttT = p.batching() ? ConstantTimeNtt.of(logN, t) : null;

        BigInteger bigQ = BigInteger.ONE;
        for (int j = 0; j < kData; j++) bigQ = bigQ.multiply(BigInteger.valueOf(q[j]));
        BigInteger bt = BigInteger.valueOf(t);
        BigInteger delta = bigQ.divide(bt);
        deltaModQ = new long[kData];
        deltaModQShoup = new long[kData];
        for (int j = 0; j < kData; j++) {
            deltaModQ[j] = delta.mod(BigInteger.valueOf(q[j])).longValue();
            deltaModQShoup[j] = Ct.shoup(deltaModQ[j], q[j]);
        }
        qModT = bigQ.mod(bt).longValue();
        qModTShoup = Ct.shoup(qModT, t);
        halfTUp = (t + 1) >>> 1;

        gamma = Primes.nttPrimes(logN, 61, 1).getFirst();
        gammaHalf = gamma >>> 1;
        BigInteger bg = BigInteger.valueOf(gamma);
        tGammaQHatInv = new long[kData];
        tGammaQHatInvShoup = new long[kData];
        qHatModT = new long[kData];
        qHatModTShoup = new long[kData];
        qHatModGamma = new long[kData];
        qHatModGammaShoup = new long[kData];
        for (int j = 0; j < kData; j++) {
            BigInteger qj = BigInteger.valueOf(q[j]);
            BigInteger qHat = bigQ.divide(qj);
            BigInteger c = bt.multiply(bg).multiply(qHat.modInverse(qj)).mod(qj);
            tGammaQHatInv[j] = c.longValue();
            tGammaQHatInvShoup[j] = Ct.shoup(tGammaQHatInv[j], q[j]);
            qHatModT[j] = qHat.mod(bt).longValue();
            qHatModTShoup[j] = Ct.shoup(qHatModT[j], t);
            qHatModGamma[j] = qHat.mod(bg).longValue();
            qHatModGammaShoup[j] = Ct.shoup(qHatModGamma[j], gamma);
        }
        negInvQModT = bt.subtract(bigQ.modInverse(bt)).mod(bt).longValue();
        negInvQModTShoup = Ct.shoup(negInvQModT, t);
        negInvQModGamma = bg.subtract(bigQ.modInverse(bg)).mod(bg).longValue();
        negInvQModGammaShoup = Ct.shoup(negInvQModGamma, gamma);
        invGammaModT = bg.modInverse(bt).longValue();
        invGammaModTShoup = Ct.shoup(invGammaModT, t);
        oneShoupT = Ct.shoup(1, t);

        long qLast = q[kData];
        lastHalf = qLast >>> 1;
        lastHalfModQ = new long[kData];
        lastInvModQ = new long[kData];
        lastInvModQShoup = new long[kData];
        oneShoupQ = new long[kData + 1];
        for (int j = 0; j < kData; j++) {
            lastHalfModQ[j] = lastHalf % q[j];
            lastInvModQ[j] = ModArith.invMod(qLast % q[j], q[j]);
            lastInvModQShoup[j] = Ct.shoup(lastInvModQ[j], q[j]);
        }
        muHi = new long[kData + 1];
        muLo = new long[kData + 1];
        for (int j = 0; j <= kData; j++) {
            oneShoupQ[j] = Ct.shoup(1, q[j]);
            muHi[j] = ModArith.barrettHi(q[j]);
            muLo[j] = ModArith.barrettLo(q[j]);
        }
    }

    public static BfvContext of(BfvParameters p) {
        return new BfvContext(p);
    }

    public BfvParameters params() {
        return params;
    }

    public int n() {
        return n;
    }

    /** Primes of a ciphertext. */
    public int dataLevelSize() {
        return kData;
    }

    /** Primes of a key (the special prime last). */
    public int keyLevelSize() {
        return kData + 1;
    }

    long prime(int j) {
        return q[j];
    }

    long t() {
        return params.t();
    }

    /** The NTT of key-level prime j (the special prime's is built on first use). */
    ConstantTimeNtt ntt(int j) {
        if (j < kData) return ntt[j];
        ConstantTimeNtt s = specialNtt;
        if (s == null) {
            synchronized (this) {
                s = specialNtt;
                if (s == null) specialNtt = s = ConstantTimeNtt.of(params.logN(), q[kData]);
            }
        }
        return s;
    }

    /** a·b mod q_j, constant time. */
    long mul(int j, long a, long b) {
        return Ct.mulMod(a, b, q[j], muHi[j], muLo[j]);
    }

    ConstantTimeNtt nttT() {
        if (nttT == null)
            throw new BfvOperandException("t = " + params.t() + " is not a prime ≡ 1 mod 2N: no batching slots");
        return nttT;
    }

    /** Bytes of the twiddle tables built so far. */
    public long tableBytes() {
        long b = 0;
        for (ConstantTimeNtt x : ntt) b += x.tableBytes();
        if (nttT != null) b += nttT.tableBytes();
        ConstantTimeNtt s = specialNtt;
        if (s != null) b += s.tableBytes();
        return b;
    }

    /** Which NTT runs: the constant-time kernel (32- or 64-bit) and its form. */
    public String nttDescription() {
        StringBuilder sb = new StringBuilder("constant-time NTT, ");
        for (int j = 0; j < kData; j++) sb.append(j == 0 ? "" : ", ").append(describe(ntt[j]));
        if (nttT != null) sb.append("; t: ").append(describe(nttT));
        return sb.toString();
    }

    private static String describe(ConstantTimeNtt x) {
        return (x.small() ? "32-bit " : "64-bit ") + x.form().name().toLowerCase(Locale.ROOT);
    }

    /** The auxiliary prime of the scale-and-round. */
    public long gamma() {
        return gamma;
    }

    void checkSame(BfvContext other, String what) {
        if (other != this && !other.params.equals(params))
            throw new BfvOperandException(what + " belongs to " + other.params + ", not to " + params);
    }
}
