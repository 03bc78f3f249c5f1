package io.hoist.math;

import com.google.errorprone.annotations.Immutable;

/**
 * One word-sized modulus with its precomputed reduction constants.
 *
 * @param q     the modulus, odd, below 2^62
 * @param muHi  high word of floor(2^128/q)
 * @param muLo  low word of floor(2^128/q)
 */
@Immutable
public record Modulus(long q, long muHi, long muLo) {

    public Modulus {
        if (q < 3 || (q & 1) == 0 || 64 - Long.numberOfLeadingZeros(q) > ModArith.MAX_BITS) {
            throw new IllegalArgumentException("modulus must be odd, >= 3 and below 2^" + ModArith.MAX_BITS + ": " + q);
        }
        // the constants are public record components: ones of another modulus would give wrong products silently
        if (muHi != ModArith.barrettHi(q) || muLo != ModArith.barrettLo(q))
            throw new IllegalArgumentException("muHi, muLo are not floor(2^128/q) for q = " + q + ": use Modulus.of");
    }

    public static Modulus of(long q) {
        return new Modulus(q, ModArith.barrettHi(q), ModArith.barrettLo(q));
    }

    public int bits() {
        return 64 - Long.numberOfLeadingZeros(q);
    }

    public long mul(long a, long b) {
        return ModArith.mulMod(a, b, q, muHi, muLo);
    }

    /**
     * Shoup quotient floor(w·2^64/q) of 0 &lt;= w &lt; q, from mu ({@link ModArith#shoupQuotient(long, long,
     * long, long)}).
     */
    public long shoupQuotient(long w) {
        return ModArith.shoupQuotient(w, q, muHi, muLo);
    }

    public long reduce(long hi, long lo) {
        return ModArith.reduce128(hi, lo, q, muHi, muLo);
    }

    public long add(long a, long b) {
        return ModArith.addMod(a, b, q);
    }

    public long sub(long a, long b) {
        return ModArith.subMod(a, b, q);
    }

    public long neg(long a) {
        return ModArith.negMod(a, q);
    }

    public long pow(long base, long exp) {
        return ModArith.powMod(base, exp, q);
    }

    public long inv(long a) {
        return ModArith.invMod(a, q);
    }

    /** Reduces a signed long into [0, q). */
    public long fromSigned(long x) {
        long r = x % q;
        return r < 0 ? r + q : r;
    }

    @Override
    public String toString() {
        return "Modulus[" + q + ", " + bits() + " bits]";
    }
}
