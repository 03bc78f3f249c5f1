package io.hoist.spark.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** spark-lt's refusals: one "hoist:" line each, before Spark starts or any key is made. */
class SparkLtHardeningTest {
    static String oneLine(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int code;
        try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            System.setOut(ps);
            CommandLine cl = SparkCli.commandLine();
            cl.setErr(new PrintWriter(err, true));
            code = cl.execute(args);
        } finally {
            System.setOut(old);
        }
        String out = buf.toString(StandardCharsets.UTF_8) + err;
        assertNotEquals(0, code, out);
        List<String> lines = out.strip().lines().toList();
        assertEquals(1, lines.size(), String.join(" ", args) + " prints one line: " + out);
        assertTrue(lines.get(0).startsWith("hoist: "), out);
        return lines.get(0);
    }

    @Test
    void badMastersUnknownOptionsAndOversizedJobsAreRefusedUpFront() {
        assertTrue(
                oneLine("spark-lt", "--master", "garbage://x", "--rows", "128").contains("--master must be"));
        assertTrue(oneLine("spark-lt", "--master", "local[0]", "--rows", "128").contains("got 'local[0]'"));
        assertTrue(
                oneLine("spark-lt", "--master", "local[2,0]", "--rows", "128").contains("got 'local[2,0]'"));
        assertTrue(oneLine("spark-lt", "--bogus").contains("see ./hoist spark-lt --help"));
        String mem =
                oneLine("spark-lt", "--master", "local[1]", "--preset", "n14", "--rows", "65536", "--block", "8192");
        assertTrue(mem.contains("needs about") && mem.contains("HOIST_JVM_OPTS=-Xmx"), mem);
        assertTrue(oneLine("spark-lt", "--master", "local[1]", "--rows", "2147483647", "--block", "64")
                .contains("blocks"));
        assertTrue(oneLine("spark-lt", "--rows", "128", "--replace-key-store")
                .contains("--replace-key-store goes with --key-store"));
    }

    @Test
    void anExistingFileIsNotReplacedByTheKeyStore(@TempDir Path dir) throws Exception {
        Path secret = dir.resolve("secret.hsk");
        byte[] bytes = "not a key store".getBytes(StandardCharsets.UTF_8);
        Files.write(secret, bytes);
        String line = oneLine(
                "spark-lt",
                "--master",
                "local[1]",
                "--rows",
                "128",
                "--logN",
                "11",
                "--logQ",
                "50,40,40",
                "--logP",
                "60",
                "--insecure",
                "--key-store",
                secret.toString());
        assertTrue(line.contains("exists; pass --replace-key-store"), line);
        line = oneLine(
                "spark-lt",
                "--master",
                "local[1]",
                "--rows",
                "128",
                "--logN",
                "11",
                "--logQ",
                "50,40,40",
                "--logP",
                "60",
                "--insecure",
                "--key-store",
                secret.toString(),
                "--replace-key-store");
        assertTrue(line.contains("is not a Hoist key store"), line);
        assertArrayEquals(bytes, Files.readAllBytes(secret), "untouched");
    }

    @Test
    void theMasterFormsSparkAcceptsAreAcceptedAndOthersRefused() {
        for (String ok : new String[] {
            "local",
            "local[*]",
            "local[4]",
            "local[4,2]",
            "local[4, 2]",
            "local[*,3]",
            "local-cluster[2,1,1024]",
            "spark://host:7077",
            "spark://h1:7077,h2:7077",
            "spark://[::1]:7077",
            "yarn",
            "k8s://https://10.0.0.1:6443"
        }) {
            SparkLtRun.checkMaster(ok);
        }
        for (String bad :
                new String[] {"local[0]", "local[01]", "garbage://x", "spark://host", "local[x]", "mesos://h:5050", ""
                }) {
            assertThrows(IllegalArgumentException.class, () -> SparkLtRun.checkMaster(bad), bad);
        }
    }
}
