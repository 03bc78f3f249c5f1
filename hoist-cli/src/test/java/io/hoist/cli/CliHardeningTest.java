package io.hoist.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.cli.report.Json;
import io.hoist.testing.SpecialFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The probe's bad cases, each answered by exactly one "hoist:" line and a non-zero exit, quickly and without side effects. */
class CliHardeningTest {
    static final List<String> SUBCOMMANDS = List.of(
            "demo",
            "lt",
            "schedule",
            "ctos",
            "tradeoff",
            "keygen",
            "inspect",
            "ops",
            "ntt",
            "offload",
            "help"); // jmh is bench's own jar: BenchMainTest

    /** The one line a refused command prints, checked to be the only output. */
    static String oneLine(CliTest.Run r, String what) {
        assertNotEquals(0, r.code(), what + ": " + r.out());
        List<String> lines = r.out().strip().lines().toList();
        assertEquals(1, lines.size(), what + " prints one line: " + r.out());
        assertTrue(lines.get(0).startsWith("hoist: "), what + ": " + r.out());
        return lines.get(0);
    }

    static Stream<String> subcommands() {
        return SUBCOMMANDS.stream();
    }

    @ParameterizedTest
    @MethodSource("subcommands")
    void everySubcommandAnswersAnUnknownOptionWithOneLineAndAHint(String cmd) {
        String line = oneLine(CliTest.run(cmd, "--no-such-option"), cmd);
        assertTrue(line.contains("no-such-option"), line);
        assertTrue(line.endsWith("see ./hoist " + cmd + " --help"), line);
    }

    @ParameterizedTest
    @MethodSource("subcommands")
    void everySubcommandAnswersAMalformedNumberWithOneLine(String cmd) {
        String[] args = switch (cmd) {
            case "demo" -> new String[] {cmd, "--seed", "x"};
            case "inspect" -> new String[] {cmd, "--json", "--bogus=1"};
            case "help" -> new String[] {cmd, "lt", "extra", "--bogus"};
            case "ntt", "ops", "offload" -> new String[] {cmd, "--runs", "１０"};
            case "schedule" -> new String[] {cmd, "--onchip-mb", "1e999"};
            case "tradeoff" -> new String[] {cmd, "--word-bits", "9x"};
            default -> new String[] {cmd, "--threads", "two"};
        };
        oneLine(CliTest.run(args), String.join(" ", args));
    }

    @Test
    void keygenRefusesOneFileForBothKeysAndATargetThatIsNotARegularFile(@TempDir Path dir) throws Exception {
        Path same = dir.resolve("same.bin");
        String line = oneLine(
                CliTest.run(
                        "keygen",
                        "--logN",
                        "11",
                        "--logQ",
                        "40,30",
                        "--logP",
                        "45",
                        "--insecure",
                        "--n",
                        "16",
                        "--out",
                        same.toString(),
                        "--secret-out",
                        same.toString()),
                "same path");
        assertTrue(line.contains("would be the same file"), line);
        assertFalse(Files.exists(same), "nothing written");
        Path fifo = SpecialFiles.fifo(dir);
        if (fifo != null) {
            line = oneLine(
                    CliTest.run(
                            "keygen",
                            "--logN",
                            "11",
                            "--logQ",
                            "40,30",
                            "--logP",
                            "45",
                            "--insecure",
                            "--n",
                            "16",
                            "--out",
                            dir.resolve("k.hks").toString(),
                            "--secret-out",
                            fifo.toString()),
                    "FIFO target");
            assertTrue(line.contains("not a regular file"), line);
            assertFalse(Files.exists(dir.resolve("k.hks")));
        }
    }

