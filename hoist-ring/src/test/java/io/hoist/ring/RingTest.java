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

    /**
     * Past {@link Ring#PARALLEL_WORDS} the coefficient-wise operations spread their limbs over the engine's threads:
     * on two threads (the vector kernels, primes of 40 to 62 bits) every one equals one thread's
     * result, bit for bit, and the per-coefficient reference.
     */
    @Test
    void coefficientWiseOperationsOnTwoThreadsEqualOneThread() {
        int logN = 13;
        long[] ps = new long[12];
        for (int i = 0; i < ps.length; i++)
            ps[i] = Primes.nttPrimes(logN, 40 + 2 * i, 1).get(0);
        assertTrue((long) ps.length << logN >= Ring.PARALLEL_WORDS, "large enough to run in parallel");
        LimbKernels k = new VectorLimbKernels(true, false); // FMA lanes below 2^50, integer lanes, scalar from 2^61
        Ring one = new Ring(logN, ps, new NttEngine(NttBackends.defaultBackend(), new OpCounters(), k, 1));
        Ring two = new Ring(logN, ps, new NttEngine(NttBackends.defaultBackend(), new OpCounters(), k, 2));
        int level = ps.length - 1;
        RnsPoly a = one.newPoly(level, Domain.NTT), b = one.newPoly(level, Domain.NTT);
        RnsPoly c = one.newPoly(level, Domain.NTT), d = one.newPoly(level, Domain.NTT);
        for (RnsPoly p : new RnsPoly[] {a, b, c, d})
            for (int i = 0; i <= level; i++) for (int j = 0; j < one.n(); j++) p.limb(i)[j] = r.nextLong(ps[i]);
        BigInteger big = BigInteger.ONE.shiftLeft(300).subtract(BigInteger.valueOf(12345));
        for (int op = 0; op < 8; op++) {
            RnsPoly[] out = new RnsPoly[2];
            for (int t = 0; t < 2; t++) {
                Ring ring = t == 0 ? one : two;
                RnsPoly o = ring.wrap(copy(d), Domain.NTT);
                switch (op) {
                    case 0 -> ring.add(a, b, o);
                    case 1 -> ring.sub(a, b, o);
                    case 2 -> ring.neg(a, o);
                    case 3 -> ring.mulCoeffs(a, b, o);
                    case 4 -> ring.mulCoeffsAdd(a, b, o);
                    case 5 -> ring.mulCoeffsSum(a, b, c, d.copy(), o);
                    case 6 -> ring.mulScalar(a, -987654321L, o);
                    default -> ring.addInteger(a, big, o);
                }
                out[t] = o;
            }
            for (int i = 0; i <= level; i++) {
                assertArrayEquals(out[0].limb(i), out[1].limb(i), "operation " + op + ", limb " + i);
                long q = ps[i];
                for (int j = 0; j < one.n(); j += 97) {
                    long x = a.limb(i)[j], y = b.limb(i)[j], z = c.limb(i)[j], w = d.limb(i)[j];
                    long want = switch (op) {
                        case 0 -> ModArith.addMod(x, y, q);
                        case 1 -> ModArith.subMod(x, y, q);
                        case 2 -> ModArith.negMod(x, q);
                        case 3 -> ModArith.mulModSlow(x, y, q);
                        case 4 -> ModArith.addMod(w, ModArith.mulModSlow(x, y, q), q);
                        case 5 -> ModArith.addMod(ModArith.mulModSlow(x, y, q), ModArith.mulModSlow(z, w, q), q);
                        case 6 -> ModArith.mulModSlow(x, q - 987654321L, q);
                        default ->
                            ModArith.addMod(x, big.mod(BigInteger.valueOf(q)).longValue(), q);
                    };
                    assertEquals(want, out[0].limb(i)[j], "operation " + op + ", limb " + i + ", coefficient " + j);
                }
            }
        }
    }

    private static long[][] copy(RnsPoly p) {
        long[][] l = new long[p.limbCount()][];
        for (int i = 0; i < l.length; i++) l[i] = p.limb(i).clone();
        return l;
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

    /** copyTo fills the first limbs of a polynomial with as many or more, takes the domain, and refuses fewer. */
    @Test
    void copyToFillsThePrefixAndTakesTheDomain() {
        RnsPoly src = random(1, Domain.COEFFICIENT), dst = random(3, Domain.NTT);
        long[] top = dst.limb(3).clone();
        src.copyTo(dst);
        for (int i = 0; i <= 1; i++) assertArrayEquals(src.limb(i), dst.limb(i), "limb " + i);
        assertArrayEquals(top, dst.limb(3), "limbs past the source's untouched");
        assertEquals(Domain.COEFFICIENT, dst.domain());
        assertThrows(RingMismatchException.class, () -> dst.copyTo(src));
    }
}
