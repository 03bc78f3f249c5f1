// One side of scripts/paired-ab.sh (not part of the build): one operation of one jar, timed per call; "lt" is a
// whole transform (dense 4096², TH-BSGS, precomputed diagonals, one evaluation per call).
import io.hoist.ckks.*;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.NttTables;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;

/** Loaded once per jar by PairedAB, each copy in its own class loader; getAsDouble runs the operation once (ms). */
public class PairedOp implements DoubleSupplier {
    private final Runnable r;

    public PairedOp(String op, String preset) {
        var params = CkksParameters.preset(preset);
        CkksContext ctx = CkksContext.create(params, "cpu", 1);
        KeyGenerator kg = new KeyGenerator(ctx);
        var sk = kg.genSecretKey();
        var pk = kg.genPublicKey(sk);
        var rlk = new RelinearizationKey(kg.genRelinearizationKey(sk).key());
        var rot = kg.genRotationKeysForSteps(sk, params.maxLevel(), new int[] {1, 2, 3, 4, 5, 6, 7, 8}, false);
        Encoder enc = new Encoder(ctx);
        Encryptor e = Encryptor.withPublicKey(ctx, pk);
        Evaluator ev = new Evaluator(ctx, rlk, rot);
        var x = ComplexVector.random(new SplittableRandom(7), params.slots());
        Ciphertext c = e.encrypt(enc.encode(x, params.maxLevel(), params.defaultScale()));
        Ciphertext prod = ev.mulRelin(c, c);
        // one limb of the first prime (ntt-first) or the second (ntt-second): forward then inverse
        long[][] limb = new long[1][params.n()];
        NttTables[] t = {ctx.ringQ().tables(op.equals("ntt-first") ? 0 : 1)};
        var rnd = new SplittableRandom(3);
        for (int k = 0; k < params.n(); k++) limb[0][k] = rnd.nextLong(t[0].q());
        if (op.equals("lt")) { // a dense 4096² TH-BSGS transform at the preset's top level (the lt command's default plan)
            r = lt(ctx, kg, sk, enc, params);
            return;
        }
        r = switch (op) {
            case "rescale" -> () -> ev.rescale(prod);
            case "mulRelin" -> () -> ev.mulRelin(c, c);
            case "rotate" -> () -> ev.rotate(c, 1);
            case "hoisted8" -> () -> ev.rotateHoisted(c, 1, 2, 3, 4, 5, 6, 7, 8);
            case "decompose" -> () -> ev.decompose(c);
            case "innerProduct" -> {
                var digits = ev.decompose(c);
                var key = rot.get(params.galoisElementForRotation(1), "rotation by 1").key();
                yield () -> ev.keySwitcher().innerProduct(digits, key);
            }
            case "add" -> () -> ev.add(c, c);
            case "ntt-first", "ntt-second" -> () -> {
                ctx.engine().forward(limb, t, 1);
                ctx.engine().inverse(limb, t, 1);
            };
            default -> throw new IllegalArgumentException("unknown operation " + op);
        };
    }

    private static Runnable lt(
            CkksContext ctx, KeyGenerator kg, SecretKey sk, Encoder enc, CkksParameters params) {
        int n = Math.min(4096, params.slots());
        SplittableRandom rnd = new SplittableRandom(11);
        Map<Integer, ComplexVector> diags = new HashMap<>();
        for (int i = 0; i < n; i++) diags.put(i, ComplexVector.random(rnd, n).scale(1 / Math.sqrt(n)));
        LinearTransform t = LinearTransform.fromDiagonals(n, diags);
        int level = params.maxLevel();
        Plan plan = Plan.auto(t, params, level, Algorithm.TH_BSGS, Objective.FEWEST_KEYS, Integer.MAX_VALUE);
        var keys = kg.genRotationKeys(sk, level, plan.rotationKeys(params));
        LinearTransformEvaluator lte = new LinearTransformEvaluator(ctx, keys, Schedule.direct());
        EncodedTransform et = lte.encode(t, plan, level, Storage.PRECOMPUTED);
        Ciphertext ct = Encryptor.withSecretKey(ctx, sk)
                .encrypt(enc.encode(t.replicate(ComplexVector.random(rnd, n), params.slots()), level,
                        params.defaultScale()));
        return () -> lte.evaluate(ct, et, Schedule.direct());
    }

    @Override
    public double getAsDouble() {
        long t0 = System.nanoTime();
        r.run();
        return (System.nanoTime() - t0) / 1e6;
    }
}
