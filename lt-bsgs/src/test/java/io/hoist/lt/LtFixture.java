package io.hoist.lt;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.plan.Plan;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/** Small, explicitly insecure parameters with keys made on demand for each plan (also the base of the DFT tests' fixture). */
public class LtFixture {
    public final CkksParameters params;
    public final CkksContext ctx;
    public final Encoder encoder;
    public final KeyGenerator kg;
    public final SecretKey sk;
    public final Encryptor enc;
    public final Decryptor dec;

    private static final Map<String, LtFixture> SHARED = new ConcurrentHashMap<>();

    /**
     * The shared fixture with β digits at the top level, made once per test JVM: β = 1 (N = 2^10, Q
     * 50·40, P 60·60), β = 2 (Q 50·40·40, P 60·60, the last digit shorter), β = 3 (N = 2^11, α = 1).
     */
    public static LtFixture byBeta(int beta) {
        return SHARED.computeIfAbsent("beta" + beta, k -> switch (beta) {
            case 1 -> new LtFixture(10, new int[] {50, 40}, new int[] {60, 60});
            case 2 -> new LtFixture(10, new int[] {50, 40, 40}, new int[] {60, 60});
            case 3 -> new LtFixture(11, new int[] {50, 40, 40}, new int[] {61});
            default -> throw new IllegalArgumentException("no shared fixture with β = " + beta);
        });
    }

    /** The shared fixture of the block-product tests: N = 2^10 with 32 slots, Q 50·40·40, P 60. */
    public static LtFixture blocks() {
        return SHARED.computeIfAbsent("blocks", k -> new LtFixture(10, 5, new int[] {50, 40, 40}, new int[] {60}));
    }

    LtFixture(int logN, int[] logQ, int[] logP) {
        this(logN, logN - 1, logQ, logP);
    }

    /** Parameters with 2^logSlots slots, scale 2^40. */
    public LtFixture(int logN, int logSlots, int[] logQ, int[] logP) {
        params = CkksParameters.builder()
                .logN(logN)
                .logSlots(logSlots)
                .logQ(logQ)
                .logP(logP)
                .scale(0x1p40)
                .allowInsecure()
                .build();
        ctx = CkksContext.create(params);
        encoder = new Encoder(ctx);
        kg = new KeyGenerator(ctx);
        sk = kg.genSecretKey();
        enc = Encryptor.withSecretKey(ctx, sk);
        dec = new Decryptor(ctx, sk);
    }

    RotationKeySet keysFor(Plan plan) {
        return kg.genRotationKeys(sk, params.maxLevel(), plan.rotationKeys(params));
    }

    Ciphertext encrypt(LinearTransform t, ComplexVector x) {
        return enc.encrypt(encoder.encode(t.replicate(x, params.slots()), params.maxLevel(), params.defaultScale()));
    }

    /** Precision of the first n slots of ct against want (the other slots are replicas). */
    PrecisionStats precision(ComplexVector want, Ciphertext ct) {
        return PrecisionStats.of(want, dec.decryptAndDecode(ct, encoder));
    }

    /** Random dense d×d matrix with entries uniform in [−1, 1]/d (outputs stay O(1)). */
    public static LinearTransform randomDense(SplittableRandom r, int d) {
        double[][] re = new double[d][d], im = new double[d][d];
        for (int i = 0; i < d; i++)
            for (int j = 0; j < d; j++) {
                re[i][j] = (2 * r.nextDouble() - 1) / d;
                im[i][j] = (2 * r.nextDouble() - 1) / d;
            }
        return LinearTransform.dense(re, im);
    }
}
