package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ring.RnsPoly;
import java.util.SplittableRandom;

/** The scheme's own client/server setup on small, explicitly insecure parameters, with {@link ReferenceKeys}. */
final class SchemeFixture {
    final CkksParameters params;
    final CkksContext ctx;
    final Encoder encoder;
    final ReferenceKeys keys;
    final SecretKey sk;
    final PublicKey pk;
    final RelinearizationKey rlk;
    final Encryptor encryptor;
    final Decryptor decryptor;

    SchemeFixture(int logN, int[] logQ, int[] logP, long seed) {
        params = CkksParameters.builder()
                .logN(logN)
                .logQ(logQ)
                .logP(logP)
                .scale(0x1p40)
                .allowInsecure()
                .build();
        ctx = CkksContext.create(params);
        encoder = new Encoder(ctx);
        keys = new ReferenceKeys(ctx, seed);
        sk = keys.sk;
        pk = keys.publicKey();
        rlk = keys.relinearizationKey();
        encryptor = Encryptor.withPublicKey(ctx, pk);
        decryptor = new Decryptor(ctx, sk);
    }

    Evaluator evaluator(RotationKeySet rot) {
        return new Evaluator(ctx, rlk, rot);
    }

    Ciphertext encrypt(ComplexVector v) {
        return encryptor.encrypt(encoder.encode(v, params.maxLevel(), params.defaultScale()));
    }

    /** A fresh encryption at the top level of slots random values drawn from {@code r}. */
    Ciphertext encryptRandom(SplittableRandom r) {
        return encrypt(ComplexVector.random(r, params.slots()));
    }

    ComplexVector decrypt(Ciphertext ct) {
        return decryptor.decryptAndDecode(ct, encoder);
    }

    /** Same level, degree, scale and residues, bit for bit. */
    static void assertSameBits(Ciphertext want, Ciphertext got, String what) {
        assertEquals(want.level(), got.level(), what + ": level");
        assertEquals(want.degree(), got.degree(), what + ": degree");
        assertEquals(want.scale(), got.scale(), what + ": scale");
        for (int i = 0; i <= want.degree(); i++) {
            RnsPoly w = want.poly(i, RawAccess.get()), g = got.poly(i, RawAccess.get());
            for (int j = 0; j <= want.level(); j++)
                assertArrayEquals(w.limb(j), g.limb(j), what + ": poly " + i + ", limb " + j);
        }
    }

    void assertBits(ComplexVector want, Ciphertext ct, double bits, String what) {
        PrecisionStats p = PrecisionStats.of(want, decrypt(ct));
        assertTrue(p.minBits() > bits, what + ": " + p);
    }
}
