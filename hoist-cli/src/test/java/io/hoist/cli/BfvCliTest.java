package io.hoist.cli;

import static io.hoist.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bfv commands exchange SEAL files end to end, and the two reports keep their JSON keys. */
class BfvCliTest {
    @Test
    void keygenEncryptDecryptRoundTripThroughSealFiles(@TempDir Path dir) throws IOException {
        Path p = dir.resolve("P.seal"), s = dir.resolve("S.seal"), k = dir.resolve("K.seal");
        assertEquals(
                0,
                run("bfv", "params", "--preset", "small4096", "--out", p.toString())
                        .code());
        assertEquals(
                0,
                run(
                                "bfv",
                                "keygen",
                                "--params",
                                p.toString(),
                                "--secret-out",
                                s.toString(),
                                "--public-out",
                                k.toString())
                        .code());
        Path values = dir.resolve("v.txt");
        Files.writeString(values, "5\n1032192\n\n17\n");
        for (String[] mode :
                new String[][] {{"--secret-key", s.toString(), "--seeded"}, {"--public-key", k.toString()}}) {
            Path ct = dir.resolve("CT" + mode[0].length() + ".seal");
            List<String> args = new ArrayList<>(List.of(
                    "bfv", "encrypt", "--params", p.toString(), "--values", values.toString(), "--out", ct.toString()));
            args.addAll(List.of(mode));
            CliTest.Run e = run(args.toArray(String[]::new));
            assertEquals(0, e.code(), e.out());
            assertEquals(mode.length == 3 ? 65_730L : 131_185L, Files.size(ct));
            CliTest.Run d = run(
                    "bfv",
                    "decrypt",
                    "--params",
                    p.toString(),
                    "--secret-key",
                    s.toString(),
                    "--in",
                    ct.toString(),
                    "--count",
                    "4",
                    "--json");
            assertEquals(0, d.code(), d.out());
            JsonNode j = new ObjectMapper().readTree(d.out());
            assertEquals("[5,1032192,17,0]", j.get("values").toString());
            assertTrue(j.get("noiseBudget").asInt() > 20, d.out());
        }
        CliTest.Run bad = run(
                "bfv",
                "encrypt",
                "--params",
                p.toString(),
                "--public-key",
                k.toString(),
                "--seeded",
                "--random",
                "1",
                "--out",
                dir.resolve("x").toString());
        assertEquals(2, bad.code(), bad.out());
        CliTest.Run foreign =
                run("bfv", "decrypt", "--params", p.toString(), "--secret-key", k.toString(), "--in", k.toString());
        assertEquals(2, foreign.code(), foreign.out());
        assertTrue(foreign.out().contains("hoist: --secret-key " + k), "names the option: " + foreign.out());
        CliTest.Run keyAsCiphertext =
                run("bfv", "decrypt", "--params", p.toString(), "--secret-key", s.toString(), "--in", k.toString());
        assertEquals(2, keyAsCiphertext.code(), keyAsCiphertext.out());
        assertTrue(keyAsCiphertext.out().contains("hoist: --in " + k), keyAsCiphertext.out());
        CliTest.Run keyAsParams =
                run("bfv", "decrypt", "--params", k.toString(), "--secret-key", k.toString(), "--in", k.toString());
        assertEquals(2, keyAsParams.code(), keyAsParams.out());
        assertTrue(keyAsParams.out().contains("hoist: --params " + k), keyAsParams.out());
    }

    @Test
    void theBenchAndTheTimingCheckPrintTheirReports() throws IOException {
        CliTest.Run b = run("bfv", "--preset", "small4096", "--seeded", "--runs", "10", "--json");
        assertEquals(0, b.code(), b.out());
        JsonNode j = new ObjectMapper().readTree(b.out());
        for (String key :
                new String[] {"params", "micros", "bytes", "noiseBudget", "roundTrip", "clientMemory", "ntt", "cpu"})
            assertTrue(j.has(key), key + " in " + b.out());
        assertEquals(65_730, j.get("bytes").get("seeded").asInt());
        assertTrue(j.get("roundTrip").asBoolean());
        assertTrue(j.get("micros").has("encodeEncryptSeededSave")
                && j.get("micros").has("decryptDecode"));
        CliTest.Run c = run("bfv", "ct-check", "--preset", "small4096", "--samples", "1000", "--json");
        JsonNode t = new ObjectMapper().readTree(c.out());
        assertEquals(1000, t.get("samplesPerClass").asInt());
        assertTrue(t.has("maxAbsT") && t.has("verdict"), c.out());
    }
}
