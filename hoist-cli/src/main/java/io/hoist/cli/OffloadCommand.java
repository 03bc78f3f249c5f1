package io.hoist.cli;

import com.google.common.math.Quantiles;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.Evaluator;
import io.hoist.ckks.SecretKey;
import io.hoist.cli.options.CliSupport;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.report.Json;
import io.hoist.cli.run.LtRun;
import io.hoist.cli.run.MemoryCheck;
import io.hoist.cli.run.RecordingBackend;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.NttBackend;
import io.hoist.ring.NttBackends;
import io.hoist.ring.NttEngine;
import io.hoist.ring.OpCounters;
import io.hoist.ring.fpga.FpgaSimBackend;
import io.hoist.ring.fpga.FpgaTimingModel;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hoist offload}: runs an operation on the CPU, records every NTT call it makes (limbs per
 * call and CPU time), and estimates the time with those calls offloaded to the simulated FPGA:
 * total − CPU NTT time + modelled device time, with the Amdahl bound of the NTT share.
 */
@Command(
        name = "offload",
        mixinStandardHelpOptions = true,
        description =
                "Estimate an operation's time with its NTTs offloaded to the simulated FPGA (streaming or memory-mapped).")
public final class OffloadCommand implements Callable<Integer> {
    @Mixin
    ParamsOptions paramsOptions;

    @Option(names = "--op", defaultValue = "rotate", description = "mulrelin, rotate or lt (default ${DEFAULT-VALUE})")
    String op;

    @Option(names = "--algo", defaultValue = "th-bsgs", description = "for --op lt: diagonal, bsgs, dh-bsgs, th-bsgs")
    String algo;

    @Option(
            names = "--n",
            defaultValue = "64",
            description = "for --op lt: matrix dimension (default ${DEFAULT-VALUE})")
    int n;

    @Option(names = "--cpu-backend", description = "CPU backend whose NTT time is replaced (default: the fastest here)")
    String cpuBackend;

    @Option(names = "--mode", defaultValue = "streaming", description = "streaming or mm (default ${DEFAULT-VALUE})")
    String mode;

