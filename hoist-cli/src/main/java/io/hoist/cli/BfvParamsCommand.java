package io.hoist.cli;

import io.hoist.bfv.BfvParameters;
import io.hoist.bfv.seal.SealFormat;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hoist bfv params}: writes a preset's EncryptionParameters in SEAL's format. */
@Command(
        name = "params",
        mixinStandardHelpOptions = true,
        description = "Write a preset's SEAL EncryptionParameters file.")
public final class BfvParamsCommand implements Callable<Integer> {
    @Option(names = "--preset", defaultValue = "seal4096", description = "seal4096, seal8192, seal16384 or small4096")
    String preset;

    @Option(names = "--out", required = true, description = "the params file to write")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        BfvCommand.refuseOwnOptionsBefore(spec);
        BfvParameters p = BfvParameters.preset(preset);
        BfvFiles.write(out, SealFormat.write(p));
        System.out.println("wrote " + out + ": " + p);
        return 0;
    }
}
