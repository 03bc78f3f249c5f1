package io.hoist.ring.fpga;

import io.hoist.math.ModArith;
import io.hoist.ring.NttTables;
import java.math.BigInteger;

/**
 * The kernel's two root tables per prime and direction, from which twiddles are generated on the
 * fly: e = e_lo + L·e_hi with L = 2^⌈log N / 2⌉ (256 at N = 2^16),
 * r_lo'[i] = ψ^{±i}·R² (·2^-1 for the inverse) and r_hi[i] = ψ^{±L·i}, so
 * TF(e) = WLM(r_lo'[e_lo], r_hi[e_hi]) = ψ^{±e}·R (·2^-1) and WLM(B, TF(e)) = B·ψ^{±e} (·2^-1).
 * 2√N roots per direction instead of N twiddles.
 */
final class RootTables {
    final long q;
    final int loBits;
    final long[] fwdLo, fwdHi, invLo, invHi;

    RootTables(NttTables t) {
        q = t.q();
        int logN = t.logN();
        loBits = (logN + 1) / 2;
        int lo = 1 << loBits, hi = 1 << (logN - loBits);
        long psi = t.psi(), psiInv = ModArith.invMod(psi, q);
        BigInteger bq = BigInteger.valueOf(q);
        long r2 = BigInteger.ONE.shiftLeft(2 * Wlm.LOG_R).mod(bq).longValue();
        long half = ModArith.invMod(2, q);
        long r2Half = ModArith.mulModSlow(r2, half, q);
        fwdLo = new long[lo];
        invLo = new long[lo];
        fwdHi = new long[hi];
        invHi = new long[hi];
        for (int i = 0; i < lo; i++) {
            fwdLo[i] = ModArith.mulModSlow(ModArith.powMod(psi, i, q), r2, q);
            invLo[i] = ModArith.mulModSlow(ModArith.powMod(psiInv, i, q), r2Half, q);
        }
        for (int i = 0; i < hi; i++) {
            fwdHi[i] = ModArith.powMod(psi, (long) lo * i, q);
            invHi[i] = ModArith.powMod(psiInv, (long) lo * i, q);
        }
    }

    /** ψ^e·R mod q, generated from the tables. */
    long forwardTwiddle(int e) {
        return Wlm.mul(fwdLo[e & ((1 << loBits) - 1)], fwdHi[e >>> loBits], q);
    }

    /** ψ^-e·2^-1·R mod q, generated from the tables. */
    long inverseTwiddle(int e) {
        return Wlm.mul(invLo[e & ((1 << loBits) - 1)], invHi[e >>> loBits], q);
    }
}
