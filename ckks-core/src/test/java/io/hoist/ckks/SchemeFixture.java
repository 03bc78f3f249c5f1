package io.hoist.ckks;

import static org.junit.jupiter.api.Assertions.assertTrue;

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

    ComplexVector decrypt(Ciphertext ct) {
        return decryptor.decryptAndDecode(ct, encoder);
    }

    void assertBits(ComplexVector want, Ciphertext ct, double bits, String what) {
        PrecisionStats p = PrecisionStats.of(want, decrypt(ct));
        assertTrue(p.minBits() > bits, what + ": " + p);
    }
}
