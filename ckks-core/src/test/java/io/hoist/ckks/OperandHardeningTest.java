package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.random.Prng;
import io.hoist.ring.Domain;
import io.hoist.ring.OpCounters;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Operands a caller can pass wrong through the public API: each is refused with a typed exception naming the mismatch,
 * never turned into a wrong answer or an index error (the second-opinion review of the forty-eighth session).
 */
class OperandHardeningTest {
    private static final SchemeFixture F = new SchemeFixture(10, new int[] {40, 30, 30}, new int[] {40}, 48);
    /** The same primes with 4 slots: a context whose polynomials mix with F's, but whose slots differ. */
    private static final CkksParameters FEW_SLOTS = CkksParameters.builder()
            .logN(10)
            .logSlots(2)
            .qPrimes(F.params.qPrimes())
            .pPrimes(F.params.pPrimes())
            .scale(0x1p40)
            .allowInsecure()
            .build();

    private static Ciphertext ct() {
        return F.encryptRandom(new SplittableRandom(7));
    }

    @Test
    void hoistedRotationsRefuseMissingOrForeignDigits() {
        Evaluator ev = F.evaluator(F.keys.rotationKeys(new int[] {1}, false));
        Ciphertext c = ct();
        PolyQP[] digits = ev.decompose(c);
        assertEquals(F.params.beta(c.level()), digits.length);
        assertDoesNotThrow(() -> ev.modDown(ev.rotateHoistedLazy(c, digits, 1)));

        WrongOperandException fewer =
                assertThrows(WrongOperandException.class, () -> ev.rotateHoistedLazy(c, Arrays.copyOf(digits, 1), 1));
        assertTrue(fewer.getMessage().contains("gives " + digits.length + " digits, got 1"), fewer.getMessage());
        assertThrows(WrongOperandException.class, () -> ev.rotateHoistedLazy(c, new PolyQP[0], 1));
        PolyQP[] withNull = digits.clone();
        withNull[1] = null;
        assertThrows(WrongOperandException.class, () -> ev.rotateHoistedLazy(c, withNull, 1));

        Ciphertext lower = ev.dropLevel(c, 1);
        LevelMismatchException stale =
                assertThrows(LevelMismatchException.class, () -> ev.rotateHoistedLazy(lower, digits, 1));
        assertTrue(stale.getMessage().contains("decompose it again"), stale.getMessage());
        PolyQP[] mixed = ev.decompose(lower);
        PolyQP[] mixedLevels = {digits[0], mixed[1], digits[2]};
        assertThrows(LevelMismatchException.class, () -> ev.rotateHoistedLazy(c, mixedLevels, 1));

        PolyQP[] qOnly = digits.clone();
        qOnly[0] = PolyQP.qOnly(digits[0].q());
        assertThrows(WrongOperandException.class, () -> ev.rotateHoistedLazy(c, qOnly, 1));
    }

    @Test
    void theKeySwitchersKernelsRefuseShortDigitsAndOutputs() {
        KeySwitcher ks = new KeySwitcher(F.ctx);
        Ciphertext c = ct();
        PolyQP[] digits = ks.decompose(c.poly(1, RawAccess.get()));
        SwitchingKey key = F.rlk.key();
        assertThrows(WrongOperandException.class, () -> ks.innerProduct(Arrays.copyOf(digits, 2), key));
        PolyQP out = PolyQP.zero(F.ctx, c.level(), Domain.NTT);
        PolyQP low = PolyQP.zero(F.ctx, c.level() - 1, Domain.NTT);
        int limbs = c.level() + 1 + F.ctx.alpha();
        OpCounters cnt = new OpCounters();
        assertThrows(
                LevelMismatchException.class,
                () -> ks.switchAndPermute(digits, key, 1, null, low, out, false, 0, limbs, null, null, cnt));
        assertThrows(
                IllegalArgumentException.class,
                () -> ks.switchAndPermute(digits, key, 1, null, out, out, false, 0, limbs + 1, null, null, cnt));
    }

