package io.hoist.lt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.lt.schedule.Schedule;
import io.hoist.ring.Op;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The README's Java example, compiled and run: the statements below are the README's, and the first
 * test checks that every code line of the README's first Java block stands here, so the two cannot
 * drift apart.
 */
class ReadmeExampleTest {
    private static final Path SELF = Path.of("src/test/java/io/hoist/lt/ReadmeExampleTest.java");

    /** The README's first Java block, code lines only (comments and blank lines dropped, white space folded). */
    static List<String> readmeLines() throws IOException {
        String readme = Files.readString(Path.of("../README.md"));
        int start = readme.indexOf("```java\n") + "```java\n".length();
        String block = readme.substring(start, readme.indexOf("```", start));
        return block.lines()
                .map(l -> l.replaceAll("\\s+//.*$", "").strip().replaceAll("\\s+", " "))
                .filter(l -> !l.isEmpty() && !l.startsWith("import "))
                .toList();
    }

    @Test
    void everyLineOfTheReadmeExampleStandsInThisTest() throws IOException {
        String self = String.join(
                        " ", Files.readString(SELF).lines().map(String::strip).toList())
                .replaceAll("\\s+", " ");
        List<String> lines = readmeLines();
        assertTrue(lines.size() >= 15, "the README's example was found: " + lines);
        for (String l : lines) assertTrue(self.contains(l), "README line not in the test: " + l);
    }

    @Test
    void theReadmeExampleRunsAndMultipliesCorrectly() {
        SplittableRandom r = new SplittableRandom(1);
        int n = 4096;
        double[][] re = new double[n][n], im = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                re[i][j] = (2 * r.nextDouble() - 1) / n;
                im[i][j] = (2 * r.nextDouble() - 1) / n;
            }
        }
        ComplexVector vector = ComplexVector.random(r, n);

        CkksParameters params = CkksParameters.preset("n13");
        CkksContext ctx = CkksContext.create(params);

        LinearTransform m = LinearTransform.dense(re, im);
        Plan plan = Plan.of(m, Algorithm.TH_BSGS, 16, 16, 16);
        System.out.println(plan.rotationKeys(params));
        System.out.println(plan.cost(params, params.maxLevel(), Storage.PRECOMPUTED));

        KeyGenerator kg = new KeyGenerator(ctx);
        SecretKey sk = kg.genSecretKey();
        RotationKeySet keys = kg.genRotationKeys(sk, params.maxLevel(), plan.rotationKeys(params));

        LinearTransformEvaluator lt = new LinearTransformEvaluator(ctx, keys);
        EncodedTransform em = lt.encode(m, plan, params.maxLevel(), Storage.PRECOMPUTED);
        Encoder encoder = new Encoder(ctx);
        Ciphertext x = Encryptor.withSecretKey(ctx, sk)
                .encrypt(encoder.encode(m.replicate(vector, params.slots()), params.maxLevel(), params.defaultScale()));
        Ciphertext y = lt.evaluate(x, em);
        Evaluation e = lt.evaluate(x, em, Schedule.phased(64_000_000));
        ComplexVector result = new Decryptor(ctx, sk).decryptAndDecode(y, encoder);

        // what the README promises of these values
        ComplexVector want = m.replicate(m.apply(vector), params.slots());
        assertTrue(PrecisionStats.of(want, result).minBits() > 20, "y decrypts to M·x");
        assertEquals(x.level() - 1, y.level(), "one level lower");
        assertEquals(x.scale(), y.scale(), 1e-6 * x.scale(), "same scale");
        assertEquals(y, e.result(), "the six-phase schedule gives the same bits");
        assertTrue(e.traffic().isPresent() && e.counts().get(Op.PT_MUL) == n);
        assertEquals(45, keys.size(), "exactly the plan's keys");
    }
}
