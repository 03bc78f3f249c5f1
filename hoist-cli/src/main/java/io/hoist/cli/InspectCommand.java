package io.hoist.cli;

import io.hoist.ckks.io.Inspector;
import io.hoist.cli.report.Json;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hoist inspect FILE}: kind, version, level, sizes, keys and checksum status of a Hoist file. */
@Command(
        name = "inspect",
        mixinStandardHelpOptions = true,
        description =
                "Describe a Hoist file (kind, version, parameters fingerprint, level, scale, sizes, the keys of a key store) and check every checksum; exit code 1 if the file is damaged.")
public final class InspectCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "the file")
    Path file;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Inspector.Inspection i = Inspector.inspect(file);
        if (json) {
            System.out.println(Json.write(i));
        } else if (!i.ok()) {
            spec.commandLine().getErr().println("hoist: " + file + " is damaged: " + i.damage());
        } else {
            System.out.printf(
                    Locale.ROOT,
                    "%s: %s, format version %d, %d bytes (body %d)%n",
                    file,
                    i.kind(),
                    i.version(),
                    i.fileBytes(),
                    i.bodyBytes());
            if (i.level() >= 0)
                System.out.printf(
                        Locale.ROOT,
                        "  level %d%s%n",
                        i.level(),
                        i.scale() > 0
                                ? String.format(Locale.ROOT, ", scale 2^%.2f", Math.log(i.scale()) / Math.log(2))
                                : "");
            if (i.seeded())
                System.out.println(
                        i.limbStreams()
                                ? "  seeded: uniform parts stored as seeds, one stream per limb (can be held seeded: --key-storage seeded)"
                                : "  seeded: uniform parts stored as seeds, one stream per digit (written before 2026-12-02: held in full)");
            System.out.println("  parameters fingerprint " + i.parametersFingerprint());
            if (i.parameters() != null) System.out.println("  " + i.parameters());
            if (!i.galoisElements().isEmpty())
                System.out.println("  " + i.galoisElements().size() + " Galois keys: " + i.galoisElements());
            System.out.println("  checksums: ok");
        }
        return i.ok() ? 0 : 1;
    }
}
