package io.hoist.ring;

import io.hoist.math.ModArith;
import io.hoist.math.Primes;

/**
 * The negacyclic NTT of {@link NttTables} (slot t = a(ψ^(2·brev(t)+1)), the same minimal ψ, the same
 * bit-reversed order as SEAL and Lattigo) written for secret data and small memory: no branch, no
 * division and no table index depends on a coefficient (every conditional subtraction is a mask or a
 * lane-wise unsigned minimum), and it keeps only the forward twiddles and their Shoup quotients: 16·N
 * bytes per prime, 8·N for primes below 2^31, against {@link NttTables}'s 32·N.
 *
 * <p>The inverse is the transpose of the forward network: with B_t = A_(N−1−t) (ψ^-(2b+1) =
 * ψ^(2(N−1−b)+1)), a = N^-1 · Mᵀ·B, and Mᵀ runs the forward stages backwards as Gentleman–Sande
 * butterflies with the forward twiddles (docs/bfv.md).
 *
 * <p>Two kernels by prime size, each with a scalar form and a vector form (jdk.incubator.vector,
 * lane-wise on the stages whose butterflies are at least a vector apart; bit-identical to the scalar
 * twin): primes below 2^61 with 64-bit Shoup products, and primes below 2^31 with 32-bit Shoup
 * quotients, where every product is one 32 × 32 → 64-bit lane multiply ({@code vpmuludq}, which AVX2
 * has). Immutable; safe to share between threads.
 */
public final class ConstantTimeNtt {
    /** Largest prime size: lazy values stay below 4q &lt; 2^63. */
    public static final int MAX_BITS = 61;

    /** Primes below 2^SMALL_BITS take the 32-bit kernel. */
    public static final int SMALL_BITS = 31;

    /** Which form of the kernel runs. */
    public enum Form {
        SCALAR,
        VECTOR
    }

    private static final String NAME = "constant-time";
    private static final long M32 = 0xFFFF_FFFFL;

    private final int logN;
    private final int n;
    private final long q;
    private final boolean small;
    final boolean tiny; // q < 2^30: lazy values below 4q < 2^32 feed the 32-bit products unreduced
    private final Form form;
    final long[] w; // ψ^brev(k), 64-bit kernel
    final long[] ws; // its Shoup quotients ⌊w·2^64/q⌋
    final int[] w32; // ψ^brev(k), 32-bit kernel (unsigned)
    final int[] ws32; // ⌊w·2^32/q⌋ (unsigned)
    final long nInv, nInvShoup;
    final long lastW, lastWShoup; // ψ^brev(1)·N^-1: the last inverse stage's twiddle with N^-1 folded in

    private ConstantTimeNtt(int logN, long q, Form form) {
        this.logN = logN;
        this.n = 1 << logN;
        this.q = q;
        this.form = form;
        this.small = q < (1L << SMALL_BITS);
        this.tiny = q < (1L << (SMALL_BITS - 1));
        long psi = Primes.primitiveRoot2N(logN, q);
        long muHi = ModArith.barrettHi(q), muLo = ModArith.barrettLo(q);
        long[] pw = new long[n];
        long x = 1;
        for (int i = 0; i < n; i++) {
            pw[Integer.reverse(i) >>> (32 - logN)] = x;
            x = ModArith.mulMod(x, psi, q, muHi, muLo);
        }
        nInv = ModArith.invMod(n, q);
        lastW = ModArith.mulMod(pw[1], nInv, q, muHi, muLo);
        if (small) {
            w = ws = null;
            w32 = new int[n];
            ws32 = new int[n];
            for (int i = 0; i < n; i++) {
                w32[i] = (int) pw[i];
                ws32[i] = (int) shoup32(pw[i], q);
            }
            nInvShoup = shoup32(nInv, q);
            lastWShoup = shoup32(lastW, q);
        } else {
            w32 = ws32 = null;
            w = pw;
            ws = new long[n];
            for (int i = 0; i < n; i++) ws[i] = ModArith.shoupQuotient(w[i], q, muHi, muLo);
            nInvShoup = ModArith.shoupQuotient(nInv, q, muHi, muLo);
            lastWShoup = ModArith.shoupQuotient(lastW, q, muHi, muLo);
        }
    }

    /** ⌊w·2^32/q⌋ for w &lt; q &lt; 2^31. */
    static long shoup32(long w, long q) {
        return (w << 32) / q;
    }

    /** Tables for degree 2^logN modulo the NTT prime q &lt; 2^61, in the vector form where the Vector API runs. */
    public static ConstantTimeNtt of(int logN, long q) {
        return of(logN, q, KernelCalibration.vectorUsable() ? Form.VECTOR : Form.SCALAR);
    }

