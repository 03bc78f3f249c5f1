package io.hoist.bfv;

import io.hoist.math.ModArith;

/**
 * Constant-time modular helpers for values below 2^62: every conditional subtraction or selection is
 * a mask built from a sign bit, never a branch, a division or a secret-indexed load (docs/bfv.md
 * lists where each runs on secret data). Products by public constants use Shoup's method.
 */
final class Ct {
    private Ct() {}

    /** All ones if x ≥ y, else 0; x, y in [0, 2^63). */
    static long geMask(long x, long y) {
        return ~((x - y) >> 63);
    }

    /** All ones if x &gt; y, else 0; x, y in [0, 2^63). */
    static long gtMask(long x, long y) {
        return (y - x) >> 63;
    }

    /** mask ? a : b. */
    static long select(long mask, long a, long b) {
        return b ^ ((a ^ b) & mask);
    }

    static long add(long a, long b, long m) {
        return ModArith.reduceOnce(a + b, m);
    }

    static long sub(long a, long b, long m) {
        long d = a - b;
        return d + (m & (d >> 63));
    }

    /** x·w mod m in [0, m) for any unsigned 64-bit x and a public w &lt; m with Shoup quotient ws. */
    static long mulShoup(long x, long w, long ws, long m) {
        return ModArith.reduceOnce(ModArith.mulShoupLazy(x, w, ws, m), m);
    }

    /**
     * a·b mod q for a, b &lt; q &lt; 2^61 with Barrett's (muHi, muLo) = ⌊2^128/q⌋: the estimate is at most 3
     * short ({@code ModArith.reduce128}), so the remainder is below 4q and two masked steps finish it.
     */
    static long mulMod(long a, long b, long q, long muHi, long muLo) {
        long hi = Math.unsignedMultiplyHigh(a, b), lo = a * b;
        long est = hi * muHi + Math.unsignedMultiplyHigh(hi, muLo) + Math.unsignedMultiplyHigh(lo, muHi);
        long r = lo - est * q;
        return ModArith.reduceOnce(ModArith.reduceOnce(r, q << 1), q);
    }

    /** The Shoup quotient of a public constant (precomputation only). */
    static long shoup(long w, long m) {
        return ModArith.shoupQuotient(w, m);
    }
}
