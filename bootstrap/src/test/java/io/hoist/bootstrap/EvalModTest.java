package io.hoist.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.poly.PolynomialEvaluator;
import io.hoist.keygen.KeyGenerator;
import io.hoist.ring.Op;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** EvalMod alone on encrypted u = m/ratio + I, |I| < K: it returns m/ratio; the double angles are counted. */
class EvalModTest {
    static Stream<Arguments> settings() {
        return Stream.of(
                // floors about 3 bits below what seed 1 measures (33.6, 29.9, 16.9, 33.8)
                Arguments.of(new EvalModParameters(16, 30, 3, 8, 0, 60), 30.0),
                Arguments.of(new EvalModParameters(12, 22, 3, 8, 0, 60), 27.0),
                Arguments.of(new EvalModParameters(8, 14, 3, 6, 7, 60), 14.0),
                Arguments.of(new EvalModParameters(16, 36, 3, 8, 0, 60), 30.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("settings")
    void reducesModuloOne(EvalModParameters em, double floorBits) {
        int depth = em.depth();
        int[] logQ = new int[depth + 3]; // two levels below EvalMod, as SlotsToCoeffs and the residual give it
        Arrays.fill(logQ, 60);
        CkksParameters params = CkksParameters.builder()
                .logN(11)
                .logQ(logQ)
                .logP(61, 61)
                .scale(0x1p60)
                .allowInsecure()
                .build();
        CkksContext ctx = CkksContext.create(params);
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        Evaluator ev = new Evaluator(ctx, kg.genRelinearizationKey(sk), null);
        Encoder enc = new Encoder(ctx);
        SplittableRandom r = new SplittableRandom(em.hashCode());
        int slots = params.slots();
        double ratio = em.messageRatio();
        double[] v = new double[slots], want = new double[slots];
        for (int i = 0; i < slots; i++) {
            double m = 2 * r.nextDouble() - 1; // the message, |m| ≤ 1
            // the integer part as ModRaise makes it under a weight-32 secret: the rounded sum of 33
            // uniforms on [−1/2, 1/2], kept within K − 1
            double sum = 0;
            for (int j = 0; j < 33; j++) sum += r.nextDouble() - 0.5;
            long big = Math.max(-(em.k() - 1), Math.min(em.k() - 1, Math.round(sum)));
            double u = m / ratio + big;
            v[i] = u / em.k();
            // EvalMod's target: sin(2πu)/(2π), or u − I itself with the arcsine
            want[i] = em.arcsineDegree() == 0 ? Math.sin(2 * Math.PI * u) / (2 * Math.PI) : m / ratio;
        }
        Ciphertext ct = Encryptor.withSecretKey(ctx, sk)
                .encrypt(enc.encode(ComplexVector.ofReal(v), params.maxLevel(), params.defaultScale()));
        EvalMod mod = new EvalMod(ev, em);
        var before = ctx.counters().snapshot();
        Ciphertext out = mod.apply(ct, 0x1p60);
        var counts = ctx.counters().since(before);
        assertEquals(params.maxLevel() - depth, out.level());
        assertEquals(0x1p60, out.scale(), 0.0);
        int polyMults = PolynomialEvaluator.plan(em.cosinePolynomial()).multiplications()
                + (em.arcsineDegree() == 0
                        ? 0
                        : PolynomialEvaluator.plan(em.arcsinePolynomial()).multiplications());
        assertEquals(polyMults + em.doubleAngle(), counts.get(Op.CT_MUL), "double angles counted");
        ComplexVector got = new Decryptor(ctx, sk).decryptAndDecode(out, enc);
        // precision of the message itself: the output times the ratio against m
        double[] gotM = new double[slots], wantM = new double[slots], gotRe = got.re(); // re() copies: once
        for (int i = 0; i < slots; i++) {
            gotM[i] = gotRe[i] * ratio;
            wantM[i] = want[i] * ratio;
        }
        PrecisionStats p = PrecisionStats.of(ComplexVector.ofReal(wantM), ComplexVector.ofReal(gotM));
        assertTrue(p.l2().min() > floorBits, em + ": " + p);
    }
}
