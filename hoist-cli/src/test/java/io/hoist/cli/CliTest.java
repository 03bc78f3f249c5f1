package io.hoist.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hoist.cli.options.ParamsOptions;
import io.hoist.cli.report.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The CLI's JSON contracts, run in-process on small inputs. */
class CliTest {
    record Run(int code, String out) {}

    /** {@code lt} on the shrunk test ring (N = 2^11, logQ 50,40,40, the given logP, --insecure) with {@code args}. */
    static Run smallLt(String logP, String... args) {
        String[] ring = {"lt", "--logN", "11", "--logQ", "50,40,40", "--logP", logP, "--insecure"};
        String[] all = Arrays.copyOf(ring, ring.length + args.length);
        System.arraycopy(args, 0, all, ring.length, args.length);
        return run(all);
    }

    static Run run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            System.setOut(ps);
            CommandLine cl = HoistCli.commandLine();
            cl.setErr(new PrintWriter(err, true));
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
            Run r = run(
                    "ntt",
                    "--backend",
                    backend,
                    "--logN",
                    "10",
                    "--limbs",
                    "3",
                    "--warmup",
                    "0",
                    "--runs",
                    "1",
                    "--json");
            assertEquals(0, r.code(), r.out());
            for (String k : new String[] {
                "\"backend\"",
                "\"logN\":10",
                "\"limbs\":3",
                "\"primeBits\"",
                "\"forwardMicrosPerLimb\"",
                "\"inverseMicrosPerLimb\"",
                "\"bitExact\":true"
            }) {
                assertTrue(r.out().contains(k), k + " missing: " + r.out());
            }
            assertEquals(backend.equals("fpga-sim"), r.out().contains("\"deviceMicrosPerLimb\""), r.out());
        }
    }

    @Test
    void ltJsonCountsEqualTheClosedForms() {
        for (String algo : new String[] {"diagonal", "bsgs", "dh-bsgs", "th-bsgs"}) {
            Run r = run(
                    "lt",
                    "--algo",
                    algo,
                    "--logN",
                    "11",
                    "--logQ",
                    "50,40,40",
                    "--logP",
                    "60,60",
                    "--insecure",
                    "--n",
                    "64",
                    "--json");
            assertEquals(0, r.code(), r.out());
            assertEquals(object(r.out(), "counts"), object(r.out(), "expected"), algo);
            assertTrue(r.out().contains("\"secure\":false"), r.out());
            for (String k : new String[] {
                "\"rotationKeys\"",
                "\"keyBytes\"",
                "\"precision\"",
                "\"minBits\"",
                "\"avgBits\"",
                "\"millis\"",
                "\"keygen\"",
                "\"encode\"",
                "\"evaluate\"",
                "\"memoryBytes\"",
                "\"diagonals\"",
                "\"split\""
            }) {
                assertTrue(r.out().contains(k), k + " missing: " + r.out());
            }
        }
        Run sparse = run(
                "lt",
                "--algo",
                "th-bsgs",
                "--preset",
                "n13",
                "--n",
                "256",
                "--sparse",
                "9",
                "--storage",
                "compact",
                "--json");
        assertEquals(0, sparse.code(), sparse.out());
        assertEquals(object(sparse.out(), "counts"), object(sparse.out(), "expected"));
    }

    /** {@code --key-storage seeded}: half the key memory, counts still the closed forms, the result as precise. */
    @Test
    void ltWithSeededKeysHoldsHalfTheKeyBytes() throws Exception {
        Run r = smallLt("60,60", "--n", "64", "--algo", "th-bsgs", "--key-storage", "seeded", "--json");
        assertEquals(0, r.code(), r.out());
        var j = Json.MAPPER.readTree(r.out());
        assertEquals("seeded", j.get("keyStorage").asText());
        var mem = j.get("memoryBytes");
        assertEquals(mem.get("keysSeeded").asLong(), mem.get("keysInMemory").asLong());
        assertTrue(mem.get("keysInMemory").asLong() < 0.51 * mem.get("keys").asLong());
        assertTrue(j.get("countsMatch").asBoolean(), r.out());
        assertTrue(j.get("precision").get("minBits").asDouble() > 15, r.out());
        Run blocks = run("lt", "--preset", "n13", "--rows", "64", "--key-storage", "seeded", "--json");
        assertNotEquals(0, blocks.code());
        assertTrue(blocks.out().contains("not available for --rows/--cols"), blocks.out());
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
        for (String k : new String[] {
            "\"op\":\"rotate\"",
            "\"preset\":\"n13\"",
            "\"cpuMillis\"",
            "\"cpuNttMillis\"",
            "\"nttShare\"",
            "\"deviceMillis\"",
            "\"offloadMillis\"",
            "\"speedup\"",
            "\"amdahlBound\"",
            "\"calls\"",
            "\"limbsPerCall\""
        }) {
            assertTrue(r.out().contains(k), k + " missing: " + r.out());
        }
    }

    static JsonNode json(Run r) {
        try {
            return Json.MAPPER.readTree(r.out());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + r.out(), e);
        }
    }

    @Test
    void opsReportsEveryOperationAndTheHoistingRatioOfItsOwnTimes() {
        Run r = run(
                "ops",
                "--logN",
                "10",
                "--logQ",
                "50,40",
                "--logP",
                "60",
                "--insecure",
                "--runs",
                "1",
                "--warmup",
                "0",
                "--json");
        assertEquals(0, r.code(), r.out());
        JsonNode j = json(r), ops = j.get("ops");
        List<String> names = new ArrayList<>();
        ops.fieldNames().forEachRemaining(names::add);
        assertEquals(
                List.of(
                        "encode",
                        "encrypt",
                        "decrypt",
                        "add",
                        "mulRelin",
                        "rescale",
                        "rotate",
                        "rotateHoisted8",
                        "rotateHoisted8Each",
                        "decompose",
                        "innerProduct",
                        "modDown"),
                names);
        for (String op : names) assertEquals(0, ops.get(op).get("warmupRuns").asInt(), op);
        // the test JVMs start no kernel warm-up, so nothing waited for one
        assertEquals(0, j.get("warmupWaitMillis").asDouble());
        assertEquals(0, j.get("timingWaitMillis").asDouble());
        // one Decompose shared by the eight key switches, in both forms
        for (String op : new String[] {"rotateHoisted8", "rotateHoisted8Each"}) {
            JsonNode c = ops.get(op).get("counts");
            assertEquals(1, c.get("decompose").asLong(), op);
            assertEquals(8, c.get("ksInnerProduct").asLong(), op);
        }
        double rotate = ops.get("rotate").get("micros").asDouble();
        JsonNode ratio = j.get("hoistedOverPlain");
        assertEquals(
                ops.get("rotateHoisted8").get("micros").asDouble() / (8 * rotate),
                ratio.get("held").asDouble(),
                1e-12);
        assertEquals(
                ops.get("rotateHoisted8Each").get("micros").asDouble() / (8 * rotate),
                ratio.get("each").asDouble(),
                1e-12);
    }

    @Test
    void opsTableKeepsItsColumnsForTheLongestName() {
        Run r = run(
                "ops", "--logN", "10", "--logQ", "50,40", "--logP", "60", "--insecure", "--runs", "1", "--warmup", "0");
        assertEquals(0, r.code(), r.out());
        List<String> lines = r.out().lines().toList();
        String header = lines.stream()
                .filter(l -> l.startsWith("operation "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(r.out()));
        int end = header.indexOf("median µs") + "median µs".length();
        Pattern row = Pattern.compile("^(encode|encrypt|decrypt|add|mulRelin|rescale|rotate\\w*|decompose|innerProduct"
                + "|modDown) +(\\d+\\.\\d) ");
        int rows = 0;
        for (String l : lines) {
            Matcher m = row.matcher(l);
            if (!m.find()) continue;
            rows++;
            assertEquals(end, m.end(2), "the median column moved: " + l);
            assertEquals(l.stripTrailing(), l, "blanks at the end of a row");
        }
        assertEquals(12, rows, r.out());
    }

    @Test
    void opsWarmsUpByCountOrByTime() {
        int[] calls = {0};
        assertEquals(3, OpsCommand.warmUp(3, 10_000, () -> calls[0]++));
        assertEquals(0, OpsCommand.warmUp(0, 10_000, () -> calls[0]++));
        assertEquals(3, calls[0]);
        // no count: at least the minimum, however long each run takes, and runs until the time has passed
        calls[0] = 0;
        assertEquals(OpsCommand.MIN_WARMUP_RUNS, OpsCommand.warmUp(null, 0, () -> calls[0]++));
        long t0 = System.nanoTime();
        int runs = OpsCommand.warmUp(null, 50, () -> calls[0]++);
        assertTrue(System.nanoTime() - t0 >= 50_000_000L, "returned before the time had passed");
        assertTrue(runs >= OpsCommand.MIN_WARMUP_RUNS, runs + " runs");
        assertEquals(runs, calls[0] - OpsCommand.MIN_WARMUP_RUNS);
    }

    @Test
    void scheduleTable2MeetsThePapersReductionAndPrintsTheContractedJson() {
        Run r = run("schedule", "--table2", "--json");
        assertEquals(0, r.code(), r.out());
        var j = json(r);
        for (String k : new String[] {
            "algo",
            "logN",
            "n",
            "split",
            "onchipBudgetBytes",
            "grouping",
            "phases",
            "offchipBytes",
            "latencyMicros",
            "baseline",
            "reduction"
        }) {
            assertTrue(j.has(k), k + " missing: " + r.out());
        }
        assertEquals("th-bsgs", j.get("algo").asText());
        assertEquals(16, j.get("logN").asInt());
        assertEquals(32768, j.get("n").asInt());
        assertTrue(j.get("modelOnly").asBoolean() && !j.get("secure").asBoolean());
        assertEquals(6, j.get("phases").size());
        for (var p : j.get("phases")) {
            for (String k : new String[] {
                "phase", "lines", "readBytes", "writeBytes", "iterations", "residentBytes", "latencyMicros"
            }) assertTrue(p.has(k), k);
            assertTrue(p.get("residentBytes").asLong() <= 43_000_000L);
        }
        long sum = 0;
        for (var p : j.get("phases"))
            sum += p.get("readBytes").asLong() + p.get("writeBytes").asLong();
        assertEquals(j.get("offchipBytes").asLong(), sum);
        assertEquals("dh-bsgs", j.get("baseline").get("algo").asText());
        double red = j.get("reduction").asDouble();
        assertEquals(
                1
                        - j.get("offchipBytes").asDouble()
                                / j.get("baseline").get("offchipBytes").asDouble(),
                red,
                1e-12);
        assertTrue(red >= 0.52, "reduction " + red);
    }

    @Test
    void scheduleSearchWritesThePlotsAndRefusesAnInfeasibleBudget(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("s.svg");
        Run r = run(
                "schedule",
                "--preset",
                "n13",
                "--n",
                "1024",
                "--search",
                "--onchip-mb",
                "4",
                "--plot",
                svg.toString(),
                "--json");
        assertEquals(0, r.code(), r.out());
        var j = json(r);
        assertTrue(
                j.get("paretoFront").get("th-bsgs").size() > 0
                        && j.get("paretoFront").get("dh-bsgs").size() > 0,
                r.out());
        assertTrue(Files.readString(svg).contains("<svg"), "per-phase plot");
        assertTrue(Files.readString(dir.resolve("s-pareto.svg")).contains("<svg"), "Pareto plot");
        Run bad = run("schedule", "--table2", "--onchip-mb", "1");
        assertNotEquals(0, bad.code());
        assertTrue(bad.out().contains("smallest feasible"), bad.out());
    }

    @Test
    void ltBlockMatrixJsonReportsBlocksCountsAndPrecision() {
        // 1500×700 at 1024 slots: 2×1 blocks of 1024 (the last block row 476 rows), both thread counts
        for (String threads : new String[] {"1", "2"}) {
            Run r = smallLt(
                    "60", "--rows", "1500", "--cols", "700", "--split", "8,8,16", "--threads", threads, "--json");
            assertEquals(0, r.code(), r.out());
            String blocks = object(r.out(), "blocks");
            for (String k : new String[] {
                "\"rows\":2", "\"cols\":1", "\"dimension\":1024", "\"inputCiphertexts\":1", "\"outputCiphertexts\":2"
            }) {
                assertTrue(blocks.contains(k), k + " missing: " + blocks);
            }
            assertTrue(r.out().contains("\"countsMatch\":true"), r.out());
            assertTrue(r.out().contains("\"threads\":" + threads), r.out());
            assertTrue(r.out().contains("\"rotationKeys\":29"), r.out()); // 7 + 7 + 15
            String memory = object(r.out(), "memoryBytes"), millis = object(r.out(), "millis");
            for (String k :
                    new String[] {"\"allocatedPerEvaluateAllThreads\":", "\"allocatedFirstEvaluateAllThreads\":"})
                assertTrue(memory.contains(k), k + " missing: " + memory);
            for (String k : new String[] {"\"warmupWait\":0.0", "\"evaluateWait\":0.0"})
                assertTrue(millis.contains(k), k + " (the tests run without a warm-up) missing: " + millis);
        }
        // a matrix that fits one ciphertext takes one block of the smallest power of two
        Run small = smallLt("60", "--rows", "40", "--cols", "100", "--json");
        assertEquals(0, small.code(), small.out());
        assertTrue(object(small.out(), "blocks").contains("\"dimension\":128"), small.out());
        assertEquals(2, smallLt("60", "--rows", "64", "--n", "64").code());
        assertEquals(2, smallLt("60", "--rows", "64", "--block", "48").code());
    }

    @Test
    void ltBlockMatrixOnThePhasedSchedule() {
        // 300×200 in blocks of 128 (3×2) under a 0.5 MB working set: bit-identical to direct, traffic equal to the
        // expected
        // ledger (the walk without data: block (2, 1) keeps 44 rows and 72 columns, so some of its diagonals are zero)
        Run r = smallLt(
                "60",
                "--rows",
                "300",
                "--cols",
                "200",
                "--block",
                "128",
                "--split",
                "4,8,4",
                "--schedule",
                "phased",
                "--onchip-mb",
                "0.5",
                "--compare-direct",
                "--json");
        assertEquals(0, r.code(), r.out());
        for (String k : new String[] {
            "\"schedule\":\"phased\"",
            "\"onchipBudgetBytes\":500000",
            "\"match\":true",
            "\"bitIdenticalToDirect\":true",
            "\"countsMatch\":true"
        }) {
            assertTrue(r.out().contains(k), k + " missing: " + r.out());
        }
        long peak = Long.parseLong(
                r.out().replaceAll(".*\"peakWorkingSet\":(\\d+).*", "$1").trim());
        assertTrue(peak > 0 && peak <= 500_000, "peak working set " + peak);
        assertEquals(
                2,
                smallLt("60", "--rows", "300", "--cols", "200", "--block", "128", "--compare-direct")
                        .code(),
                "--compare-direct needs --schedule phased");
    }

    @Test
    void ltPhasedReportsTrafficMemoryAndBitIdentity() {
        Run r = run(
                "lt",
                "--algo",
                "th-bsgs",
                "--logN",
                "11",
                "--logQ",
                "50,40,40",
                "--logP",
                "60,60",
                "--insecure",
                "--n",
                "64",
                "--schedule",
                "phased",
                "--onchip-mb",
                "1",
                "--compare-direct",
                "--storage",
                "compact",
                "--json");
        assertEquals(0, r.code(), r.out());
        var j = json(r);
        assertEquals("phased", j.get("schedule").asText());
        assertTrue(j.get("bitIdenticalToDirect").asBoolean());
        assertTrue(j.get("traffic").get("match").asBoolean());
        assertEquals(j.get("traffic").get("measured"), j.get("traffic").get("expected"));
        for (String k : new String[] {"1", "2", "3", "4", "5", "6", "offchipBytes"})
            assertTrue(j.get("traffic").get("measured").has(k), k);
        var mem = j.get("memoryBytes");
        for (String k :
                new String[] {"keys", "diagonals", "peakWorkingSet", "allocatedPerEvaluate", "allocatedFirstEvaluate"})
            assertTrue(mem.has(k), k);
        assertTrue(mem.get("peakWorkingSet").asLong() <= 1_000_000L);
        // doubles keep their precision (the old writer cut them to 3 decimals)
        String bits = j.get("precision").get("minBits").asText();
        assertTrue(bits.length() > 8, bits);
        Run badSchedule = run("lt", "--preset", "n13", "--n", "16", "--schedule", "nope");
        assertNotEquals(0, badSchedule.code());
        assertTrue(badSchedule.out().contains("--schedule must be direct or phased"), badSchedule.out());
    }

    @Test
    void keygenStoreInspectAndStoredKeyEvaluation(@TempDir Path dir) throws Exception {
        String store = dir.resolve("keys.hks").toString(),
                secret = dir.resolve("sk.hsk").toString();
        String[] params = {"--logN", "11", "--logQ", "50,40,40", "--logP", "60,60", "--insecure"};
        Run kg = run(cat(
                new String[] {
                    "keygen",
                    "--algo",
                    "th-bsgs",
                    "--n",
                    "64",
                    "--split",
                    "4,4,4",
                    "--seeded",
                    "--out",
                    store,
                    "--secret-out",
                    secret,
                    "--json"
                },
                params));
        assertEquals(0, kg.code(), kg.out());
        assertEquals(9, json(kg).get("rotationKeys").asInt());
        Run ins = run("inspect", store, "--json");
        assertEquals(0, ins.code(), ins.out());
        var ij = json(ins);
        assertEquals("key store", ij.get("kind").asText());
        assertTrue(ij.get("seeded").asBoolean() && ij.get("checksumOk").asBoolean());
        assertEquals(9, ij.get("galoisElements").size());
        Run lt = run(cat(
                new String[] {
                    "lt",
                    "--algo",
                    "th-bsgs",
                    "--n",
                    "64",
                    "--split",
                    "4,4,4",
                    "--keys",
                    store,
                    "--secret",
                    secret,
                    "--json"
                },
                params));
        assertEquals(0, lt.code(), lt.out());
        var lj = json(lt);
        assertEquals(9, lj.get("keyStore").get("keysLoaded").asInt());
        assertTrue(lj.get("precision").get("minBits").asDouble() > 18);
        // a plan that needs a key the store lacks is refused, naming it
        Run miss = run(cat(
                new String[] {
                    "lt", "--algo", "th-bsgs", "--n", "64", "--split", "2,4,8", "--keys", store, "--secret", secret
                },
                params));
        assertEquals(2, miss.code(), miss.out());
        assertTrue(miss.out().contains("has no key for rotation by"), miss.out());
        // other parameters: refused
        Run other = smallLt("61", "--n", "64", "--keys", store, "--secret", secret);
        assertEquals(2, other.code(), other.out());
        assertTrue(other.out().contains("other parameters"), other.out());
        // a corrupted store: one line, non-zero exit, from inspect and from lt
        byte[] b = Files.readAllBytes(dir.resolve("keys.hks"));
        b[b.length / 2] ^= 4;
        Files.write(dir.resolve("bad.hks"), b);
        Run bad = run("inspect", dir.resolve("bad.hks").toString());
        assertEquals(1, bad.code(), bad.out());
        assertTrue(bad.out().contains("damaged") && bad.out().strip().lines().count() == 1, bad.out());
        Run badLt = run(cat(
                new String[] {
                    "lt",
                    "--algo",
                    "th-bsgs",
                    "--n",
                    "64",
                    "--split",
                    "4,4,4",
                    "--keys",
                    dir.resolve("bad.hks").toString(),
                    "--secret",
                    secret
                },
                params));
        assertEquals(2, badLt.code(), badLt.out());
        assertTrue(badLt.out().startsWith("hoist: ") && badLt.out().contains("checksum"), badLt.out());
    }

    static String[] cat(String[] a, String[] b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void probedInputsGetOneLineErrorsAndNonZeroExits() {
        String[][] bad = {
            {"ntt", "--backend", "fpga-sim", "--sweep-limbs", "1..99999"},
            {"ntt", "--backend", "fpga-sim", "--sweep-limbs", ".."},
            {"ntt", "--logN", "1"},
            {"ntt", "--backend", "fpga-sim", "--mode", "nope", "--logN", "10"},
            {"lt", "--preset", "n13", "--n", "2147483647"},
            {"lt", "--preset", "n13", "--n", "5000"},
            {"lt", "--preset", "n13", "--n", "64", "--sparse", "5000"},
            {"lt", "--preset", "n13", "--n", "16", "--storage", "nope"},
            {"lt", "--preset", "n13", "--n", "16", "--logScale", "0"},
            {"lt", "--preset", "n13", "--n", "16", "--logSlots", "-1"},
            {"offload", "--op", "rotate", "--preset", "n13", "--runs", "0"},
            {"offload", "--op", "rotate", "--preset", "n13", "--cpu-backend", "fpga-sim"},
            {"ops", "--preset", "n13", "--logScale", "0"},
            {"lt", "--logN", "11", "--logQ", "50,40x100000", "--logP", "60", "--n", "16"},
            {"lt", "--logN", "11", "--logQ", "50,,40", "--logP", "60", "--n", "16"},
            {"lt", "--logN", "11", "--logQ", "50,40x0", "--logP", "60", "--n", "16"},
        };
        String[] expect = {
            "--sweep-limbs wants 1 ≤ a ≤ b ≤ 64",
            "--sweep-limbs wants a..b",
            "--logN must be in [10, 17]",
            "--mode must be streaming or mm",
            "--n must be in [1, 4096]",
            "--n must be in [1, 4096]",
            "--sparse must be in [1, 64]",
            "--storage must be precomputed or compact",
            "scale must be",
            "logSlots must be",
            "--runs must be in [1, 1000]",
            "--cpu-backend must be a CPU backend",
            "scale must be",
            "--logQ: '40x100000' gives more than 256 primes",
            "--logQ: '' is not a bit size",
            "--logQ: '40x0' gives no primes"
        };
        for (int i = 0; i < bad.length; i++) {
            long t0 = System.nanoTime();
            Run r = run(bad[i]);
            assertNotEquals(0, r.code(), String.join(" ", bad[i]) + ": " + r.out());
            assertTrue(r.out().contains(expect[i]), String.join(" ", bad[i]) + " → " + r.out());
            assertTrue(
                    r.out().strip().lines().count() <= 2 && !r.out().contains("\tat "),
                    "one line, no stack trace: " + r.out());
            assertTrue(System.nanoTime() - t0 < 20_000_000_000L, "refused quickly: " + String.join(" ", bad[i]));
        }
    }

    @Test
    void primeSizesTakeRepeatCounts() {
        assertArrayEquals(new int[] {60, 40, 40, 40, 39, 39, 56}, ParamsOptions.bitSizes("--logQ", "60,40x3,39×2, 56"));
        Run r = run("lt", "--logN", "11", "--logQ", "50,40x2", "--logP", "60X2", "--insecure", "--n", "16", "--json");
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("\"logN\":11"), r.out());
    }
}
