package io.hoist.math;

import java.math.BigInteger;

/**
 * Word-level modular arithmetic for odd moduli q &lt; 2^62, written once and used everywhere.
 *
 * <p>Three multiplications, each with one implementation:
 * <ul>
 *   <li>{@link #mulShoupLazy}: Shoup's product by a fixed operand w with precomputed
 *       w' = floor(w·2^64/q); result in [0, 2q). Used for twiddles and constants.</li>
 *   <li>{@link #mulMod}: general product by Barrett reduction of the 128-bit product with
 *       mu = floor(2^128/q) held as two words.</li>
 *   <li>{@link #reduce128}: Barrett reduction of an unsigned 128-bit accumulator, so sums of
 *       products can be reduced once (lazy reduction in BConv and key inner products).</li>
 * </ul>
 * All values are unsigned; for q &lt; 2^62 every intermediate below 4q fits in a signed long,
 * so plain comparisons are used where the bound allows it.
 */
public final class ModArith {
    private ModArith() {}

    /** Largest modulus bit size this class supports (4q must fit in 64 unsigned bits). */
    public static final int MAX_BITS = 62;

    /** Shoup quotient floor(w·2^64 / q) for 0 &lt;= w &lt; q; binary long division, precompute only. */
    public static long shoupQuotient(long w, long q) {
        if (w < 0 || w >= q) throw new IllegalArgumentException("Shoup operand " + w + " not in [0, q) for q=" + q);
        long r = w, quot = 0;
        for (int i = 0; i < 64; i++) {
            r <<= 1; // r < q < 2^62, so r << 1 does not overflow
            quot <<= 1;
            if (r >= q) {
                r -= q;
                quot |= 1;
            }
        }
        return quot;
    }

    /**
     * Shoup quotient floor(w·2^64 / q) for 0 &lt;= w &lt; q from Barrett's mu = floor(2^128/q) = (muHi, muLo):
     * floor(w·mu / 2^64) is the quotient or one less, and the remainder w·2^64 − e·q (exact in 64 bits,
     * below 2q) says which. A few multiplies where {@link #shoupQuotient(long, long)} loops 64 times:
     * for tables of N twiddles. Branch-free.
     */
    public static long shoupQuotient(long w, long q, long muHi, long muLo) {
        if (w < 0 || w >= q) throw new IllegalArgumentException("Shoup operand " + w + " not in [0, q) for q=" + q);
        long e = w * muHi + Math.unsignedMultiplyHigh(w, muLo);
        long r = -e * q;
        return e + ((q - 1 - r) >>> 63);
    }

    /** x·w mod q lazily: result in [0, 2q) for any unsigned 64-bit x. */
    public static long mulShoupLazy(long x, long w, long wShoup, long q) {
        long hi = Math.unsignedMultiplyHigh(x, wShoup);
        return x * w - hi * q;
    }

    /** x·w mod q in [0, q). */
    public static long mulShoup(long x, long w, long wShoup, long q) {
        return reduceOnce(mulShoupLazy(x, w, wShoup, q), q); // a mask, not a branch: secret operands pass here
    }

    /**
     * High word of floor(2^128 / q): floor(2^64 / q), which is floor((2^64 − 1) / q) since an odd q &gt; 1 does not
     * divide 2^64. In words, not BigInteger: the scalar kernels take it per call, and allocated two BigIntegers
     * each time (about 0.2 µs either way once compiled).
     */
    public static long barrettHi(long q) {
        checkBarrett(q);
        return Long.divideUnsigned(-1L, q);
    }

    /**
     * Low word of floor(2^128 / q): floor(r · 2^64 / q) for r = 2^64 mod q, one quotient bit at a time (q &lt; 2^63,
     * so the doubled remainder fits 64 unsigned bits).
     */
    public static long barrettLo(long q) {
        long r = -(barrettHi(q) * q), quot = 0;
        for (int i = 0; i < 64; i++) {
            r <<= 1;
            quot <<= 1;
            if (Long.compareUnsigned(r, q) >= 0) {
                r -= q;
                quot |= 1;
            }
        }
        return quot;
    }

    private static void checkBarrett(long q) {
        if (q < 3 || (q & 1) == 0) throw new IllegalArgumentException("modulus must be odd and >= 3: " + q);
    }

    /**
     * Reduces the unsigned 128-bit value (hi, lo) modulo q &lt; 2^62 to [0, q).
     * The quotient estimate drops three fractional carries and Barrett's own error, so it is
     * at most 3 below the true quotient: the remainder before correction is below 4q &lt; 2^64.
     */
    public static long reduce128(long hi, long lo, long q, long muHi, long muLo) {
        long t = hi * muHi + Math.unsignedMultiplyHigh(hi, muLo) + Math.unsignedMultiplyHigh(lo, muHi);
        long r = lo - t * q;
        // masked, not branched: decryption and key generation multiply by the secret here on the scalar kernels
        return reduceOnce(subIfAtLeast(r, q << 1), q);
    }

    /** a·b mod q for a, b &lt; q (or any a·b &lt; 2^128). */
    public static long mulMod(long a, long b, long q, long muHi, long muLo) {
        return reduce128(Math.unsignedMultiplyHigh(a, b), a * b, q, muHi, muLo);
    }

