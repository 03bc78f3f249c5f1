package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.math.ModArith;
import io.hoist.math.Modulus;
import io.hoist.math.Primes;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RingTest {
    private final long[] primes = BConvTest.toArray(Primes.nttPrimes(10, 55, 4));
    private final Ring ring = new Ring(10, primes);
    private final SplittableRandom r = new SplittableRandom(41);

    private RnsPoly random(int level, Domain d) {
        RnsPoly p = ring.newPoly(level, d);
        for (int i = 0; i <= level; i++) for (int k = 0; k < ring.n(); k++) p.limb(i)[k] = r.nextLong(primes[i]);
        return p;
    }

    @Test
    void addSubNegAtTheEdgesOfTheLargestPrimes() {
        long[] ps = {
            BConvTest.toArray(Primes.nttPrimes(10, 62, 1))[0], BConvTest.toArray(Primes.nttPrimes(10, 61, 1))[0]
        };
        Ring big = new Ring(10, ps);
        RnsPoly a = big.newPoly(1, Domain.NTT), b = big.newPoly(1, Domain.NTT);
        for (int i = 0; i < 2; i++) {
            long q = ps[i];
            long[] edge = {0, 1, 2, q / 2, q / 2 + 1, q - 2, q - 1};
            for (int k = 0; k < big.n(); k++) {
                a.limb(i)[k] = edge[k % edge.length];
                b.limb(i)[k] = edge[(k / edge.length) % edge.length];
            }
        }
        RnsPoly s = big.newPoly(1, Domain.NTT), d = big.newPoly(1, Domain.NTT), ng = big.newPoly(1, Domain.NTT);
        big.add(a, b, s);
        big.sub(a, b, d);
        big.neg(a, ng);
        for (int i = 0; i < 2; i++) {
            Modulus q = big.modulus(i);
            for (int k = 0; k < big.n(); k++) {
                long x = a.limb(i)[k], y = b.limb(i)[k];
                assertEquals(q.add(x, y), s.limb(i)[k], "add " + x + " + " + y + " mod " + q.q());
                assertEquals(q.sub(x, y), d.limb(i)[k], "sub " + x + " − " + y + " mod " + q.q());
                assertEquals(q.neg(x), ng.limb(i)[k], "neg " + x + " mod " + q.q());
            }
        }
    }

    @Test
    void arithmeticMatchesPerCoefficientReference() {
        RnsPoly a = random(3, Domain.NTT), b = random(3, Domain.NTT);
        RnsPoly s = ring.newPoly(3, Domain.NTT), d = ring.newPoly(3, Domain.NTT), m = ring.newPoly(3, Domain.NTT);
        RnsPoly ng = ring.newPoly(3, Domain.NTT), sc = ring.newPoly(3, Domain.NTT);
        ring.add(a, b, s);
        ring.sub(a, b, d);
        ring.mulCoeffs(a, b, m);
        ring.neg(a, ng);
        ring.mulScalar(a, -7, sc);
        RnsPoly mac = s.copy();
        ring.mulCoeffsAdd(a, b, mac);
        RnsPoly sum = ring.newPoly(3, Domain.NTT);
        ring.mulCoeffsSum(a, b, s, d, sum);
        assertThrows(IllegalArgumentException.class, () -> ring.mulCoeffsSum(a, b, s, d, s), "out aliases an operand");
        for (int i = 0; i < 4; i++) {
            Modulus q = ring.modulus(i);
            for (int k = 0; k < ring.n(); k++) {
                long x = a.limb(i)[k], y = b.limb(i)[k];
                assertEquals(q.add(x, y), s.limb(i)[k]);
                assertEquals(q.sub(x, y), d.limb(i)[k]);
                assertEquals(ModArith.mulModSlow(x, y, q.q()), m.limb(i)[k]);
                assertEquals(
                        q.add(ModArith.mulModSlow(x, y, q.q()), ModArith.mulModSlow(s.limb(i)[k], d.limb(i)[k], q.q())),
                        sum.limb(i)[k]);
                assertEquals(q.neg(x), ng.limb(i)[k]);
                assertEquals(q.mul(x, q.fromSigned(-7)), sc.limb(i)[k]);
                assertEquals(q.add(q.add(x, y), q.mul(x, y)), mac.limb(i)[k]);
            }
        }
    }

    /**
     * addInteger against the constant polynomial transformed and added, for constants of either sign, below and
     * above the primes and spanning several of them; in place; refused in the coefficient domain.
     */
    @Test
    void anIntegerAddedToEveryNttValueIsTheConstantPolynomialTransformed() {
        BigInteger product = BigInteger.ONE;
        for (long q : primes) product = product.multiply(BigInteger.valueOf(q));
        BigInteger[] constants = {
            BigInteger.ZERO,
            BigInteger.valueOf(-1),
            BigInteger.valueOf(primes[0]),
            BigInteger.valueOf(primes[0]).negate().subtract(BigInteger.TWO),
            product.shiftRight(3).add(BigInteger.valueOf(12345)),
            product.shiftRight(2).negate()
        };
        for (int level = 0; level < primes.length; level++) {
            for (BigInteger c : constants) {
                RnsPoly a = random(level, Domain.NTT), want = ring.newPoly(level, Domain.NTT);
                RnsPoly constant = ring.newPoly(level, Domain.COEFFICIENT);
                constant.setCoefficient(0, c);
                ring.ntt(constant);
                ring.add(a, constant, want);
                RnsPoly got = ring.newPoly(level, Domain.NTT);
                ring.addInteger(a, c, got);
                for (int i = 0; i <= level; i++) assertArrayEquals(want.limb(i), got.limb(i), c + ", limb " + i);
                ring.addInteger(a, c, a);
                for (int i = 0; i <= level; i++) assertArrayEquals(want.limb(i), a.limb(i), "in place, limb " + i);
            }
        }
        assertThrows(
                RingMismatchException.class,
                () -> ring.addInteger(random(1, Domain.COEFFICIENT), BigInteger.ONE, ring.newPoly(1, Domain.NTT)));
    }

    @Test
    void nttProductIsRingProduct() {
        RnsPoly a = random(1, Domain.COEFFICIENT), b = random(1, Domain.COEFFICIENT);
        long[][] want = new long[2][];
        for (int i = 0; i < 2; i++) want[i] = NttTest.schoolbook(a.limb(i), b.limb(i), primes[i]);
        ring.ntt(a);
        ring.ntt(b);
        RnsPoly c = ring.newPoly(1, Domain.NTT);
        ring.mulCoeffs(a, b, c);
        ring.intt(c);
        assertArrayEquals(want, c.limbs());
    }

    @Test
    void countersCountLimbTransformsAndReset() {
        OpCounters c = ring.counters();
        c.reset();
        RnsPoly a = random(3, Domain.COEFFICIENT);
        ring.ntt(a);
        ring.intt(a);
        assertEquals(4, c.get(Op.NTT_LIMBS));
        assertEquals(4, c.get(Op.INTT_LIMBS));
        assertEquals(2, c.get(Op.NTT_CALLS), "one backend call per polynomial");
        assertEquals(8L * 512 * 10, c.get(Op.MOD_MULS), "(N/2)·logN per limb transform");
        var before = c.snapshot();
        ring.ntt(a);
        assertEquals(4, c.since(before).get(Op.NTT_LIMBS));
        c.reset();
        assertEquals(0, c.get(Op.NTT_LIMBS));
    }

    @Test
    void mismatchesAreTypedAndNamed() {
        RnsPoly a = random(3, Domain.NTT), b = random(2, Domain.NTT), c = random(3, Domain.COEFFICIENT);
        RnsPoly out = ring.newPoly(3, Domain.NTT);
        var e1 = assertThrows(RingMismatchException.class, () -> ring.add(a, b, out));
        assertTrue(e1.getMessage().contains("level"));
        var e2 = assertThrows(RingMismatchException.class, () -> ring.mulCoeffs(a, c, out));
        assertTrue(e2.getMessage().contains("domain"));
        // a ring with the same degree and primes is the same ring (objects of equal contexts mix); other primes are not
        Ring same = new Ring(10, primes);
        same.add(a, a, out);
        Ring other = new Ring(10, Arrays.copyOf(primes, 3));
        RnsPoly o = other.newPoly(2, Domain.NTT);
        var e3 = assertThrows(RingMismatchException.class, () -> ring.add(o, o, o));
        assertTrue(e3.getMessage().contains("ring"));
        assertThrows(RingMismatchException.class, () -> ring.ntt(a));
        RnsPoly coeffAcc = random(3, Domain.COEFFICIENT);
        assertThrows(
                RingMismatchException.class, () -> ring.mulCoeffsAdd(a, a, coeffAcc), "accumulator in another domain");
        assertThrows(RingMismatchException.class, () -> ring.newPoly(4, Domain.NTT));
    }
}
