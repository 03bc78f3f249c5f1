package io.hoist.cli;

import static io.hoist.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.hoist.cli.report.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hoist ctos}: the JSON contract, counts against the closed forms, the sweep and its plots, bad input. */
class CtosCliTest {
    private static final String[] SMALL = {"--logN", "11", "--logQ", "60,45x5", "--logP", "61,61", "--insecure"};

    private static String[] args(String... rest) {
        String[] out = new String[SMALL.length + rest.length + 1];
        out[0] = "ctos";
        System.arraycopy(SMALL, 0, out, 1, SMALL.length);
        System.arraycopy(rest, 0, out, 1 + SMALL.length, rest.length);
        return out;
    }

    @Test
    void jsonReportHasTheContractedFieldsAndCountsMatch() throws Exception {
        for (String[] extra : new String[][] {
            {"--algo", "th-bsgs", "--joint"}, {"--algo", "dh-bsgs", "--logSlots", "8"}, {"--objective", "lattigo"}
        }) {
            String[] a = args(concat(
                    new String[] {"--depth", "3", "--stoc", "--stoc-depth", "2", "--runs", "0", "--json"}, extra));
            CliTest.Run r = run(a);
            assertEquals(0, r.code(), r.out());
            JsonNode j = Json.MAPPER.readTree(r.out());
            for (String k : new String[] {
                "logN",
                "logSlots",
                "depth",
                "matrices",
                "rotationKeys",
                "keyBytes",
                "precision",
                "millis",
                "memoryBytes",
                "roundTrip"
            }) {
                assertTrue(j.has(k), k + " missing: " + r.out());
            }
            assertEquals(5, j.get("matrices").size());
            for (JsonNode m : j.get("matrices")) {
                for (String k : new String[] {
                    "level", "diagonals", "stride", "algo", "split", "rotationKeys", "counts", "expected"
                }) assertTrue(m.has(k), k);
                assertEquals(m.get("expected"), m.get("counts"), String.join(" ", a));
            }
            assertTrue(j.get("countsMatch").asBoolean());
            assertTrue(j.get("precision").get("minBits").asDouble() > 20, r.out());
            assertTrue(j.get("roundTrip").get("minBits").asDouble() > 20, r.out());
            for (String k : new String[] {"warmupWait", "evaluateWait", "keygen", "encode", "evaluate"})
                assertTrue(j.get("millis").has(k));
        }
    }

    @Test
    void matricesCanShareALevel() throws Exception {
        CliTest.Run r = run(args(
                "--matrices-per-level", "2,1", "--stoc", "--stoc-matrices-per-level", "2", "--runs", "0", "--json"));
        assertEquals(0, r.code(), r.out());
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertEquals(3, j.get("depth").asInt());
        int[] levels = new int[5];
        for (int i = 0; i < 5; i++)
            levels[i] = j.get("matrices").get(i).get("level").asInt();
        assertArrayEquals(new int[] {5, 5, 4, 1, 1}, levels); // CtS on levels 5 (two) and 4; StoC shares level 1
        assertTrue(j.get("countsMatch").asBoolean());
        assertTrue(j.get("precision").get("minBits").asDouble() > 12, r.out());
        assertTrue(j.get("roundTrip").get("minBits").asDouble() > 12, r.out());
        CliTest.Run bad = run(args("--matrices-per-level", "2,1", "--depth", "4"));
        assertTrue(bad.out().contains("differs from the sum 3"), bad.out());
    }

    @Test
    void sweepTabulatesDepthsAndAlgorithmsAndWritesPlots(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("sweep.png");
        CliTest.Run r = run(args(
                "--logSlots",
                "6",
                "--sweep",
                "--sweep-max-mb",
                "200",
                "--runs",
                "0",
                "--plot",
                png.toString(),
                "--json"));
        assertEquals(0, r.code(), r.out());
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertEquals(6 * 4, j.get("points").size());
        int run = 0;
        for (JsonNode p : j.get("points"))
            if (p.get("run").asBoolean()) {
                run++;
                assertTrue(p.get("minBits").asDouble() > 20, p.toString());
            }
        assertTrue(run >= 4 * 4, r.out()); // depths 2 … 5 fit in 5 levels; depth 6 does not
        assertTrue(Files.size(png) > 1000 && Files.size(dir.resolve("sweep-time.png")) > 1000);
    }

    @Test
    void badInputGetsOneLineErrors() {
        String[][] bad = {
            args("--depth", "0"),
            args("--depth", "11"),
            args("--logSlots", "11"),
            args("--objective", "nope"),
            args("--objective", "budget"),
            args("--objective", "lattigo", "--joint"),
            args("--depth", "6"),
            args("--plot", "x.png"),
            args("--objective", "budget", "--key-budget", "2", "--joint")
        };
        String[] expect = {
            "--depth must be in [1, logSlots = 10]",
            "--depth must be in [1, logSlots = 10]",
            "--logSlots must be in [1, logN − 1 = 10]",
            "--objective must be",
            "--objective budget needs --key-budget",
            "does not combine with --joint",
            "needs 6 levels above 0",
            "--plot goes with --sweep",
            "no choice of splits keeps the union of rotation keys within 2"
        };
        for (int i = 0; i < bad.length; i++) {
            CliTest.Run r = run(bad[i]);
            assertNotEquals(0, r.code(), String.join(" ", bad[i]));
            assertTrue(r.out().contains(expect[i]), String.join(" ", bad[i]) + " → " + r.out());
            assertTrue(r.out().strip().lines().count() <= 2 && !r.out().contains("\tat "), r.out());
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
