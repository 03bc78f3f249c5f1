package io.hoist.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.CkksParameters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The launcher's {@code ring_log_n} (which gives {@code ops} its young generation) against the presets themselves: it
 * keeps its own table of their ring degrees, so a preset added or changed in Java must be added there too.
 */
class LauncherTest {
    private static final Path LAUNCHER = Path.of("..", "hoist");

    /** What {@code ring_log_n} prints for {@code args}, run by bash from the launcher's own definition. */
    private static String ringLogN(String... args) throws IOException, InterruptedException {
        String script = "set -euo pipefail; eval \"$(sed -n '/^ring_log_n()/,/^}/p' \"$0\")\"; ring_log_n \"$@\"";
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", script, LAUNCHER.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    @Test
    void ringDegreeOfEveryPresetMatchesTheParameters() throws Exception {
        assertTrue(Files.isRegularFile(LAUNCHER), "no launcher at " + LAUNCHER.toAbsolutePath());
        for (String name : CkksParameters.presetNames()) {
            String logN = String.valueOf(CkksParameters.preset(name).logN());
            assertEquals(logN, ringLogN("ops", "--preset", name), name);
            assertEquals(logN, ringLogN("ops", "--json", "--preset=" + name.toUpperCase(Locale.ROOT)), name);
        }
    }

    @Test
    void ringDegreeFromLogNAndNothingWithoutEither() throws Exception {
        assertEquals("16", ringLogN("ops", "--logN", "16", "--logQ", "60", "--logP", "61"));
        assertEquals("17", ringLogN("ops", "--logN=+017"));
        assertEquals("", ringLogN("ops", "--json"));
        assertEquals("", ringLogN("ops", "--preset"));
    }
}