    @Test
    void negateAndModDownRefuseAnotherParameterSet() {
        CkksContext other = CkksContext.create(FEW_SLOTS);
        Evaluator foreign = new Evaluator(other);
        Ciphertext c = ct();
        assertThrows(ParameterMismatchException.class, () -> foreign.negate(c));
        Evaluator ev = F.evaluator(F.keys.rotationKeys(new int[] {1}, false));
        CiphertextQP lazy = ev.rotateHoistedLazy(c, ev.decompose(c), 1);
        assertThrows(ParameterMismatchException.class, () -> foreign.modDown(lazy));
        assertThrows(ParameterMismatchException.class, () -> foreign.modDownRescale(lazy));
        Ciphertext bottom = ev.dropLevel(c, c.level());
        CiphertextQP lazyBottom = ev.rotateHoistedLazy(bottom, ev.decompose(bottom), 1);
        LevelMismatchException e = assertThrows(LevelMismatchException.class, () -> ev.modDownRescale(lazyBottom));
        assertTrue(e.getMessage().contains("modDownRescale"), e.getMessage());
    }

    @Test
    void anEncoderRefusesAnotherParameterSetsPlaintext() {
        Encoder foreign = new Encoder(CkksContext.create(FEW_SLOTS));
        Plaintext pt = F.encoder.encode(ComplexVector.random(new SplittableRandom(3), F.params.slots()), 1, 0x1p30);
        assertThrows(ParameterMismatchException.class, () -> foreign.decode(pt));
        assertThrows(ParameterMismatchException.class, () -> foreign.coefficients(pt));
        assertThrows(ParameterMismatchException.class, () -> F.decryptor.decryptAndDecode(ct(), foreign));
    }

    @Test
    void encodeQpChecksItsLevelBeforeItsScale() {
        ComplexVector v = ComplexVector.random(new SplittableRandom(5), F.params.slots());
        assertThrows(LevelMismatchException.class, () -> F.encoder.encodeQP(v, -2, 0x1p30));
        assertThrows(LevelMismatchException.class, () -> F.encoder.encodeQP(v, F.params.maxLevel() + 1, 0x1p30));
    }

    @Test
    void aSwitchingKeyRefusesPartsOfAnotherRingAndCopiesWhatItIsGiven() {
        SwitchingKey key = F.rlk.key();
        int beta = key.beta(), level = key.level();
        PolyQP[] bs = new PolyQP[beta], as = new PolyQP[beta];
        for (int t = 0; t < beta; t++) {
            bs[t] = key.b(t);
            as[t] = key.a(t);
        }
        SwitchingKey copy = new SwitchingKey(F.params, bs, as, null);
        long before = copy.b(0).q().limb(0)[0];
        bs[0].q().limb(0)[0] = before ^ 1;
        as[0].q().limb(0)[0] ^= 1;
        assertEquals(before, copy.b(0).q().limb(0)[0], "the key keeps its own copy of b");
        assertEquals(key.a(0).q().limb(0)[0], copy.a(0).q().limb(0)[0], "the key keeps its own copy of a");

        CkksParameters otherPrimes = CkksParameters.builder()
                .logN(10)
                .logQ(41, 31, 31)
                .logP(41)
                .scale(0x1p30)
                .allowInsecure()
                .build();
        CkksContext other = CkksContext.create(otherPrimes);
        PolyQP[] foreign = new PolyQP[beta];
        for (int t = 0; t < beta; t++) foreign[t] = PolyQP.zero(other, level, Domain.NTT);
        ParameterMismatchException e = assertThrows(
                ParameterMismatchException.class, () -> new SwitchingKey(F.params, foreign, foreign, null));
        assertTrue(e.getMessage().contains("another ring"), e.getMessage());
        PolyQP[] coefficients = new PolyQP[beta];
        for (int t = 0; t < beta; t++) coefficients[t] = PolyQP.zero(F.ctx, level, Domain.COEFFICIENT);
        assertThrows(WrongOperandException.class, () -> new SwitchingKey(F.params, coefficients, coefficients, null));
    }

    @Test
    void qpValuesAndSeededCiphertextsAreCopiedInAndOut() {
        PolyQP a = PolyQP.zero(F.ctx, 1, Domain.NTT), b = PolyQP.zero(F.ctx, 1, Domain.NTT);
        CiphertextQP c = new CiphertextQP(F.params, a, b, 0x1p30);
        a.q().limb(0)[0] = 42;
        c.a().q().limb(0)[1] = 43;
        assertEquals(0, c.a(RawAccess.get()).q().limb(0)[0]);
        assertEquals(0, c.a(RawAccess.get()).q().limb(0)[1]);
        assertThrows(
                LevelMismatchException.class,
                () -> new CiphertextQP(F.params, a, PolyQP.zero(F.ctx, 0, Domain.NTT), 0x1p30));

        ComplexVector v = ComplexVector.random(new SplittableRandom(11), F.params.slots());
        PlaintextQP p = F.encoder.encodeQP(v, 1, 0x1p30);
        long first = p.poly().q().limb(0)[0];
        p.poly().q().limb(0)[0] = first ^ 1;
        assertEquals(first, p.poly().q().limb(0)[0]);

        Encryptor sym = Encryptor.withSecretKey(F.ctx, F.sk);
        SeededCiphertext sc = sym.encryptSeeded(F.encoder.encode(v, 1, 0x1p30));
        long c0 = sc.c0().limb(0)[0];
        sc.c0().limb(0)[0] = c0 ^ 1;
        assertEquals(c0, sc.c0().limb(0)[0]);
        assertEquals(sc, new SeededCiphertext(sc.params(), sc.c0(), sc.seed(), sc.scale()));
        assertEquals(sc.hashCode(), new SeededCiphertext(sc.params(), sc.c0(), sc.seed(), sc.scale()).hashCode());
    }

