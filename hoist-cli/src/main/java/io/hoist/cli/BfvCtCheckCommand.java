package io.hoist.cli;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.bfv.BfvContext;
import io.hoist.bfv.BfvParameters;
import io.hoist.bfv.DecryptionTimingCheck;
import io.hoist.bfv.TimingLeakCheck;
import io.hoist.cli.report.BfvRender;
import io.hoist.cli.run.Bars;
import io.hoist.ring.KernelChoice;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hoist bfv ct-check}: the dudect-style timing test of decryption; exit 1 on a leak. */
@Command(
        name = "ct-check",
        mixinStandardHelpOptions = true,
        description =
                "Timing test of decrypt + decode (two classes of secret keys, Welch's t-test, cropped percentiles).")
public final class BfvCtCheckCommand implements Callable<Integer> {
    @Option(names = "--preset", defaultValue = "seal4096", description = "parameter set, default ${DEFAULT-VALUE}")
    String preset;

    @Option(
            names = "--samples",
            defaultValue = "100000",
            description = "measurements per class (10^6 for the full check), default ${DEFAULT-VALUE}")
    long samples;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the class sequence")
    long seed;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        BfvCommand.refuseOwnOptionsBefore(spec);
        if (samples < 1000 || samples > 100_000_000L)
            throw new IllegalArgumentException("--samples must be in [1000, 10^8], got " + samples);
        BfvParameters p = BfvParameters.preset(preset);
        BfvContext ctx = BfvContext.of(p);
        TimingLeakCheck.Result r;
        try (Bars bars = Bars.of("timing check", json)) {
            r = DecryptionTimingCheck.run(ctx, samples, seed, InsecureSecretKeyAccess.get(), bars::step);
        }
        String cpu = KernelChoice.cpu();
        System.out.print(json ? BfvRender.json(r, p, preset, cpu) + "\n" : BfvRender.text(r, p, cpu));
        return r.leak() ? 1 : 0;
    }
}