    /** Tables for degree 2^logN modulo q in the given form. */
    public static ConstantTimeNtt of(int logN, long q, Form form) {
        if (logN < 2 || logN > NttTables.MAX_LOG_N)
            throw new UnsupportedPrimeException(NAME, q, logN, "logN must be in [2, " + NttTables.MAX_LOG_N + "]");
        if (q <= 2 || 64 - Long.numberOfLeadingZeros(q) > MAX_BITS)
            throw new UnsupportedPrimeException(NAME, q, logN, "primes of at most " + MAX_BITS + " bits");
        if (q % (2L << logN) != 1 || !Primes.isPrime(q))
            throw new UnsupportedPrimeException(NAME, q, logN, "not a prime ≡ 1 mod 2N");
        if (form == Form.VECTOR && !KernelCalibration.vectorUsable())
            throw new UnsupportedPrimeException(NAME, q, logN, "the Vector API is not usable in this JVM");
        return new ConstantTimeNtt(logN, q, form);
    }

    public int n() {
        return n;
    }

    public int logN() {
        return logN;
    }

    public long q() {
        return q;
    }

    public Form form() {
        return form;
    }

    /** Whether the 32-bit kernel runs (q &lt; 2^31). */
    public boolean small() {
        return small;
    }

    /** Bytes of the twiddle tables this instance holds. */
    public long tableBytes() {
        return (small ? 8L : 16L) * n;
    }

    /** x·w mod q in [0, 2q) for x &lt; 2^32, w &lt; q &lt; 2^31, ws = ⌊w·2^32/q⌋: three 32 × 32 → 64-bit products. */
    static long mulShoup32(long x, long w, long ws, long q) {
        long hi = (x * ws) >>> 32;
        return x * w - hi * q;
    }

    /** Forward NTT of {@code a[0..n)} in place: input in [0, q), output in [0, q). */
    public void forward(long[] a) {
        check(a);
        if (form == Form.VECTOR) {
            if (small) ConstantTimeNttVector.forward32(this, a);
            else ConstantTimeNttVector.forward64(this, a);
        } else if (small) forward32(a, n);
        else forward64(a, n);
    }

    /** Inverse NTT of {@code a[0..n)} in place: input in [0, q), output in [0, q). */
    public void inverse(long[] a) {
        check(a);
        if (form == Form.VECTOR) {
            if (small) ConstantTimeNttVector.inverse32(this, a);
            else ConstantTimeNttVector.inverse64(this, a);
        } else if (small) inverse32(a, 1);
        else inverse64(a, 1);
    }

    // ---- 64-bit kernel, scalar

    /**
     * The stages with butterfly distance t ≤ tMax, down to the last one (t = 1, with the reduction to
     * [0, q) folded in): all of them for tMax = n, the tail after the vector stages otherwise.
     */
    void forward64(long[] a, int tMax) {
        final long twoQ = q << 1;
        int t = Math.min(tMax, n >>> 1), m = n / (2 * t);
        for (; t > 1; m <<= 1, t >>>= 1) {
            for (int i = 0; i < m; i++) {
                final long wi = w[m + i], wsi = ws[m + i];
                final int j1 = 2 * i * t, j2 = j1 + t;
                for (int j = j1; j < j2; j++) {
                    long u = ModArith.reduceOnce(a[j], twoQ);
                    long v = ModArith.mulShoupLazy(a[j + t], wi, wsi, q);
                    a[j] = u + v;
                    a[j + t] = u - v + twoQ;
                }
            }
        }
        // last stage (t = 1) with the reduction to [0, q) folded in
        for (int i = 0; i < m; i++) {
            long u = ModArith.reduceOnce(a[2 * i], twoQ);
            long v = ModArith.mulShoupLazy(a[2 * i + 1], w[m + i], ws[m + i], q);
            a[2 * i] = ModArith.reduceOnce(ModArith.reduceOnce(u + v, twoQ), q);
            a[2 * i + 1] = ModArith.reduceOnce(ModArith.reduceOnce(u - v + twoQ, twoQ), q);
        }
    }

    /**
     * The inverse's stages with butterfly distance t &lt; tVec (the vector form's scalar head), or all of
     * them, the last with N^-1 folded in, for tVec = 1.
     */
    void inverse64(long[] a, int tVec) {
        final long twoQ = q << 1;
        final int half = n >>> 1;
        // first stage (t = 1) on the reversed input: pairs i and n/2 − 1 − i swap places
        for (int i = 0, i2 = half - 1; i <= i2; i++, i2--) {
            long x0 = a[2 * i], x1 = a[2 * i + 1], y0 = a[2 * i2], y1 = a[2 * i2 + 1];
            a[2 * i] = ModArith.reduceOnce(y1 + y0, twoQ);
            a[2 * i + 1] = ModArith.mulShoupLazy(y1 - y0 + twoQ, w[half + i], ws[half + i], q);
            a[2 * i2] = ModArith.reduceOnce(x1 + x0, twoQ);
            a[2 * i2 + 1] = ModArith.mulShoupLazy(x1 - x0 + twoQ, w[half + i2], ws[half + i2], q);
        }
        int m = half >>> 1, t = 2;
        int stop = tVec == 1 ? n : tVec;
        for (; m > 1 && t < stop; m >>>= 1, t <<= 1) {
            for (int i = 0; i < m; i++) {
                final long wi = w[m + i], wsi = ws[m + i];
                final int j1 = 2 * i * t, j2 = j1 + t;
                for (int j = j1; j < j2; j++) {
                    long u = a[j], v = a[j + t];
                    a[j] = ModArith.reduceOnce(u + v, twoQ);
                    a[j + t] = ModArith.mulShoupLazy(u - v + twoQ, wi, wsi, q);
                }
            }
        }
        if (tVec != 1) return;
        for (int j = 0; j < t; j++) {
            long u = a[j], v = a[j + t];
            a[j] = ModArith.reduceOnce(ModArith.mulShoupLazy(u + v, nInv, nInvShoup, q), q);
            a[j + t] = ModArith.reduceOnce(ModArith.mulShoupLazy(u - v + twoQ, lastW, lastWShoup, q), q);
        }
    }