    @Test
    void samplersRefuseWidthsAndSizesThatWouldLoopOrMisallocate() {
        Prng prng = Prng.of(Prng.newSeed(), 0);
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            for (double sigma : new double[] {-1, 0, Double.NaN, Double.POSITIVE_INFINITY, 1025})
                assertThrows(IllegalArgumentException.class, () -> Sampler.gaussian(prng, 8, sigma));
        });
        assertThrows(IllegalArgumentException.class, () -> Sampler.gaussian(prng, -1, 3.2));
        assertThrows(
                IllegalArgumentException.class, () -> Sampler.ternary(prng, -1, SecretDistribution.uniformTernary()));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Sampler.ternary(prng, 4, SecretDistribution.sparseTernary(5)));
        assertTrue(e.getMessage().contains("Hamming weight 5"), e.getMessage());
        assertEquals(
                4,
                Arrays.stream(Sampler.ternary(prng, 4, SecretDistribution.sparseTernary(4)))
                        .filter(x -> x != 0)
                        .count());
    }

    @Test
    void vectorsOfDifferentLengthsAreRefusedNotTruncated() {
        ComplexVector three = ComplexVector.ofReal(1, 2, 3), two = ComplexVector.ofReal(1, 2);
        assertThrows(WrongOperandException.class, () -> three.add(two));
        assertThrows(WrongOperandException.class, () -> two.sub(three));
        assertThrows(WrongOperandException.class, () -> two.mul(three));
        assertThrows(WrongOperandException.class, () -> PrecisionStats.of(ComplexVector.ofReal(1), three));
        assertThrows(IllegalArgumentException.class, () -> ComplexVector.zeros(-1));
        assertEquals(5.0, three.add(three).re(1) + 1);
    }

    @Test
    void indicesOfPrimesLimbsAndDigitsAreChecked() {
        CkksParameters p = F.params;
        assertThrows(LevelMismatchException.class, () -> p.q(p.maxLevel() + 1));
        assertThrows(WrongOperandException.class, () -> p.p(p.alpha()));
        assertThrows(LevelMismatchException.class, () -> p.beta(-7));
        assertThrows(LevelMismatchException.class, () -> p.beta(p.maxLevel() + 1));
        assertThrows(WrongOperandException.class, () -> F.ctx.primeQP(0, 1 + p.alpha()));
        assertThrows(LevelMismatchException.class, () -> F.ctx.tablesQP(p.maxLevel() + 1, 0));
        assertThrows(WrongOperandException.class, () -> F.ctx.digitStart(p.beta()));
        assertThrows(LevelMismatchException.class, () -> F.ctx.pModQ(p.maxLevel() + 1));
        assertEquals(p.p(0), F.ctx.primeQP(0, 1));
        byte[] seed = Prng.newSeed();
        for (int level : new int[] {-5, -1, p.maxLevel() + 1}) {
            assertThrows(LevelMismatchException.class, () -> SwitchingKey.uniformParts(F.ctx, seed, level));
            assertThrows(LevelMismatchException.class, () -> SwitchingKey.legacyUniformParts(F.ctx, seed, level));
        }
        SpecialFft fft = new SpecialFft(p.logN());
        assertThrows(IllegalArgumentException.class, () -> fft.forward(new double[1], new double[1], 4));
        assertThrows(IllegalArgumentException.class, () -> fft.inverse(new double[4], new double[2], 4));
        Evaluator ev = new Evaluator(F.ctx);
        try (Scratch s = ev.scratch()) {
            assertThrows(LevelMismatchException.class, () -> s.newPoly(-1));
            assertThrows(LevelMismatchException.class, () -> s.newPoly(p.maxLevel() + 1));
        }
    }
}
