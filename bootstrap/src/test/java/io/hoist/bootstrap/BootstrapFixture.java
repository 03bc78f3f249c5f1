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
import java.util.SplittableRandom;

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

    /** Uniform [−1, 1] + i[−1, 1] in every slot; sparse packing repeats the n values twice (period n). */
    ComplexVector message(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 1 << bp.logSlots(), slots = bp.ckks().slots();
        double[] re = new double[slots], im = new double[slots];
        for (int i = 0; i < n; i++) {
            re[i] = 2 * r.nextDouble() - 1;
            im[i] = 2 * r.nextDouble() - 1;
        }
        for (int i = n; i < slots; i++) {
            re[i] = re[i % n];
            im[i] = im[i % n];
        }
        return new ComplexVector(re, im);
    }

    Ciphertext encryptAtLevel0(ComplexVector z) {
        return enc.encrypt(encoder.encode(z, 0, bp.ckks().defaultScale()));
    }

    PrecisionStats precision(ComplexVector want, Ciphertext ct) {
        return PrecisionStats.of(want, dec.decryptAndDecode(ct, encoder));
    }
}
