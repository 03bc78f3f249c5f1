package io.hoist.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.InvalidParametersException;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.Scratch;
import io.hoist.ring.Domain;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ModRaise against the obvious reference: each coefficient mod q_0, centred, reduced mod q_j by a division. */
class ModRaiseTest {
    /** q_0 of 50 bits under primes below and above it (40, 60, 30 bits), so the lift both reduces and does not. */
    private static final CkksParameters PARAMS = CkksParameters.builder()
            .logN(10)
            .logSlots(9)
            .logQ(50, 40, 60, 30)
            .logP(61)
            .scale(0x1p40)
            .allowInsecure()
            .build();

    static Stream<Arguments> seeds() {
        return Stream.of(1L, 2L, 3L).flatMap(s -> Stream.of(Arguments.of(s, 1), Arguments.of(s, 3)));
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void raiseEqualsTheCentredLiftPrimeByPrime(long seed, int level) {
        CkksContext ctx = CkksContext.create(PARAMS, "cpu", 2);
        Ring rq = ctx.ringQ();
        long q0 = rq.prime(0);
        SplittableRandom r = new SplittableRandom(seed);
        long[][] coeffs = new long[2][];
        RnsPoly[] polys = new RnsPoly[2];
        for (int i = 0; i < 2; i++) {
            long[] c = new long[rq.n()];
            for (int k = 0; k < c.length; k++) c[k] = r.nextLong(q0);
            // the edges of the centring: 0, the largest value kept, the smallest taken below 0, q_0 − 1
            c[0] = 0;
            c[1] = q0 >>> 1;
            c[2] = (q0 >>> 1) + 1;
            c[3] = q0 - 1;
            coeffs[i] = c;
            RnsPoly p = rq.wrap(new long[][] {c.clone()}, Domain.COEFFICIENT);
            rq.ntt(p);
            polys[i] = p;
        }
        Ciphertext ct = Ciphertext.wrap(RawAccess.get(), PARAMS, PARAMS.defaultScale(), polys);
        Ciphertext fresh = ModRaise.raise(ctx, ct, level, 0x1p40);
        Ciphertext pooled;
        try (Scratch s = new Evaluator(ctx).scratch()) {
            pooled = s.keep(ModRaise.raise(ctx, ct, level, 0x1p40, s));
        }
        assertEquals(level, fresh.level());
        for (int i = 0; i < 2; i++) {
            RnsPoly want = rq.newPoly(level, Domain.COEFFICIENT);
            for (int j = 0; j <= level; j++)
                for (int k = 0; k < rq.n(); k++) {
                    long v = coeffs[i][k];
                    want.limb(j)[k] = Math.floorMod(v > q0 / 2 ? v - q0 : v, rq.prime(j));
                }
            rq.ntt(want);
            for (int j = 0; j <= level; j++) {
                assertArrayEquals(want.limb(j), fresh.poly(i, RawAccess.get()).limb(j), "part " + i + " prime " + j);
                assertArrayEquals(want.limb(j), pooled.poly(i, RawAccess.get()).limb(j), "pooled part " + i);
            }
        }
    }

    /** A level-0 ciphertext of another parameter set of the same degree is refused, not raised with these primes. */
    @Test
    void aCiphertextOfOtherParametersIsRefused() {
        CkksParameters other = CkksParameters.builder()
                .logN(10)
                .logSlots(9)
                .logQ(45, 40, 60, 30)
                .logP(61)
                .scale(0x1p40)
                .allowInsecure()
                .build();
        Ring ro = CkksContext.create(other).ringQ();
        RnsPoly[] polys = {ro.newPoly(0, Domain.NTT), ro.newPoly(0, Domain.NTT)};
        Ciphertext ct = Ciphertext.wrap(RawAccess.get(), other, other.defaultScale(), polys);
        assertThrows(ParameterMismatchException.class, () -> ModRaise.raise(CkksContext.create(PARAMS), ct, 1, 0x1p40));
        assertThrows(
                InvalidParametersException.class,
                () -> BootstrapParameters.builder().logSlots(-7));
    }
}
