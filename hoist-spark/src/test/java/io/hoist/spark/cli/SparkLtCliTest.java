package io.hoist.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code hoist spark-lt --json} end to end on local[3]: more cores than block columns, so the columns are split into row groups. */
class SparkLtCliTest {
    @Test
    void reportsBitIdentityCountsAndRowGroups() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.out;
        int code;
        try (PrintStream p = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            System.setOut(p);
            code = new CommandLine(new SparkCli())
                    .execute(
                            "spark-lt",
                            "--master",
                            "local[3]",
                            "--rows",
                            "200",
                            "--cols",
                            "100",
                            "--block",
                            "64",
                            "--logN",
                            "11",
                            "--logQ",
                            "50,40,40",
                            "--logP",
                            "60",
                            "--insecure",
                            "--threads",
                            "2",
                            "--json");
        } finally {
            System.setOut(old);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, out);
        JsonNode j = new ObjectMapper().readTree(out.substring(out.indexOf('{')));
        assertTrue(j.get("bitIdenticalToLocal").asBoolean(), out);
        assertTrue(j.get("countsMatch").asBoolean(), out);
        assertEquals(2, j.get("rowGroups").asInt(), "2 block columns on 3 cores");
        assertEquals(4, j.get("mapTasks").asInt());
        assertEquals(8, j.get("partials").asInt(), "4×2 blocks");
        assertEquals(4, j.get("blocks").get("outputCiphertexts").asInt());
        assertTrue(j.get("precision").get("minBits").asDouble() > 15, out);
        assertTrue(j.get("bytes").get("partials").asLong() > 0);
        assertEquals("local[3]", j.get("master").asText());
    }
}
