package io.hoist.cli;

import io.hoist.bfv.BfvContext;
import io.hoist.bfv.BfvParameters;
import io.hoist.bfv.seal.SealFormat;
import io.hoist.ckks.io.Formats;
import io.hoist.cli.options.CliSupport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/** SEAL files for the bfv subcommands: each read checks its header's size against the context before reading the rest. */
final class BfvFiles {
    private BfvFiles() {}

    static byte[] read(Path p, long maxBytes) {
        if (!Files.isRegularFile(p)) throw new IllegalArgumentException("not a readable file: " + p);
        try (InputStream in = Files.newInputStream(p)) {
            byte[] b = SealFormat.readObject(in, maxBytes);
            if (in.read() != -1) throw new IllegalArgumentException(p + ": bytes after the SEAL object");
            return b;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p + ": " + e.getMessage(), e);
        }
    }

    /**
     * The SEAL object in the file of {@code option}, read and parsed; a refusal names the option and the file (the
     * readers' own messages say only what is wrong with the bytes).
     */
    static <T> T parse(String option, Path p, long maxBytes, Function<byte[], T> parser) {
        try {
            return parser.apply(read(p, maxBytes));
        } catch (RuntimeException e) {
            String m = CliSupport.message(e); // read()'s own messages already name the file
            throw new IllegalArgumentException(option + (m.contains(p.toString()) ? ": " : " " + p + ": ") + m, e);
        }
    }

    static BfvContext context(Path params) {
        BfvParameters p = parse("--params", params, 16 + 17 + 24 * 65, SealFormat::readParameters);
        try {
            return BfvContext.of(p);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--params " + params + ": " + CliSupport.message(e), e);
        }
    }

    /** Largest key-level object (a public key) of this context. */
    static long maxKeyBytes(BfvContext ctx) {
        return 113 + 16L * ctx.n() * ctx.keyLevelSize();
    }

    static long maxCiphertextBytes(BfvContext ctx) {
        return SealFormat.ciphertextBytes(ctx.n(), ctx.dataLevelSize(), false);
    }

    /**
     * Writes through a temporary file and a rename, so a reader never sees half a file (the CKKS files' writer: a
     * directory or other non-file target is refused first, and a failed write leaves no temporary file behind).
     */
    static void write(Path p, byte[] bytes) {
        Formats.writeAtomically(p, bytes);
    }
}
