package io.hoist.cli;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.SecretKeyAccess;
import io.hoist.bfv.BfvContext;
import io.hoist.bfv.BfvKeyGenerator;
import io.hoist.bfv.BfvPublicKey;
import io.hoist.bfv.BfvSecretKey;
import io.hoist.bfv.seal.SealFormat;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hoist bfv keygen}: a secret key and its public key, in SEAL's format. */
@Command(
        name = "keygen",
        mixinStandardHelpOptions = true,
        description = "Generate a BFV secret and public key as SEAL files.")
public final class BfvKeygenCommand implements Callable<Integer> {
    @Option(names = "--params", required = true, description = "SEAL EncryptionParameters file")
    Path params;

    @Option(names = "--secret-out", required = true, description = "the secret key file to write")
    Path secretOut;

    @Option(names = "--public-out", description = "the public key file to write")
    Path publicOut;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        BfvCommand.refuseOwnOptionsBefore(spec);
        BfvContext ctx = BfvFiles.context(params);
        SecretKeyAccess access = InsecureSecretKeyAccess.get(); // the user asked for the key file
        BfvKeyGenerator kg = new BfvKeyGenerator(ctx);
        BfvSecretKey sk = kg.secretKey();
        BfvFiles.write(secretOut, SealFormat.write(sk, access));
        if (publicOut != null) {
            BfvPublicKey pk = kg.publicKey(sk, access);
            BfvFiles.write(publicOut, SealFormat.write(pk));
        }
        System.out.println(
                "wrote " + secretOut + (publicOut != null ? " and " + publicOut : "") + " for " + ctx.params());
        return 0;
    }
}