    // ---- 32-bit kernel, scalar: every Shoup input reduced below 2q < 2^32 first

    void forward32(long[] a, int tMax) {
        final long twoQ = q << 1;
        int t = Math.min(tMax, n >>> 1), m = n / (2 * t);
        for (; t > 1; m <<= 1, t >>>= 1) {
            for (int i = 0; i < m; i++) {
                final long wi = w32[m + i] & M32, wsi = ws32[m + i] & M32;
                final int j1 = 2 * i * t, j2 = j1 + t;
                for (int j = j1; j < j2; j++) {
                    long u = ModArith.reduceOnce(a[j], twoQ);
                    long x = a[j + t];
                    long v = mulShoup32(tiny ? x : ModArith.reduceOnce(x, twoQ), wi, wsi, q);
                    a[j] = u + v;
                    a[j + t] = u - v + twoQ;
                }
            }
        }
        for (int i = 0; i < m; i++) {
            long u = ModArith.reduceOnce(a[2 * i], twoQ);
            long x = a[2 * i + 1];
            long v = mulShoup32(tiny ? x : ModArith.reduceOnce(x, twoQ), w32[m + i] & M32, ws32[m + i] & M32, q);
            a[2 * i] = ModArith.reduceOnce(ModArith.reduceOnce(u + v, twoQ), q);
            a[2 * i + 1] = ModArith.reduceOnce(ModArith.reduceOnce(u - v + twoQ, twoQ), q);
        }
    }

    void inverse32(long[] a, int tVec) {
        final long twoQ = q << 1;
        final int half = n >>> 1;
        for (int i = 0, i2 = half - 1; i <= i2; i++, i2--) {
            long x0 = a[2 * i], x1 = a[2 * i + 1], y0 = a[2 * i2], y1 = a[2 * i2 + 1];
            long wi = w32[half + i] & M32, wsi = ws32[half + i] & M32;
            long wj = w32[half + i2] & M32, wsj = ws32[half + i2] & M32;
            a[2 * i] = ModArith.reduceOnce(y1 + y0, twoQ);
            long dy = y1 - y0 + twoQ, dx = x1 - x0 + twoQ;
            a[2 * i + 1] = mulShoup32(tiny ? dy : ModArith.reduceOnce(dy, twoQ), wi, wsi, q);
            a[2 * i2] = ModArith.reduceOnce(x1 + x0, twoQ);
            a[2 * i2 + 1] = mulShoup32(tiny ? dx : ModArith.reduceOnce(dx, twoQ), wj, wsj, q);
        }
        int m = half >>> 1, t = 2;
        int stop = tVec == 1 ? n : tVec;
        for (; m > 1 && t < stop; m >>>= 1, t <<= 1) {
            for (int i = 0; i < m; i++) {
                final long wi = w32[m + i] & M32, wsi = ws32[m + i] & M32;
                final int j1 = 2 * i * t, j2 = j1 + t;
                for (int j = j1; j < j2; j++) {
                    long u = a[j], v = a[j + t];
                    a[j] = ModArith.reduceOnce(u + v, twoQ);
                    long d = u - v + twoQ;
                    a[j + t] = mulShoup32(tiny ? d : ModArith.reduceOnce(d, twoQ), wi, wsi, q);
                }
            }
        }
        if (tVec != 1) return;
        for (int j = 0; j < t; j++) {
            long u = a[j], v = a[j + t];
            a[j] = ModArith.reduceOnce(mulShoup32(ModArith.reduceOnce(u + v, twoQ), nInv, nInvShoup, q), q);
            a[j + t] =
                    ModArith.reduceOnce(mulShoup32(ModArith.reduceOnce(u - v + twoQ, twoQ), lastW, lastWShoup, q), q);
        }
    }

    private void check(long[] a) {
        if (a.length < n) throw new RingMismatchException("limb of " + a.length + " words for N = " + n);
    }
}