    /**
     * x − m if x ≥ m, else x, for 0 ≤ x &lt; 2m &lt; 2^63: a mask from the sign of x − m, no branch, so
     * constant time on secret data (the constant-time NTT, the BFV client); beyond 2^63 see
     * {@link #subIfAtLeast}.
     */
    public static long reduceOnce(long x, long m) {
        long d = x - m;
        return d + (m & (d >> 63));
    }

    /**
     * x − m if x ≥ m, else x, unsigned, without a branch (the mask is the borrow of x − m, the top bit
     * of (¬x ∧ m) ∨ (¬(x ⊕ m) ∧ (x − m))). Where C2 turns a conditional subtraction into a conditional
     * move it is no faster (the scalar NTT's took 7–30 % longer this way); in the BConv sum's chain of
     * dependent additions it is 10 % faster.
     */
    public static long subIfAtLeast(long x, long m) {
        long t = x - m;
        return t + (m & (((~x & m) | (~(x ^ m) & t)) >> 63));
    }

    /** (a + b) mod q for a, b in [0, q). */
    public static long addMod(long a, long b, long q) {
        long s = a + b;
        return s >= q ? s - q : s;
    }

    /** (a - b) mod q for a, b in [0, q). */
    public static long subMod(long a, long b, long q) {
        long d = a - b;
        return d < 0 ? d + q : d;
    }

    /** -a mod q for a in [0, q). */
    public static long negMod(long a, long q) {
        return a == 0 ? 0 : q - a;
    }

    /** Slow, obviously-correct product; precompute and tests only. */
    public static long mulModSlow(long a, long b, long q) {
        return BigInteger.valueOf(a)
                .multiply(BigInteger.valueOf(b))
                .mod(BigInteger.valueOf(q))
                .longValue();
    }

    /** base^exp mod q for exp ≥ 0 (a negative exponent is refused, not read as unsigned). */
    public static long powMod(long base, long exp, long q) {
        if (exp < 0) throw new IllegalArgumentException("negative exponent " + exp + ": invert the base first");
        long muHi = barrettHi(q), muLo = barrettLo(q);
        long result = 1 % q, b = Long.remainderUnsigned(base, q);
        while (exp != 0) {
            if ((exp & 1) != 0) result = mulMod(result, b, q, muHi, muLo);
            b = mulMod(b, b, q, muHi, muLo);
            exp >>>= 1;
        }
        return result;
    }

    /**
     * a^-1 mod q for q &gt; 1 and a coprime to q (any a not divisible by a prime q), by the extended Euclidean
     * algorithm in longs: every remainder is below q and every Bézout coefficient of q's side within (−q, q).
     *
     * @throws ArithmeticException if a and q share a factor
     * @throws IllegalArgumentException if q &lt; 2
     */
    public static long invMod(long a, long q) {
        if (q < 2) throw new IllegalArgumentException("modulus must be at least 2: " + q);
        long r = Long.remainderUnsigned(a, q);
        long r0 = q, r1 = r, t0 = 0, t1 = 1;
        while (r1 != 0) {
            long quot = r0 / r1, rNext = r0 - quot * r1, tNext = t0 - quot * t1;
            r0 = r1;
            r1 = rNext;
            t0 = t1;
            t1 = tNext;
        }
        if (r0 != 1) throw new ArithmeticException(a + " has no inverse modulo " + q);
        return t0 < 0 ? t0 + q : t0;
    }

    /** −q^-1 mod 2^64 for odd q (Newton iteration: each step doubles the correct low bits). */
    public static long montgomeryNegInv(long q) {
        long x = q;
        for (int i = 0; i < 6; i++) x *= 2 - q * x;
        return -x;
    }

    /** R mod q for R = 2^64. */
    public static long montgomeryR(long q) {
        long r = Long.remainderUnsigned(-1L, q) + 1;
        return r == q ? 0 : r;
    }

    /** 2^-64 mod q for odd q: the Montgomery reduction of 1 (no allocation, unlike {@link #invMod}). */
    public static long montgomeryRInverse(long q) {
        return redc(0, 1, q, montgomeryNegInv(q));
    }

    /**
     * Montgomery reduction of the unsigned 128-bit T = (hi, lo) &lt; q·2^64: T·2^-64 mod q in [0, q).
     */
    public static long redc(long hi, long lo, long q, long negInv) {
        long m = lo * negInv;
        // the carry and the correction by masks, not branches: keygen's b − a·s reaches here on the scalar kernels
        long u = hi + Math.unsignedMultiplyHigh(m, q) + ((lo | -lo) >>> 63);
        return reduceOnce(u, q); // u < 2q < 2^63
    }

    /** x·2^64 mod q: x into Montgomery form. */
    public static long toMontgomery(long x, long q) {
        long r = montgomeryR(q);
        return mulShoup(x, r, shoupQuotient(r, q), q);
    }

    /** Centered value of x in [0, q): in (-q/2, q/2]. */
    public static long centered(long x, long q) {
        return x > (q >>> 1) ? x - q : x;
    }
}
