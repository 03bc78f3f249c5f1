package io.hoist.ring;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ring automorphism φ_g: a(X) ↦ a(X^g) for odd g (spec lt-algorithms §2.2).
 *
 * <p>Coefficient domain: coefficient i moves to j = i·g mod 2N, negated when j ≥ N.
 * NTT domain (bit-reversed layout): a pure permutation out[t] = in[idx[t]] with
 * idx[t] = brev(((g·e_t mod 2N) − 1)/2), e_t = 2·brev(t)+1, the same for every prime.
 */
public final class Automorphism {
    private Automorphism() {}

    // equals and hashCode written out: a record's own go through an invokedynamic bootstrap, linked on the first
    // call and run as method-handle chains until compiled (5 ms of a two-thread first evaluation in interpreted
    // look-ups)
    private record Key(int logN, long g) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.logN == logN && k.g == g;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(g) * 31 + logN;
        }
    }

    private static final Map<Key, NttPermutation> INDEX = new ConcurrentHashMap<>();

    /** The Galois element 5^k mod 2N that rotates slots left by k (k may be negative). */
    public static long galoisElement(int logN, long k) {
        long twoN = 2L << logN;
        long slots = 1L << (logN - 1);
        long e = Math.floorMod(k, slots);
        long r = 1, b = 5;
        while (e != 0) {
            if ((e & 1) != 0) r = r * b % twoN;
            b = b * b % twoN;
            e >>>= 1;
        }
        return r;
    }

    /** The Galois element of complex conjugation, 2N − 1. */
    public static long conjugationElement(int logN) {
        return (2L << logN) - 1;
    }

    static long checkG(int logN, long g) {
        if (logN < 0 || logN > NttTables.MAX_LOG_N)
            throw new IllegalArgumentException("logN outside [0, " + NttTables.MAX_LOG_N + "]: " + logN);
        long twoN = 2L << logN;
        long r = Math.floorMod(g, twoN);
        if ((r & 1) == 0) throw new IllegalArgumentException("Galois element must be odd, got " + g);
        return r;
    }

    /** The NTT-domain permutation of g, shared and immutable. */
    public static NttPermutation nttPermutation(int logN, long g) {
        long gg = checkG(logN, g);
        Key key = new Key(logN, gg);
        // a look-up first: built ahead (the engines build theirs when made), the permutation is found, and
        // computeIfAbsent's larger code, compiled by C2 when a first evaluation's key switches reached its
        // threshold (15–20 ms there), stays off the path
        NttPermutation p = INDEX.get(key);
        return p != null ? p : INDEX.computeIfAbsent(key, k -> new NttPermutation(buildIndex(logN, gg)));
    }

    /** A copy of the NTT-domain permutation table of g (for inspection; kernels take {@link #nttPermutation}). */
    public static int[] nttIndex(int logN, long g) {
        return nttPermutation(logN, g).toArray();
    }

    private static int[] buildIndex(int logN, long g) {
        int n = 1 << logN;
        long mask = (2L << logN) - 1;
        int[] idx = new int[n];
        for (int t = 0; t < n; t++) {
            long e = 2L * brev(t, logN) + 1;
            long f = ((g * e) & mask) - 1 >>> 1;
            idx[t] = brev((int) f, logN);
        }
        return idx;
    }

    static int brev(int x, int bits) {
        return bits == 0 ? 0 : Integer.reverse(x) >>> (32 - bits);
    }

    /** out = φ_g(in) for one limb modulo q in the coefficient domain; in and out must differ. */
    public static void applyCoefficient(long[] in, long[] out, long g, long q, int logN) {
        long gg = checkG(logN, g);
        int n = 1 << logN;
        if (in == out) throw new IllegalArgumentException("automorphism cannot run in place");
        checkLengths(in.length, out.length, n);
        long mask = (2L << logN) - 1;
        long j = 0;
        for (int i = 0; i < n; i++, j = (j + gg) & mask) {
            long x = in[i];
            if (j < n) out[(int) j] = x;
            else out[(int) (j - n)] = x == 0 ? 0 : q - x;
        }
    }

    /** out = φ_g(in) for one limb in the NTT domain, with the permutation of g. */
    public static void applyNtt(long[] in, long[] out, NttPermutation p) {
        int[] idx = p.table;
        if (in == out) throw new IllegalArgumentException("automorphism cannot run in place");
        checkLengths(in.length, out.length, idx.length);
        for (int t = 0; t < idx.length; t++) out[t] = in[idx[t]];
    }

    /**
     * out[t] = (accumulate ? out[t] : 0) + x[idx[t]] + (y == null ? 0 : y[idx[t]]) mod q: an NTT-domain
     * automorphism fused with the additions around it (A_i = φ(A_0 + T0), C += φ(U + T0)); out must
     * not alias x or y. Inputs reduced in [0, q).
     */
    public static void applyNttAdd(long[] x, long[] y, long[] out, NttPermutation p, long q, boolean accumulate) {
        int[] idx = p.table;
        if (out == x || out == y) throw new IllegalArgumentException("automorphism cannot run in place");
        final int n = idx.length;
        checkLengths(x.length, out.length, n);
        if (y != null && y.length != n) throw new RingMismatchException("addend of " + y.length + " for N = " + n);
        if (y == null && !accumulate) {
            applyNtt(x, out, p);
            return;
        }
        for (int t = 0; t < n; t++) {
            int s = idx[t];
            long v = x[s];
            if (y != null) {
                v += y[s];
                if (v >= q) v -= q;
            }
            if (accumulate) {
                v += out[t];
                if (v >= q) v -= q;
            }
            out[t] = v;
        }
    }

    private static void checkLengths(int in, int out, int n) {
        if (in != n || out != n)
            throw new RingMismatchException("automorphism of N = " + n + " given limbs of " + in + " and " + out);
    }
}