    @Option(names = "--runs", defaultValue = "3", description = "timed runs (median), default ${DEFAULT-VALUE}")
    int runs;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (runs < 1 || runs > 1000) throw new IllegalArgumentException("--runs must be in [1, 1000], got " + runs);
        CkksParameters params = paramsOptions.build("n14");
        CliSupport.requireCompanion(spec, "--algo", op.equalsIgnoreCase("lt"), "--op lt");
        CliSupport.requireCompanion(spec, "--n", op.equalsIgnoreCase("lt"), "--op lt");
        if (op.equalsIgnoreCase("lt")) CliSupport.bounded("--n", n, 1, params.slots());
        MemoryCheck.require(
                "offload at these parameters (keys and working ciphertexts)",
                MemoryCheck.keysAndCiphertexts(params, op.equalsIgnoreCase("lt") ? 2L * n : 2, 64),
                "choose smaller parameters");
        FpgaTimingModel.Mode m = NttCommand.parseMode(mode);
        NttBackend cpu = cpuBackend == null ? NttBackends.defaultBackend() : NttBackends.get(cpuBackend);
        if (cpu instanceof FpgaSimBackend)
            throw new IllegalArgumentException(
                    "--cpu-backend must be a CPU backend (cpu-scalar or cpu-vector): offload replaces its NTT time by the simulated device's");
        RecordingBackend rec = new RecordingBackend(cpu);
        CkksContext ctx = new CkksContext(params, new NttEngine(rec, new OpCounters()));
        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        Encoder enc = new Encoder(ctx);
        SplittableRandom r = new SplittableRandom(3);
        Supplier<Ciphertext> work = switch (op.toLowerCase(Locale.ROOT)) {
            case "mulrelin" -> {
                Evaluator ev = new Evaluator(ctx, kg.genRelinearizationKey(sk), null);
                Ciphertext a = encrypt(ctx, enc, sk, r), b = encrypt(ctx, enc, sk, r);
                yield () -> ev.mulRelin(a, b);
            }
            case "rotate" -> {
                Evaluator ev = new Evaluator(
                        ctx, null, kg.genRotationKeysForSteps(sk, params.maxLevel(), new int[] {1}, false));
                Ciphertext a = encrypt(ctx, enc, sk, r);
                yield () -> ev.rotate(a, 1);
            }
            case "lt" -> {
                LinearTransform t = LtRun.randomTransform(r, n, 0);
                Algorithm alg = Algorithm.parse(algo);
                Plan plan = Plan.auto(t, params, params.maxLevel(), alg, Objective.FEWEST_KEYS, 0);
                LinearTransformEvaluator lte = new LinearTransformEvaluator(
                        ctx, kg.genRotationKeys(sk, params.maxLevel(), plan.rotationKeys(params)));
                EncodedTransform et = lte.encode(t, plan, params.maxLevel(), Storage.PRECOMPUTED);
                Ciphertext x = Encryptor.withSecretKey(ctx, sk)
                        .encrypt(enc.encode(
                                t.replicate(ComplexVector.random(r, n), params.slots()),
                                params.maxLevel(),
                                params.defaultScale()));
                yield () -> lte.evaluate(x, et);
            }
            default -> throw new IllegalArgumentException("--op must be mulrelin, rotate or lt");
        };
        Ciphertext last = work.get(); // warm-up
        long[] total = new long[runs], nttNanos = new long[runs];
        Map<Integer, Long> histogram = null;
        long calls = 0, limbs = 0;
        for (int i = 0; i < runs; i++) {
            rec.reset();
            long s = System.nanoTime();
            last = work.get();
            total[i] = System.nanoTime() - s;
            nttNanos[i] = rec.nanos;
            histogram = new LinkedHashMap<>(rec.histogram);
            calls = rec.calls;
            limbs = rec.limbs;
        }
        Objects.requireNonNull(last, "the operation's result"); // used, so no run can be optimised away
        double cpuMillis = Quantiles.median().compute(total) / 1e6,
                cpuNttMillis = Quantiles.median().compute(nttNanos) / 1e6;
        double deviceMicros = 0, h2c = 0, kernel = 0, c2h = 0;
        for (var e : histogram.entrySet()) {
            var b = FpgaTimingModel.PAPER.call(m, e.getKey(), params.n());
            deviceMicros += e.getValue() * b.totalMicros();
            h2c += e.getValue() * b.h2cMicros();
            kernel += e.getValue() * b.kernelMicros();
            c2h += e.getValue() * b.c2hMicros();
        }
        double deviceMillis = deviceMicros / 1e3;
        double share = cpuNttMillis / cpuMillis;
        double offloadMillis = cpuMillis - cpuNttMillis + deviceMillis;
        double speedup = cpuMillis / offloadMillis, amdahl = 1 / (1 - share);
        if (json) {
            Map<String, Long> hist = new LinkedHashMap<>();
            histogram.forEach((k, v) -> hist.put(Integer.toString(k), v));
            System.out.println(Json.obj()
                    .put("op", op.toLowerCase(Locale.ROOT))
                    .put("preset", params.name())
                    .put("logN", params.logN())
                    .put("mode", m.name().toLowerCase(Locale.ROOT))
                    .put("cpuBackend", rec.name())
                    .put("cpuMillis", cpuMillis)
                    .put("cpuNttMillis", cpuNttMillis)
                    .put("nttShare", share)
                    .put("deviceMillis", deviceMillis)
                    .put("offloadMillis", offloadMillis)
                    .put("speedup", speedup)
                    .put("amdahlBound", amdahl)
                    .put("calls", calls)
                    .put("limbsPerCall", calls == 0 ? 0.0 : (double) limbs / calls)
                    .put("limbsPerCallHistogram", hist)
                    .put(
                            "deviceBreakdownMillis",
                            Json.obj()
                                    .put("h2c", h2c / 1e3)
                                    .put("kernel", kernel / 1e3)
                                    .put("c2h", c2h / 1e3)));
        } else {
            System.out.println("offload: " + ParamsOptions.describe(params));
            System.out.printf(
                    Locale.ROOT,
                    "  %s on %s: %.1f ms total, %.1f ms in %d NTT calls (%d limbs, %.1f limbs/call) = %.1f %% NTT share%n",
                    op,
                    rec.name(),
                    cpuMillis,
                    cpuNttMillis,
                    calls,
                    limbs,
                    (double) limbs / calls,
                    100 * share);
            System.out.printf(
                    Locale.ROOT,
                    "  simulated FPGA (%s): %.1f ms device time (H2C %.1f, kernel %.1f, C2H %.1f)%n",
                    m.name().toLowerCase(Locale.ROOT),
                    deviceMillis,
                    h2c / 1e3,
                    kernel / 1e3,
                    c2h / 1e3);
            System.out.printf(
                    Locale.ROOT,
                    "  with offload: %.1f ms → speed-up %.2f× (Amdahl bound %.2f×)%n",
                    offloadMillis,
                    speedup,
                    amdahl);
            System.out.println("  limbs per call: " + histogram);
        }
        return 0;
    }

    private static Ciphertext encrypt(CkksContext ctx, Encoder enc, SecretKey sk, SplittableRandom r) {
        CkksParameters p = ctx.params();
        return Encryptor.withSecretKey(ctx, sk)
                .encrypt(enc.encode(ComplexVector.random(r, p.slots()), p.maxLevel(), p.defaultScale()));
    }

    static String fmt(int[] a) {
        return Arrays.toString(a);
    }
}
