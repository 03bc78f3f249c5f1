package io.hoist.ring;

/**
 * Limbs of primes below 2^31 stored two residues to a word: half the bytes for data that is written
 * once and streamed at every evaluation (a linear transform's precomputed diagonals). Coefficients
 * go in groups of 16: coefficients 16g + i and 16g + 8 + i (i &lt; 8) share word 8g + i, the first in
 * the low half. A vector of up to 8 lanes loaded at word 8g + i (i a multiple of its lane count) so
 * holds two contiguous runs of coefficients, and a kernel pairs its halves with plain loads of the
 * other operand on any vector width up to 512 bits. docs/ring.md has the layout.
 */
public final class PackedLimbs {
    /** Words per group: coefficients 16g + i (low halves) and 16g + 8 + i (high halves). */
    public static final int GROUP = 8;

    /** Primes packed: below 2^31, where a product of two residues is one 32×32-bit multiply. */
    public static final long MAX_Q = 1L << 31;

    private static final long M32 = 0xFFFF_FFFFL;

    private PackedLimbs() {}

    /** Whether limbs of the odd prime q are packed (q below 2^31), and limbs of n coefficients can be (n a multiple of 16). */
    public static boolean packs(long q, int n) {
        return q >= 3 && (q & 1) == 1 && q < MAX_Q && n > 0 && n % (2 * GROUP) == 0;
    }

    /** The packed form of {@code limb} (residues below 2^31, length a multiple of 16): a new array of half its length. */
    public static long[] pack(long[] limb) {
        long[] out = new long[checkedLength(limb.length) / 2];
        pack(limb, out);
        return out;
    }

    /** {@code limb} packed into {@code out} (half its length). */
    public static void pack(long[] limb, long[] out) {
        int n = checkedLength(limb.length);
        if (out.length != n / 2)
            throw new IllegalArgumentException("packed limb of " + out.length + " words for " + n + " coefficients");
        pack(limb, out, 0);
    }

    /** {@code limb} packed into words [off, off + limb.length/2) of {@code out} (a slab of several limbs). */
    public static void pack(long[] limb, long[] out, int off) {
        int n = checkedLength(limb.length);
        if (off < 0 || off > out.length - n / 2)
            throw new IllegalArgumentException("words [" + off + ", " + ((long) off + n / 2) + ") of a packed limb of "
                    + n + " coefficients do not fit " + out.length + " words");
        for (int k = 0; k < n; k++)
            if (limb[k] >>> 31 != 0)
                throw new IllegalArgumentException(
                        "coefficient " + k + " is " + limb[k] + ", not a residue below 2^31");
        for (int g = 0; g < n; g += 2 * GROUP)
            for (int i = 0; i < GROUP; i++) out[off + g / 2 + i] = limb[g + i] | limb[g + GROUP + i] << 32;
    }

    /** {@code packed} unpacked into {@code out} (twice its length). */
    public static void unpack(long[] packed, long[] out) {
        int n = checkedLength(out.length);
        if (packed.length != n / 2)
            throw new IllegalArgumentException("packed limb of " + packed.length + " words for " + n + " coefficients");
        for (int g = 0; g < n; g += 2 * GROUP)
            for (int i = 0; i < GROUP; i++) {
                long w = packed[g / 2 + i];
                out[g + i] = w & M32;
                out[g + GROUP + i] = w >>> 32;
            }
    }

    /** Coefficient k of a packed limb. */
    static long get(long[] packed, int k) {
        return get(packed, 0, k);
    }

    /** Coefficient k of the packed limb at word {@code off} of {@code packed}. */
    static long get(long[] packed, int off, int k) {
        return packed[off + ((k >>> 4 << 3) | (k & 7))] >>> ((k & 8) << 2) & M32;
    }

    private static int checkedLength(int n) {
        if (n <= 0 || n % (2 * GROUP) != 0)
            throw new IllegalArgumentException("a packed limb holds a multiple of 16 coefficients, not " + n);
        return n;
    }
}
