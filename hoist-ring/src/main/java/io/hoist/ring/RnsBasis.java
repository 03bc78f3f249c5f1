package io.hoist.ring;

import com.google.common.collect.ImmutableList;
import io.hoist.math.ModArith;
import io.hoist.math.Modulus;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An RNS basis C = {c_0 … c_{k−1}} of distinct primes with its CRT constants:
 * Ĉ_i = C/c_i, [Ĉ_i^-1]_{c_i} (with Shoup quotients), and, on request, [Ĉ_i]_d for other primes d.
 */
public final class RnsBasis {
    private final ImmutableList<Modulus> moduli;
    private final long[] primes;
    private final BigInteger product;
    final long[] qHatInv;
    final long[] qHatInvShoup;

    public RnsBasis(long... primes) {
        if (primes.length == 0) throw new IllegalArgumentException("an RNS basis needs at least one prime");
        Set<Long> seen = new HashSet<>();
        ImmutableList.Builder<Modulus> b = ImmutableList.builder();
        BigInteger prod = BigInteger.ONE;
        for (long p : primes) {
            if (!seen.add(p))
                throw new IllegalArgumentException(
                        "prime " + p + " appears twice in the basis " + Arrays.toString(primes));
            b.add(Modulus.of(p));
            prod = prod.multiply(BigInteger.valueOf(p));
        }
        this.moduli = b.build();
        this.primes = primes.clone();
        this.product = prod;
        this.qHatInv = new long[primes.length];
        this.qHatInvShoup = new long[primes.length];
        for (int i = 0; i < primes.length; i++) {
            long qHatModQi = qHat(i).mod(BigInteger.valueOf(primes[i])).longValue();
            qHatInv[i] = ModArith.invMod(qHatModQi, primes[i]);
            qHatInvShoup[i] = ModArith.shoupQuotient(qHatInv[i], primes[i]);
        }
    }

    public int size() {
        return primes.length;
    }

    public long prime(int i) {
        return primes[i];
    }

    public long[] primes() {
        return primes.clone();
    }

    public Modulus modulus(int i) {
        return moduli.get(i);
    }

    public List<Modulus> moduli() {
        return moduli;
    }

    /** C = Π c_i. */
    public BigInteger product() {
        return product;
    }

    /** Ĉ_i = C / c_i. */
    public BigInteger qHat(int i) {
        return product.divide(BigInteger.valueOf(primes[i]));
    }

    /** [Ĉ_i^-1]_{c_i}. */
    public long qHatInvModQi(int i) {
        return qHatInv[i];
    }

    /** [Ĉ_i]_d for a prime d (of this basis or not). */
    public long qHatMod(int i, long d) {
        return qHat(i).mod(BigInteger.valueOf(d)).longValue();
    }

    /** The basis of the first {@code count} primes. */
    public RnsBasis prefix(int count) {
        if (count < 1 || count > primes.length)
            throw new IllegalArgumentException("a prefix of " + count + " primes of a basis of " + primes.length);
        return new RnsBasis(Arrays.copyOf(primes, count));
    }

    /** Exact CRT reconstruction of one coefficient in [0, C) — a slow reference for tests and decoding. */
    public BigInteger reconstruct(long[] residues) {
        if (residues.length != primes.length) {
            throw new IllegalArgumentException(
                    residues.length + " residues for a basis of " + primes.length + " primes");
        }
        BigInteger x = BigInteger.ZERO;
        for (int i = 0; i < primes.length; i++) {
            long y = ModArith.mulModSlow(residues[i], qHatInv[i], primes[i]);
            x = x.add(qHat(i).multiply(BigInteger.valueOf(y)));
        }
        return x.mod(product);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RnsBasis b && Arrays.equals(primes, b.primes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(primes);
    }

    @Override
    public String toString() {
        return "RnsBasis" + Arrays.toString(primes);
    }
}
