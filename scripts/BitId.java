// The program of scripts/bit-identity.sh (not part of the build): digests of linear-transform outputs from fixed seeds.
import io.hoist.bootstrap.*;
import io.hoist.ckks.*;
import io.hoist.keygen.KeyGenerator;
import io.hoist.random.Prng;
import io.hoist.ring.RnsPoly;
import io.hoist.lt.*;
import io.hoist.lt.plan.*;
import io.hoist.lt.schedule.*;
import java.security.MessageDigest;
import java.util.*;

/** Output digests of linear transforms from fixed seeds: every algorithm, both storages, both schedules, the demo's, and the same on word-sized primes. */
public class BitId {
    public static void main(String[] a) throws Exception {
        if (a.length > 0 && a[0].equals("boot")) {
            boot();
            return;
        }
        // "words": a chain of primes below 2^31 and two above, like Lattigo's N13QP218 at N = 2^12 (packed diagonal limbs)
        boolean words = a.length > 0 && a[0].equals("words");
        CkksParameters params = words
                ? CkksParameters.builder().logN(12).logQ(33, 30, 30, 30).logP(35).scale(0x1p30).allowInsecure().build()
                : CkksParameters.preset("n13");
        try (AutoCloseable seeds = Prng.insecureDeterministicSeedsForTesting(42)) {
            CkksContext ctx = CkksContext.create(params);
            KeyGenerator kg = new KeyGenerator(ctx);
            SecretKey sk = kg.genSecretKey();
            Encoder enc = new Encoder(ctx);
            Encryptor e = Encryptor.withSecretKey(ctx, sk);
            boolean demo = a.length > 0 && a[0].equals("demo");
            int n = demo ? 4096 : 32;
            SplittableRandom r = new SplittableRandom(7);
            double[][] re = new double[n][n], im = new double[n][n];
            for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { re[i][j] = (2 * r.nextDouble() - 1) / n; im[i][j] = (2 * r.nextDouble() - 1) / n; }
            LinearTransform m = LinearTransform.dense(re, im);
            double[] xr = new double[n], xi = new double[n];
            for (int i = 0; i < n; i++) { xr[i] = 2 * r.nextDouble() - 1; xi[i] = 2 * r.nextDouble() - 1; }
            ComplexVector x = new ComplexVector(xr, xi);
            Ciphertext ct = e.encrypt(enc.encode(m.replicate(x, params.slots()), params.maxLevel(), params.defaultScale()));
            List<Plan> plans = demo
                    ? List.of(Plan.of(m, Algorithm.TH_BSGS, 16, 16, 16))
                    : List.of(Plan.of(m, Algorithm.DIAGONAL), Plan.of(m, Algorithm.BSGS, 8, 4), Plan.of(m, Algorithm.DH_BSGS, 8, 4), Plan.of(m, Algorithm.TH_BSGS, 4, 2, 4));
            for (Plan p : plans) {
                RotationKeySet keys = kg.genRotationKeys(sk, params.maxLevel(), p.rotationKeys(params));
                LinearTransformEvaluator lt = new LinearTransformEvaluator(ctx, keys);
                for (Storage s : demo ? List.of(Storage.PRECOMPUTED) : List.of(Storage.PRECOMPUTED, Storage.COMPACT)) {
                    EncodedTransform et = lt.encode(m, p, params.maxLevel(), s);
                    List<Schedule> scheds = p.algorithm() == Algorithm.BSGS || demo ? List.of(Schedule.direct()) : List.of(Schedule.direct(), Schedule.phased(64_000_000));
                    for (Schedule sc : scheds) {
                        Evaluation ev = lt.evaluate(ct, et, sc);
                        System.out.println(p.describe() + " " + s + " " + (sc instanceof Schedule.Phased ? "phased" : "direct") + " " + digest(ev.result())
                                + " traffic=" + ev.traffic().map(t -> Long.toString(t.offchipBytes())).orElse("-") + " counts=" + new TreeMap<>(ev.counts()));
                    }
                }
            }
        }
    }

    /**
     * Bootstrapping at N = 2^12 (the bootstrap tests' set: CtS depth 3, StC 2, Lattigo's EvalMod, encapsulation),
     * twice on the same bootstrapper (the second run on warm pools), and EvalMod with an arcsine on its own.
     */
    static void boot() throws Exception {
        try (AutoCloseable seeds = Prng.insecureDeterministicSeedsForTesting(42)) {
            BootstrapParameters bp = BootstrapParameters.builder().name("bitid12").logN(12).logSlots(11)
                    .residualLogQ(60, 40).stc(45, 2).cts(56, 3).logP(61, 61, 61).evalMod(EvalModParameters.lattigoDefault())
                    .hammingWeight(192).ephemeralWeight(32).logScale(40).allowInsecure().build();
            BootstrapPlan plan = BootstrapPlan.fewestKeys(bp);
            CkksContext ctx = CkksContext.create(bp.ckks());
            SecretKey sk = new KeyGenerator(ctx).genSecretKey();
            BootstrappingKeys keys = BootstrappingKeys.generate(ctx, sk, plan, Progress.NONE);
            Bootstrapper boot = new Bootstrapper(ctx, plan, keys, Storage.PRECOMPUTED, Progress.NONE);
            Encoder enc = new Encoder(ctx);
            Ciphertext in = Encryptor.withSecretKey(ctx, sk).encrypt(enc.encode(Messages.uniform(bp, 7), 0, bp.ckks().defaultScale()));
            for (int run = 0; run < 2; run++) {
                Bootstrapper.Result r = boot.bootstrap(in);
                System.out.println("bootstrap n12 run " + run + " " + digest(r.output()) + " counts=" + new TreeMap<>(r.counts()));
            }
            // EvalMod with an arcsine, on a ciphertext of v in [-1/2, 1/2] at the top of a 60-bit chain
            EvalModParameters em = new EvalModParameters(32, 62, 3, 8, 7, 60);
            int[] logQ = new int[em.depth() + 3];
            Arrays.fill(logQ, 60);
            CkksParameters params = CkksParameters.builder().logN(11).logQ(logQ).logP(61, 61).scale(0x1p60).allowInsecure().build();
            CkksContext c2 = CkksContext.create(params);
            KeyGenerator kg = new KeyGenerator(c2);
            SecretKey s2 = kg.genSecretKey();
            Evaluator ev = new Evaluator(c2, kg.genRelinearizationKey(s2), null);
            SplittableRandom r = new SplittableRandom(11);
            double[] v = new double[params.slots()];
            for (int i = 0; i < v.length; i++) v[i] = r.nextDouble() - 0.5;
            Encoder e2 = new Encoder(c2);
            Ciphertext ct = Encryptor.withSecretKey(c2, s2).encrypt(e2.encode(ComplexVector.ofReal(v), params.maxLevel(), params.defaultScale()));
            EvalMod mod = new EvalMod(ev, em);
            for (int run = 0; run < 2; run++) System.out.println("evalMod arcsine run " + run + " " + digest(mod.apply(ct, 0x1p60)));
        }
    }

    static String digest(Ciphertext c) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (int i = 0; i <= c.degree(); i++) {
            RnsPoly p = c.poly(i);
            for (int j = 0; j < p.limbCount(); j++) for (long w : p.limb(j)) for (int b = 0; b < 8; b++) md.update((byte) (w >>> (8 * b)));
        }
        md.update(Double.toString(c.scale()).getBytes());
        return HexFormat.of().formatHex(md.digest()).substring(0, 16);
    }
}
