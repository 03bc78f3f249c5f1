package io.hoist.cli;

import static io.hoist.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hoist.cli.report.Json;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** {@code hoist bootstrap}: the JSON contract on a small ring, the sweep's counts, bad input. */
class BootstrapCliTest {
    /** {@code bootstrap} of 16 slots on the shrunk boot16 ring (N = 2^11), CoeffsToSlots in 2 levels, with {@code args}. */
    private static CliTest.Run smallSparse(String... args) {
        String[] ring = {"bootstrap", "--preset", "boot16", "--logN", "11", "--logSlots", "4", "--ctos-depth", "2"};
        String[] all = Arrays.copyOf(ring, ring.length + args.length);
        System.arraycopy(args, 0, all, ring.length, args.length);
        return run(all);
    }

    @Test
    void jsonReportHasTheContractedFields() throws Exception {
        CliTest.Run r = run("bootstrap", "--preset", "boot16", "--logN", "11", "--joint", "--threads", "1", "--json");
        assertEquals(0, r.code(), r.out());
        JsonNode j = Json.MAPPER.readTree(r.out());
        for (String k : new String[] {
            "params",
            "logSlots",
            "keys",
            "levels",
            "precision",
            "millis",
            "memoryBytes",
            "matrices",
            "counts",
            "evalMod"
        }) assertTrue(j.has(k), k + " missing: " + r.out());
        for (String k :
                new String[] {"rotation", "conjugation", "relinearization", "encapsulation", "bytes", "seededBytes"})
            assertTrue(j.get("keys").has(k), k);
        for (String k : new String[] {"input", "output", "ctos", "evalMod", "stoc"})
            assertTrue(j.get("levels").has(k), k);
        for (String k : new String[] {"minBits", "avgBits", "l2Bits"})
            assertTrue(j.get("precision").has(k), k);
        for (String k : new String[] {
            "warmupWait", "firstWait", "keygen", "encode", "modRaise", "ctos", "evalMod", "stoc", "total"
        }) assertTrue(j.get("millis").has(k), k);
        for (String k : new String[] {"keys", "diagonals", "pooled", "peakRss", "allocatedWarm"})
            assertTrue(j.get("memoryBytes").has(k), k);
        assertTrue(j.get("memoryBytes").get("pooled").asLong() > 0, "the pools' limbs are reported");
        assertEquals(-1, j.get("memoryBytes").get("allocatedWarm").asLong(), "one run: no warm bootstrap to measure");
        for (String k : new String[] {"K", "degree", "doubleAngle", "arcsineDegree", "messageRatio"})
            assertTrue(j.get("evalMod").has(k), k);
        assertEquals(9, j.get("levels").get("output").asInt(), "boot16's residual 60 + 40 × 9");
        assertEquals(16, j.get("evalMod").get("K").asInt());
        assertEquals(7, j.get("matrices").size(), "CtS 4 + StC 3");
        assertEquals(1, j.get("keys").get("conjugation").asInt());
        assertEquals(2, j.get("keys").get("encapsulation").asInt());
        assertTrue(j.get("precision").get("minBits").asDouble() > 18, r.out());
        assertTrue(j.get("precision").get("avgBits").asDouble()
                > j.get("precision").get("minBits").asDouble());
        assertTrue(j.get("params").asText().contains("NOT SECURE"), "a shrunk ring is labelled");
    }

    /** Seeded key storage: about half the key memory, the same levels, bootstrapping as precise. */
    @Test
    void seededKeyStorageHoldsHalfTheKeys() throws Exception {
        CliTest.Run r = smallSparse("--key-storage", "seeded", "--threads", "2", "--json");
        assertEquals(0, r.code(), r.out());
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertEquals("seeded", j.get("keys").get("storage").asText());
        long full = j.get("keys").get("bytes").asLong(),
                held = j.get("keys").get("inMemory").asLong();
        assertEquals(j.get("keys").get("seededBytes").asLong(), held);
        assertEquals(held, j.get("memoryBytes").get("keysInMemory").asLong());
        assertTrue(held < 0.51 * full, held + " of " + full);
        assertTrue(j.get("precision").get("minBits").asDouble() > 15, r.out());
        CliTest.Run bad = run("bootstrap", "--preset", "boot16", "--logN", "11", "--key-storage", "half", "--json");
        assertNotEquals(0, bad.code());
        assertTrue(bad.out().contains("--key-storage must be full or seeded"), bad.out());
    }

    @Test
    void sparsePackingWithOtherDepths() throws Exception {
        CliTest.Run r = smallSparse("--json");
        assertEquals(0, r.code(), r.out());
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertTrue(j.get("sparse").asBoolean());
        assertEquals(5, j.get("matrices").size(), "CtS 2 + the preset's StC 3");
        assertTrue(j.get("precision").get("minBits").asDouble() > 15, r.out());
    }

    @Test
    void sweepCountsEveryPointAndBadInputIsRefused() throws Exception {
        CliTest.Run r = run(
                "bootstrap",
                "--preset",
                "boot16",
                "--logN",
                "11",
                "--sweep",
                "--sweep-depths",
                "2..3",
                "--sweep-count-only",
                "--joint",
                "--json");
        assertEquals(0, r.code(), r.out());
        JsonNode pts = Json.MAPPER.readTree(r.out()).get("points");
        assertEquals(8, pts.size(), "2 depths × 4 algorithms");
        for (JsonNode p : pts) assertTrue(p.get("galoisKeys").asInt() > 0, p.toString());
        assertNotEquals(0, run("bootstrap", "--preset", "boot99").code());
        assertNotEquals(
                0, run("bootstrap", "--logN", "11", "--ctos-algo", "bsgs").code());
        assertNotEquals(0, run("bootstrap", "--logN", "11", "--degree", "3").code());
        assertNotEquals(
                0, run("bootstrap", "--logN", "11", "--sweep", "--runs", "2").code(), "--runs with --sweep");
        assertNotEquals(
                0,
                run("bootstrap", "--logN", "11", "--objective", "lattigo", "--algo", "bsgs")
                        .code());
        assertNotEquals(
                0,
                run("bootstrap", "--preset", "boot15", "--logN", "11", "--no-encapsulation", "--K", "16")
                        .code());
    }
}
