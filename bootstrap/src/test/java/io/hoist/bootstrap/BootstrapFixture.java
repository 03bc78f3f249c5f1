package io.hoist.bootstrap;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.Progress;
import io.hoist.ckks.SecretKey;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.plan.Storage;

/** A small insecure bootstrapping setup: parameters, plan, keys, bootstrapper, and a seeded message. */
final class BootstrapFixture {
    final BootstrapParameters bp;
    final BootstrapPlan plan;
    final CkksContext ctx;
    final SecretKey sk;
    final BootstrappingKeys keys;
    final Bootstrapper boot;
    final Encoder encoder;
    final Encryptor enc;
    final Decryptor dec;

    BootstrapFixture(BootstrapParameters bp, BootstrapPlan plan) {
        this.bp = bp;
        this.plan = plan;
        this.ctx = CkksContext.create(bp.ckks());
        this.sk = new KeyGenerator(ctx).genSecretKey();
        this.keys = BootstrappingKeys.generate(ctx, sk, plan, Progress.NONE);
        this.boot = new Bootstrapper(ctx, plan, keys, Storage.PRECOMPUTED, Progress.NONE);
        this.encoder = new Encoder(ctx);
        this.enc = Encryptor.withSecretKey(ctx, sk);
        this.dec = new Decryptor(ctx, sk);
    }

    /** Small sets: N = 2^logN, residual 60 + 40, StC 45 × stc, EvalMod as given, CtS 56 × cts. */
    static BootstrapParameters small(int logN, int logSlots, int cts, int stc, EvalModParameters em, int ephemeral) {
        return BootstrapParameters.builder()
                .name("test" + logN)
                .logN(logN)
                .logSlots(logSlots)
                .residualLogQ(60, 40)
                .stc(45, stc)
                .cts(56, cts)
                .logP(61, 61, 61)
                .evalMod(em)
                .hammingWeight(192)
                .ephemeralWeight(ephemeral)
                .logScale(40)
                .allowInsecure()
                .build();
    }

    ComplexVector message(long seed) {
        return Messages.uniform(bp, seed);
    }

    Ciphertext encryptAtLevel0(ComplexVector z) {
        return enc.encrypt(encoder.encode(z, 0, bp.ckks().defaultScale()));
    }

    PrecisionStats precision(ComplexVector want, Ciphertext ct) {
        return PrecisionStats.of(want, dec.decryptAndDecode(ct, encoder));
    }
}
