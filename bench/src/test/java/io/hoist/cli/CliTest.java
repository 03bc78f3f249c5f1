package io.hoist.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CLI's JSON contracts, run in-process on small inputs. */
class CliTest {
    record Run(int code, String out) {}

    static Run run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        java.io.StringWriter err = new java.io.StringWriter();
        try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            System.setOut(ps);
            CommandLine cl = HoistCli.commandLine();
            cl.setErr(new java.io.PrintWriter(err, true));
            int code = cl.execute(args);
            return new Run(code, buf.toString(StandardCharsets.UTF_8) + err);
        } finally {
            System.setOut(old);
        }
    }

    static String object(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\\{[^{}]*\\})").matcher(json);
        assertTrue(m.find(), "no object " + key + " in " + json);
        return m.group(1);
    }

    @Test
    void nttJsonHasTheContractedKeysAndIsBitExact() {
        for (String backend : new String[] {"cpu-scalar", "cpu-vector", "fpga-sim"}) {
            Run r = run("ntt", "--backend", backend, "--logN", "10", "--limbs", "3", "--warmup", "0", "--runs", "1", "--json");
            assertEquals(0, r.code(), r.out());
            for (String k : new String[] {"\"backend\"", "\"logN\":10", "\"limbs\":3", "\"primeBits\"", "\"forwardMicrosPerLimb\"",
                    "\"inverseMicrosPerLimb\"", "\"bitExact\":true"}) {
                assertTrue(r.out().contains(k), k + " missing: " + r.out());
            }
            assertEquals(backend.equals("fpga-sim"), r.out().contains("\"deviceMicrosPerLimb\""), r.out());
        }
    }

    @Test
    void ltJsonCountsEqualTheClosedForms() {
        for (String algo : new String[] {"diagonal", "bsgs", "dh-bsgs", "th-bsgs"}) {
            Run r = run("lt", "--algo", algo, "--logN", "11", "--logQ", "50,40,40", "--logP", "60,60", "--insecure", "--n", "64", "--json");
            assertEquals(0, r.code(), r.out());
            assertEquals(object(r.out(), "counts"), object(r.out(), "expected"), algo);
            assertTrue(r.out().contains("\"secure\":false"), r.out());
            for (String k : new String[] {"\"rotationKeys\"", "\"keyBytes\"", "\"precision\"", "\"minBits\"", "\"avgBits\"", "\"millis\"",
                    "\"keygen\"", "\"encode\"", "\"evaluate\"", "\"memoryBytes\"", "\"diagonals\"", "\"split\""}) {
                assertTrue(r.out().contains(k), k + " missing: " + r.out());
            }
        }
        Run sparse = run("lt", "--algo", "th-bsgs", "--preset", "n13", "--n", "256", "--sparse", "9", "--storage", "compact", "--json");
        assertEquals(0, sparse.code(), sparse.out());
        assertEquals(object(sparse.out(), "counts"), object(sparse.out(), "expected"));
    }

    @Test
    void insecureParametersAreRefusedWithoutTheFlag() {
        Run r = run("lt", "--logN", "11", "--logQ", "50,40,40", "--logP", "60,60", "--n", "16", "--json");
        assertNotEquals(0, r.code());
    }

    @Test
    void offloadJsonHasTheContractedKeys() {
        Run r = run("offload", "--op", "rotate", "--preset", "n13", "--runs", "1", "--json");
        assertEquals(0, r.code(), r.out());
        for (String k : new String[] {"\"op\":\"rotate\"", "\"preset\":\"n13\"", "\"cpuMillis\"", "\"cpuNttMillis\"", "\"nttShare\"",
                "\"deviceMillis\"", "\"offloadMillis\"", "\"speedup\"", "\"amdahlBound\"", "\"calls\"", "\"limbsPerCall\""}) {
            assertTrue(r.out().contains(k), k + " missing: " + r.out());
        }
    }
}