    /**
     * A store from keygen serves lt on a sparse matrix of its dimension (lt follows the store's split; its own search
     * picked one whose keys the store lacked), and --objective, which would pick another split, is refused with it.
     */
    @Test
    void aKeygenStoreServesASparseMatrixAndRefusesAnotherObjective(@TempDir Path dir) throws Exception {
        String[] params = {"--logN", "11", "--logQ", "50,40", "--logP", "55", "--insecure", "--n", "64"};
        String store = dir.resolve("k.hks").toString(),
                secret = dir.resolve("k.hsk").toString();
        CliTest.Run made = CliTest.run(
                CliTest.cat(new String[] {"keygen", "--out", store, "--secret-out", secret, "--json"}, params));
        assertEquals(0, made.code(), made.out());
        CliTest.Run sparse = CliTest.run(CliTest.cat(
                new String[] {"lt", "--sparse", "5", "--keys", store, "--secret", secret, "--json"}, params));
        assertEquals(0, sparse.code(), sparse.out());
        String line = oneLine(
                CliTest.run(CliTest.cat(
                        new String[] {"lt", "--objective", "fewest-mults", "--keys", store, "--secret", secret},
                        params)),
                "--objective with --keys");
        assertTrue(line.contains("--objective"), line);
    }

    @Test
    void ltRefusesAStoreAndASecretOfTwoPairsAndInputsThatAreNotRegularFiles(@TempDir Path dir) throws Exception {
        String[] params = {"--logN", "11", "--logQ", "50,40,40", "--logP", "60", "--insecure", "--n", "16"};
        for (String k : new String[] {"a", "b"}) {
            CliTest.Run r = CliTest.run(CliTest.cat(
                    new String[] {
                        "keygen",
                        "--out",
                        dir.resolve(k + ".hks").toString(),
                        "--secret-out",
                        dir.resolve(k + ".hsk").toString(),
                        "--json"
                    },
                    params));
            assertEquals(0, r.code(), r.out());
            assertTrue(r.out().contains("\"keyPairId\":\""), r.out());
        }
        String line = oneLine(
                CliTest.run(CliTest.cat(
                        new String[] {
                            "lt",
                            "--keys",
                            dir.resolve("a.hks").toString(),
                            "--secret",
                            dir.resolve("b.hsk").toString()
                        },
                        params)),
                "mismatch");
        assertTrue(
                line.contains("were not written as one pair") && line.contains("a.hks") && line.contains("b.hsk"),
                line);
        CliTest.Run ok = CliTest.run(CliTest.cat(
                new String[] {
                    "lt",
                    "--keys",
                    dir.resolve("a.hks").toString(),
                    "--secret",
                    dir.resolve("a.hsk").toString(),
                    "--json"
                },
                params));
        assertEquals(0, ok.code(), ok.out());
        Path fifo = SpecialFiles.fifo(dir);
        List<String[]> inputs = new ArrayList<>();
        inputs.add(new String[] {"lt", "--keys", dir.resolve("a.hks").toString(), "--secret", "/dev/zero"});
        inputs.add(new String[] {
            "lt", "--keys", dir.toString(), "--secret", dir.resolve("a.hsk").toString()
        });
        if (fifo != null) {
            inputs.add(new String[] {
                "lt",
                "--keys",
                fifo.toString(),
                "--secret",
                dir.resolve("a.hsk").toString()
            });
            inputs.add(new String[] {"lt", "--keys", dir.resolve("a.hks").toString(), "--secret", fifo.toString()});
            inputs.add(new String[] {"inspect", fifo.toString()});
        }
        for (String[] in : inputs) {
            String[] args = in[0].equals("inspect") ? in : CliTest.cat(in, params);
            long t0 = System.nanoTime();
            line = oneLine(CliTest.run(args), String.join(" ", args));
            assertTrue(line.contains("not a regular file") || line.contains("is a directory"), line);
            assertTrue(System.nanoTime() - t0 < 1_000_000_000L, "refused by type in under a second: " + line);
        }
    }

