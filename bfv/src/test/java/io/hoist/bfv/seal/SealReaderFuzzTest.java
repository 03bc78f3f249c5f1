package io.hoist.bfv.seal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.HoistException;
import io.hoist.InsecureSecretKeyAccess;
import io.hoist.bfv.BfvContext;
import io.hoist.testing.SeededFuzz;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Damaged SEAL files (seeded mutations): every reader answers with a typed error or an object, never another exception. */
class SealReaderFuzzTest {
    @Test
    void mutatedSealObjectsFailWithTypedErrorsOnly() {
        String set = "c_n4096_q30x3";
        BfvContext ctx = BfvContext.of(SealFormat.readParameters(SealVectorsTest.file(set, "params.seal")));
        var access = InsecureSecretKeyAccess.get();
        fuzz("params", SealVectorsTest.file(set, "params.seal"), SealFormat::readParameters);
        fuzz("plaintext", SealVectorsTest.file(set, "plain.seal"), b -> SealFormat.readPlaintext(ctx, b));
        fuzz(
                "seeded ciphertext",
                SealVectorsTest.file(set, "ct_sym_seeded.seal"),
                b -> SealFormat.readCiphertext(ctx, b));
        fuzz("ciphertext", SealVectorsTest.file(set, "ct_pk.seal"), b -> SealFormat.readCiphertext(ctx, b));
        fuzz("secret key", SealVectorsTest.file(set, "secret.seal"), b -> SealFormat.readSecretKey(ctx, b, access));
    }

    private static void fuzz(String what, byte[] good, Consumer<byte[]> read) {
        int[] typed = {0};
        SeededFuzz.run(what, SeededFuzz.tries(150), SeededFuzz.KINDS, m -> {
            byte[] bad = SeededFuzz.mutate(good, new SeededFuzz.Mutation(m.op(), m.position(), m.value(), false));
            try {
                read.accept(bad);
            } catch (HoistException e) {
                typed[0]++;
            }
        });
        assertTrue(typed[0] > 0, what + ": some mutation was refused");
    }
}
