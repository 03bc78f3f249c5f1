package io.hoist.ring;

import io.hoist.math.Modulus;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A polynomial with small signed coefficients in the subring Z[X^g] of Z[X]/(X^N + 1), g a power of
 * two: a(X) = a'(X^g) with a' of degree below M = N/g. A plaintext of a slot vector of period
 * n = N/(2g) is one (a linear transform of an n × n matrix replicated over the N/2 slots). Its N NTT
 * values are the M values of a' at the odd powers of ψ^g, each repeated over a run of g consecutive
 * outputs of the bit-reversed layout, so one NTT of size M and a fill replace the NTT of size N
 * (docs/ring.md, "Subring NTTs"). Immutable; holds only the M coefficients of a'.
 */
public final class SubringPoly {
    // equals and hashCode written out, as in Automorphism's key: no invokedynamic bootstrap on a look-up
    private record Key(int logN, long q, int logG) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.logN == logN && k.q == q && k.logG == logG;
        }

        @Override
        public int hashCode() {
            return (Long.hashCode(q) * 31 + logN) * 31 + logG;
        }
    }

    /** The size-M tables (as the engine takes them) and, for each run u of g outputs, the index of its value in their output. */
    private static final class Runs {
        final NttTables[] small;
        final int[] index;

        Runs(NttTables[] small, int[] index) {
            this.small = small;
            this.index = index;
        }
    }

    /** Per (N, prime, g). */
    private static final Map<Key, Runs> RUNS = new ConcurrentHashMap<>();

    /** Per thread: the small limb, reused while M stays the same. */
    private static final ThreadLocal<long[][]> SCRATCH = ThreadLocal.withInitial(() -> new long[1][0]);

    private final int n;
    private final int logG;
    private final long[] words;

    private SubringPoly(int n, int logG, long[] words) {
        this.n = n;
        this.logG = logG;
        this.words = words;
    }

    /**
     * The largest power of two g ≤ N/2 dividing the index of every nonzero coefficient of c (N/2 when
     * only c[0] may be nonzero), N = c.length a power of two ≥ 2; 1 when c is in no proper subring.
     */
    public static int stride(long[] c) {
        int n = checkLength(c.length);
        int or = 0;
        for (int i = 1; i < n; i++) or |= c[i] != 0 ? i : 0;
        return or == 0 ? n / 2 : Math.min(n / 2, Integer.lowestOneBit(or));
    }

    /**
     * The size of the small NTT at least (g at most N/64): below it the vector backends refuse the size
     * and their fallback would count a refused limb, for nothing gained on a transform this short.
     */
    static final int MIN_SMALL = 64;

    /**
     * c as a polynomial in X^g, g = {@link #stride}(c) but at most N/{@value #MIN_SMALL} (a constant is
     * also in Z[X^{N/64}]); null when that leaves g = 1 (nothing to gain).
     */
    public static SubringPoly of(long[] c) {
        int g = Math.min(stride(c), c.length / Math.min(c.length, MIN_SMALL));
        if (g == 1) return null;
        int logG = Integer.numberOfTrailingZeros(g), m = c.length >>> logG;
        long[] w = new long[m];
        for (int u = 0; u < m; u++) w[u] = c[u << logG];
        return new SubringPoly(c.length, logG, w);
    }

    private static int checkLength(int n) {
        if (n < 2 || Integer.bitCount(n) != 1)
            throw new IllegalArgumentException("a polynomial's length must be a power of two ≥ 2: " + n);
        return n;
    }

    /** N, the ring degree. */
    public int n() {
        return n;
    }

    /** g: the coefficients of X^i are zero unless g divides i. */
    public int stride() {
        return 1 << logG;
    }

    /**
     * out = NTT(a·w mod q), in [0, q) (the bits of {@link LimbKernels#liftSigned} and a forward NTT of all
     * N coefficients): the M coefficients of a' lifted (w with Shoup quotient ws), one forward NTT of
     * size M on {@code engine}, counted in {@code counters} as one limb (its own call), and the runs filled. {@code full}
     * holds N and q.
     */
    public void liftForward(
            long w, long ws, NttTables full, NttEngine engine, LimbKernels kernels, OpCounters counters, long[] out) {
        if (full.n() != n || out.length != n)
            throw new RingMismatchException("a subring polynomial of degree " + n + " against tables of " + full.n()
                    + " and an output of " + out.length + " words");
        int m = words.length;
        long[][] s = SCRATCH.get();
        if (s[0].length != m) s[0] = new long[m];
        long[] small = s[0];
        long q = full.q();
        kernels.liftSigned(words, w, ws, q, small);
        Runs r = runs(full, logG);
        engine.forward(s, r.small, 1, counters);
        int[] runs = r.index;
        int g = 1 << logG;
        if (g >= 16) {
            for (int u = 0; u < m; u++) Arrays.fill(out, u << logG, (u + 1) << logG, small[runs[u]]);
        } else {
            for (int i = 0; i < n; i++) out[i] = small[runs[i >>> logG]];
        }
    }

    /**
     * Output t of the size-N NTT holds a(ψ^{e_t}), e_t = 2·brev_N(t) + 1, and a(ψ^e) = a'((ψ^g)^e)
     * depends on e_t mod 2M only, that is on brev_M(u), u = t >> log g. The size-M tables have their
     * own root ψ_M, with ψ^g = ψ_M^r for an odd r: run u holds small output brev_M(((r·e_u mod 2M) − 1)/2).
     */
    private static Runs runs(NttTables full, int logG) {
        return RUNS.computeIfAbsent(new Key(full.logN(), full.q(), logG), k -> {
            int logM = k.logN() - k.logG(), m = 1 << logM;
            Modulus mod = full.modulus();
            long psiG = mod.pow(full.psi(), 1L << logG);
            NttTables small = NttTables.of(logM, k.q());
            long psiM = small.psi(), step = mod.mul(psiM, psiM), cur = psiM;
            long r = 1;
            while (cur != psiG) {
                cur = mod.mul(cur, step);
                r += 2;
                if (r >= 2L * m) throw new IllegalStateException("ψ^g is not an odd power of the size-M root");
            }
            int[] runs = new int[m];
            long twoM = 2L * m;
            for (int u = 0; u < m; u++) {
                long e = 2L * brev(u, logM) + 1;
                runs[u] = brev((int) ((r * e % twoM - 1) / 2), logM);
            }
            return new Runs(new NttTables[] {small}, runs);
        });
    }

    private static int brev(int x, int bits) {
        return bits == 0 ? 0 : Integer.reverse(x) >>> (32 - bits);
    }
}
