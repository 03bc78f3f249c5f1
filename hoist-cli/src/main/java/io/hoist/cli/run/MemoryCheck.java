package io.hoist.cli.run;

import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.InsufficientMemoryException;
import io.hoist.ckks.KeySizes;

/**
 * The up-front memory estimate every command that allocates by size makes before its first large
 * allocation: saturating arithmetic (an estimate that overflows a long is "too much", never a
 * negative number), and one refusal that names the estimate, the heap and the flag to raise it.
 */
public final class MemoryCheck {
    private MemoryCheck() {}

    /** The share of the heap a run may plan to hold; the rest is for the JVM, the GC and short-lived objects. */
    static final double SHARE = 0.85;

    public static long heap() {
        return Runtime.getRuntime().maxMemory();
    }

    /** Refuses when {@code needBytes} exceeds {@link #SHARE} of the heap; {@code remedy} ("use --storage compact") may be null. */
    public static void require(String what, long needBytes, String remedy) {
        require(what, needBytes, heap(), remedy);
    }

    public static void require(String what, long needBytes, long availableBytes, String remedy) {
        if (needBytes > SHARE * availableBytes)
            throw new InsufficientMemoryException(what, needBytes, availableBytes, remedy);
    }

    /** {@code keys} switching keys at the top level and {@code ciphertexts} ciphertexts over QP, for the engine commands. */
    public static long keysAndCiphertexts(CkksParameters p, long keys, long ciphertexts) {
        int l = p.maxLevel();
        long key = KeySizes.switchingKey(p.beta(l), l + 1 + p.alpha(), p.n()).fullBytes();
        return add(mul(key, keys), mul(ciphertexts, 2L * (l + 1 + p.alpha()), 8L, p.n()));
    }

    /** a·b·…, saturating at {@link Long#MAX_VALUE} (factors are non-negative). */
    public static long mul(long... factors) {
        long r = 1;
        for (long f : factors) {
            if (f < 0) throw new IllegalArgumentException("negative size factor " + f);
            if (f != 0 && r > Long.MAX_VALUE / f) return Long.MAX_VALUE;
            r *= f;
        }
        return r;
    }

    /** a + b + …, saturating at {@link Long#MAX_VALUE}. */
    public static long add(long... terms) {
        long r = 0;
        for (long t : terms) {
            if (t < 0) throw new IllegalArgumentException("negative size " + t);
            r = r > Long.MAX_VALUE - t ? Long.MAX_VALUE : r + t;
        }
        return r;
    }
}