    @Test
    void oversizedRunsAreRefusedBeforeTheirFirstLargeAllocation() {
        for (String[] extra : new String[][] {{}, {"--storage", "compact"}, {"--schedule", "phased"}}) {
            long t0 = System.nanoTime();
            String line = oneLine(
                    CliTest.run(CliTest.cat(new String[] {"lt", "--preset", "n16", "--n", "32768"}, extra)),
                    "n16 32768");
            assertTrue(line.contains("needs about") && line.contains("HOIST_JVM_OPTS=-Xmx"), line);
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "refused in under 5 s");
        }
        String line = oneLine(
                CliTest.run("lt", "--preset", "n13", "--rows", "2147483647", "--block", "64"), "overflowing shape");
        assertTrue(line.contains("1125899906842624 blocks"), line);
        line = oneLine(CliTest.run("lt", "--preset", "n13", "--rows", "2147483647"), "huge shape, default block");
        assertTrue(line.contains("blocks"), line);
        line = oneLine(CliTest.run("lt", "--preset", "n13", "--rows", "1000000", "--cols", "1000000"), "large shape");
        assertTrue(line.contains("needs about"), line);
    }

    @Test
    void countsAreBoundedAndCompanionlessOptionsRefused() {
        String[][] bad = {
            {"ops", "--runs", "100000000"},
            {"ops", "--warmup", "100000"},
            {"ntt", "--warmup", "100000"},
            {"lt", "--runs", "1001"},
            {"lt", "--preset", "n13", "--n", "64", "--onchip-mb", "5"},
            {"ctos", "--key-budget", "5"},
            {"ctos", "--stoc-depth", "2"},
            {"ctos", "--sweep-run-depths", "1..2"},
            {"tradeoff", "--measure-n", "64"},
            {"schedule", "--goal", "latency"},
            {"offload", "--op", "rotate", "--n", "16"},
            {"ntt", "--mode", "mm", "--backend", "cpu-scalar"},
            {"lt", "--preset", "n13", "--n", "１２"},
            {"lt", "--logN", "13", "--logQ", "0", "--logP", "60"},
            {"lt", "--logN", "13", "--logQ", "20x100", "--logP", "60", "--insecure"},
        };
        String[] expect = {
            "--runs must be in [1, 1000]",
            "--warmup must be in [0, 1000]",
            "--warmup must be in [0, 60] seconds",
            "--runs must be in [1, 1000]",
            "--onchip-mb needs --schedule phased",
            "--key-budget goes with --objective budget",
            "--stoc-depth goes with --stoc",
            "--sweep-run-depths goes with --sweep",
            "--measure-n goes with --measure",
            "--goal goes with --search",
            "--n goes with --op lt",
            "--mode goes with --backend fpga-sim",
            "'１２' is not an integer (ASCII digits)",
            "0-bit primes cannot serve N = 2^13",
            "ask for 100 distinct primes of 20 bits, but only 5"
        };
        for (int i = 0; i < bad.length; i++) {
            String line = oneLine(CliTest.run(bad[i]), String.join(" ", bad[i]));
            assertTrue(line.contains(expect[i]), String.join(" ", bad[i]) + " → " + line);
        }
    }

    @Test
    void aPaddedDimensionIsAnnounced() {
        CliTest.Run r = CliTest.run(
                "lt", "--logN", "11", "--logQ", "50,40,40", "--logP", "60", "--insecure", "--n", "3", "--json");
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("\"n\":4") && r.out().contains("\"paddedFrom\":3"), r.out());
        CliTest.Run exact = CliTest.run(
                "lt", "--logN", "11", "--logQ", "50,40,40", "--logP", "60", "--insecure", "--n", "4", "--json");
        assertFalse(exact.out().contains("paddedFrom"), exact.out());
    }

    /** The review of the forty-eighth session: each of these was accepted, ignored, leaked an exception or misread. */
    @Test
    void optionsThatWereIgnoredOrLeakedAreRefusedWithOneLine(@TempDir Path dir) {
        String dirTarget = dir.toString();
        String[][] bad = {
            {"lt", "--runs", "99999999999"},
            {"tradeoff", "--logN", ",", "--n", "16", "--levels", "3", "--alpha", "1"},
            {"tradeoff", "--logN", "10", "--n", "16", "--levels", "3", "--alpha", "1", "--algo", ","},
            {"tradeoff", "--logN", "10", "--n", "١٦", "--levels", "3", "--alpha", "1"},
            {"lt", "--preset", "n13", "--n", "64", "--block", "3"},
            {"lt", "--preset", "n13", "--n", "64", "--objective", "fewest-mults", "--split", "4,4,4"},
            {"schedule", "--table2", "--logQ", "60,40", "--logP", "61"},
            {"schedule", "--preset", "n13", "--n", "64", "--onchip-mb", "1e30"},
            {"schedule", "--preset", "n13", "--n", "64", "--search", "--split", "4,4,4"},
            {
                "bfv",
                "--preset",
                "seal8192",
                "params",
                "--out",
                dir.resolve("p.seal").toString()
            },
            {"bfv", "params", "--out", dirTarget},
            {"ntt", "--logN", "10", "--backend", "fpga-sim", "--sweep-limbs", "1..2", "--limbs", "5"},
            {"ntt", "--logN", "10", "--backend", "fpga-sim", "--sweep-limbs", "1..2", "--plot", "x.pdf"},
            {"ops", "--logN", "10", "--logQ", "45,35", "--logP", "45", "--insecure", "--logSlots", "3"},
            {"demo", "--threads", "0"},
        };
        String[] expect = {
            "out of range",
            "--logN names no ring degree",
            "--algo names no algorithm",
            "--n",
            "--block goes with --rows or --cols",
            "--objective goes with no --split",
            "--table2 or parameters (--logQ)",
            "--onchip-mb must be in",
            "give --split or --search",
            "--preset before 'params'",
            "",
            "--limbs goes with a timed run",
            "plots are written as .svg or .png",
            "needs more than 8 slots",
            "--threads",
        };
        for (int i = 0; i < bad.length; i++) {
            String line = oneLine(CliTest.run(bad[i]), String.join(" ", bad[i]));
            assertTrue(line.contains(expect[i]), String.join(" ", bad[i]) + " → " + line);
        }
        try (var files = Files.list(dir)) {
            assertEquals(
                    List.of(),
                    files.filter(f -> f.getFileName().toString().endsWith(".tmp"))
                            .toList(),
                    "no temporary file is left behind");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aSweepsJsonIsJsonAndNonFiniteNumbersAreNull() {
        CliTest.Run r = CliTest.run("ntt", "--logN", "10", "--backend", "fpga-sim", "--sweep-limbs", "1..2", "--json");
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().strip().startsWith("{") && r.out().contains("\"points\":[{\"limbs\":1"), r.out());
        assertEquals("{\"a\":null}", Json.write(Map.of("a", Double.NaN)));
        assertEquals("[null,1.5]", Json.write(new double[] {Double.POSITIVE_INFINITY, 1.5}));
        assertEquals("{\"x\":null,\"y\":2.0}", Json.write(new Pair(Double.NEGATIVE_INFINITY, 2.0)));
    }

    record Pair(double x, Double y) {}

    /** keygen plans the padded dimension, as lt does: a key store for --n 3 serves lt --n 3. */
    @Test
    void keygenForAPaddedDimensionServesLt(@TempDir Path dir) {
        String store = dir.resolve("k.hks").toString(),
                secret = dir.resolve("k.hsk").toString();
        String[] ring = {"--logN", "11", "--logQ", "50,40,40", "--logP", "60", "--insecure", "--n", "3"};
        CliTest.Run k = CliTest.run(
                concat(new String[] {"keygen"}, ring, new String[] {"--out", store, "--secret-out", secret}));
        assertEquals(0, k.code(), k.out());
        CliTest.Run r = CliTest.run(
                concat(new String[] {"lt"}, ring, new String[] {"--keys", store, "--secret", secret, "--json"}));
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("\"paddedFrom\":3"), r.out());
    }

    private static String[] concat(String[]... parts) {
        List<String> all = new ArrayList<>();
        for (String[] p : parts) all.addAll(List.of(p));
        return all.toArray(String[]::new);
    }

    /** A bootstrapping sweep whose every point fails says so: null figures, not zeros, and a non-zero exit. */
    @Test
    void aSweepOfFailedPointsIsNotASuccess() {
        CliTest.Run r = CliTest.run(
                "bootstrap",
                "--logN",
                "10",
                "--logSlots",
                "3",
                "--sweep",
                "--sweep-depths",
                "1..1",
                "--sweep-count-only",
                "--objective",
                "budget",
                "--key-budget",
                "1",
                "--json");
        assertNotEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("\"galoisKeys\":null") && !r.out().contains("\"outputLevel\":-1"), r.out());
    }
}
