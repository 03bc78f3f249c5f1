package io.hoist.ring;

import io.hoist.math.ModArith;
import io.hoist.math.Modulus;
import io.hoist.math.Primes;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Twiddle tables of the negacyclic NTT for one prime q ≡ 1 (mod 2N) (spec lt-algorithms §2.1).
 *
 * <p>Forward: merged Cooley–Tukey, natural order in, bit-reversed out, slot t = a(ψ^(2·brev(t)+1)).
 * Inverse: Gentleman–Sande, bit-reversed in, natural out, N^-1 folded into the last stage.
 * {@code psiRev[k] = ψ^brev(k)} and {@code psiInvRev[k] = ψ^-brev(k)}, each with its Shoup quotient.
 * Tables are immutable and shared: {@link #of} caches them per (logN, q).
 */
public final class NttTables {
    // equals and hashCode written out, as in Automorphism's key: no invokedynamic bootstrap on a look-up
    private record Key(int logN, long q) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.logN == logN && k.q == q;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(q) * 31 + logN;
        }
    }

    private static final Map<Key, NttTables> CACHE = new ConcurrentHashMap<>();

    public static final int MIN_LOG_N = 1;
    public static final int MAX_LOG_N = 17;

    private final int logN;
    private final int n;
    private final Modulus modulus;
    private final long psi;
    final long[] psiRev;
    final long[] psiRevShoup;
    final long[] psiInvRev;
    final long[] psiInvRevShoup;
    final long nInv;
    final long nInvShoup;
    /** ψ^-brev(1)·N^-1: the twiddle of the last inverse stage with N^-1 folded in. */
    final long lastInv;

    final long lastInvShoup;
    /** R = 2^64 mod q and its Shoup quotient: the constants that bring a residue into Montgomery form, computed once per prime. */
    private final long montR, montRShoup;

    private NttTables(int logN, long q) {
        this.logN = logN;
        this.n = 1 << logN;
        this.modulus = Modulus.of(q);
        this.montR = ModArith.montgomeryR(q);
        this.montRShoup = modulus.shoupQuotient(montR);
        this.psi = Primes.primitiveRoot2N(logN, q);
        long psiInv = ModArith.invMod(psi, q);
        psiRev = new long[n];
        psiInvRev = new long[n];
        psiRevShoup = new long[n];
        psiInvRevShoup = new long[n];
        long pw = 1, pwInv = 1;
        for (int i = 0; i < n; i++) {
            int r = Integer.reverse(i) >>> (32 - logN);
            psiRev[r] = pw;
            psiInvRev[r] = pwInv;
            pw = modulus.mul(pw, psi);
            pwInv = modulus.mul(pwInv, psiInv);
        }
        for (int i = 0; i < n; i++) {
            psiRevShoup[i] = modulus.shoupQuotient(psiRev[i]);
            psiInvRevShoup[i] = modulus.shoupQuotient(psiInvRev[i]);
        }
        nInv = ModArith.invMod(n, q);
        nInvShoup = modulus.shoupQuotient(nInv);
        lastInv = modulus.mul(psiInvRev[1], nInv);
        lastInvShoup = modulus.shoupQuotient(lastInv);
    }

    /**
     * Tables for ring degree 2^logN and prime q; cached. Refuses a q that is not an NTT prime for N.
     */
    public static NttTables of(int logN, long q) {
        if (logN < MIN_LOG_N || logN > MAX_LOG_N) {
            throw new IllegalArgumentException("logN must be in [" + MIN_LOG_N + ", " + MAX_LOG_N + "]: " + logN);
        }
        long twoN = 2L << logN;
        if (q <= 2 || q % twoN != 1) {
            throw new IllegalArgumentException(
                    "q=" + q + " is not ≡ 1 mod 2N=" + twoN + ": no negacyclic NTT of degree " + (1 << logN));
        }
        if (64 - Long.numberOfLeadingZeros(q) > ModArith.MAX_BITS) {
            throw new IllegalArgumentException("q=" + q + " exceeds " + ModArith.MAX_BITS + " bits");
        }
        if (!Primes.isPrime(q)) throw new IllegalArgumentException("q=" + q + " is not prime");
        return CACHE.computeIfAbsent(new Key(logN, q), k -> new NttTables(logN, q));
    }

    public int logN() {
        return logN;
    }

    public int n() {
        return n;
    }

    /** 2^64 mod q (multiplying by it brings a residue into Montgomery form). */
    public long montgomeryR() {
        return montR;
    }

    /** The Shoup quotient of {@link #montgomeryR()}. */
    public long montgomeryRShoup() {
        return montRShoup;
    }

    public long q() {
        return modulus.q();
    }

    public Modulus modulus() {
        return modulus;
    }
    /** The primitive 2N-th root ψ used by these tables. */
    public long psi() {
        return psi;
    }

    public int primeBits() {
        return modulus.bits();
    }

    @Override
    public String toString() {
        return "NttTables[N=2^" + logN + ", q=" + q() + "]";
    }
}
