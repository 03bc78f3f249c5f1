package io.hoist.cli;

import static io.hoist.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.math.Quantiles;
import io.hoist.cli.report.Json;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hoist tradeoff}: the §6.2 minimum keys, CSV and JSON carrying the same rows, the figures, the measured fit, bad input. */
class TradeoffCliTest {
    @Test
    void table2SweepReportsTheMinimumKeys() throws Exception {
        CliTest.Run r = run("tradeoff", "--logN", "16", "--n", "32768", "--budget-mb", "0", "--json");
        assertEquals(0, r.code(), r.out());
        JsonNode j = Json.MAPPER.readTree(r.out());
        assertEquals(93, j.get("minKeys").get("th-bsgs").asInt());
        assertEquals(382, j.get("minKeys").get("dh-bsgs").asInt());
    }

    @Test
    void csvAndJsonCarryTheSameRowsAndThePlotsAreWritten(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("t.csv"), plots = dir.resolve("plots");
        CliTest.Run r = run(
                "tradeoff",
                "--logN",
                "12",
                "--levels",
                "5",
                "--alpha",
                "all",
                "--word-bits",
                "64",
                "--n",
                "16..256",
                "--budget-mb",
                "8",
                "--csv",
                csv.toString(),
                "--plot",
                plots.toString(),
                "--json");
        assertEquals(0, r.code(), r.out());
        JsonNode j = Json.MAPPER.readTree(r.out());
        List<CSVRecord> rows;
        try (Reader in = Files.newBufferedReader(csv)) {
            rows = CSVFormat.DEFAULT
                    .builder()
                    .setHeader()
                    .setSkipHeaderRecord(true)
                    .get()
                    .parse(in)
                    .getRecords();
        }
        assertEquals(j.get("points").size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            JsonNode p = j.get("points").get(i);
            CSVRecord c = rows.get(i);
            for (String k : new String[] {
                "n",
                "algorithm",
                "rotationKeys",
                "keyBytes",
                "decompose",
                "modDown",
                "keySwitchInnerProducts",
                "ptMuls",
                "ntt"
            }) {
                assertEquals(p.get(k).asText(), c.get(k), k + " row " + i);
            }
            assertEquals(p.get("modMuls").asDouble(), Double.parseDouble(c.get("modMuls")));
        }
        for (String f : new String[] {"keys-vs-n", "pareto-keys-mults", "keybytes-vs-dnum", "traffic-vs-budget"}) {
            for (String ext : new String[] {".svg", ".png"})
                assertTrue(Files.size(plots.resolve(f + ext)) > 1000, f + ext);
        }
        assertEquals(1 + 8, j.get("files").size()); // the CSV and four figures in two formats
    }

    @Test
    void measuredModeFitsTheModel() throws Exception {
        CliTest.Run r = run(
                "tradeoff",
                "--logN",
                "11",
                "--n",
                "64",
                "--budget-mb",
                "0",
                "--pareto",
                "--algo",
                "th-bsgs,dh-bsgs",
                "--measure",
                "--measure-logN",
                "10..11",
                "--measure-n",
                "32",
                "--predict-logN",
                "12",
                "--json");
        assertEquals(0, r.code(), r.out());
        JsonNode m = Json.MAPPER.readTree(r.out()).get("measured");
        assertTrue(m.get("runs").size() >= 4, r.out());
        // the median is recomputed from the runs' own numbers: a missing or made-up field cannot pass (asDouble() gives
        // 0 for a missing one)
        assertTrue(m.get("medianRelativeError").isNumber(), r.out());
        double[] errs = new double[m.get("runs").size()];
        for (int i = 0; i < errs.length; i++) {
            JsonNode run = m.get("runs").get(i);
            double meas = run.get("measuredMillis").doubleValue(),
                    pred = run.get("predictedMillis").doubleValue();
            assertTrue(meas > 0 && pred > 0, run.toString());
            assertEquals(
                    Math.abs(pred - meas) / meas,
                    run.get("relativeError").doubleValue(),
                    1e-9 * (1 + Math.abs(pred - meas) / meas),
                    run.toString());
            errs[i] = run.get("relativeError").doubleValue();
        }
        assertEquals(
                Quantiles.median().compute(errs), m.get("medianRelativeError").doubleValue(), 1e-12);
        assertEquals(12, m.get("prediction").get("logN").asInt());
    }

    @Test
    void badSweepInputGetsOneLineErrors() {
        String[][] bad = {
            {"tradeoff", "--n", "64..16"},
            {"tradeoff", "--logN", "12", "--n", "4096"},
            {"tradeoff", "--levels", "5", "--alpha", "7"},
            {"tradeoff", "--n", "5..7"},
            {"tradeoff", "--n", "48"},
            {"tradeoff", "--alpha", "x"}
        };
        String[] expect = {
            "--n wants 2 ≤ a ≤ b",
            "exceeds the 2048 slots",
            "α = 7 is larger than the 6 Q primes",
            "leaves no size",
            "not a power of two",
            "--alpha wants"
        };
        for (int i = 0; i < bad.length; i++) {
            CliTest.Run r = run(bad[i]);
            assertNotEquals(0, r.code(), String.join(" ", bad[i]));
            assertTrue(r.out().contains(expect[i]), String.join(" ", bad[i]) + " → " + r.out());
            assertTrue(r.out().strip().lines().count() <= 2 && !r.out().contains("\tat "), r.out());
        }
    }
}
