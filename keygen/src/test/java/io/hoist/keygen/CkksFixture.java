package io.hoist.keygen;

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
import io.hoist.ckks.PublicKey;
import io.hoist.ckks.RelinearizationKey;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;

/** A full client/server setup on small, explicitly insecure parameters. */
final class CkksFixture {
    final CkksParameters params;
    final CkksContext ctx;
    final Encoder encoder;
    final KeyGenerator kg;
    final SecretKey sk;
    final PublicKey pk;
    final RelinearizationKey rlk;
    final Encryptor encryptor;
    final Decryptor decryptor;

    CkksFixture(CkksParameters params) {
        this.params = params;
        this.ctx = CkksContext.create(params);
        this.encoder = new Encoder(ctx);
        this.kg = new KeyGenerator(ctx);
        this.sk = kg.genSecretKey();
        this.pk = kg.genPublicKey(sk);
        this.rlk = kg.genRelinearizationKey(sk);
        this.encryptor = Encryptor.withPublicKey(ctx, pk);
        this.decryptor = new Decryptor(ctx, sk);
    }

    static CkksParameters small(int logN, int[] logQ, int[] logP) {
        return CkksParameters.builder()
                .logN(logN)
                .logQ(logQ)
                .logP(logP)
                .scale(0x1p40)
                .allowInsecure()
                .build();
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

    PrecisionStats precision(ComplexVector want, Ciphertext ct) {
        return PrecisionStats.of(want, decrypt(ct));
    }

    /** Fails unless ct decrypts to {@code want} with more than {@code bits} bits in the worst slot. */
    void assertBits(ComplexVector want, Ciphertext ct, double bits, String what) {
        PrecisionStats p = precision(want, ct);
        assertTrue(p.minBits() > bits, what + ": " + p);
    }
}
