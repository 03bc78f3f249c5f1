package io.hoist.bench;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BenchMainTest {
    @Test
    void aBadJmhOptionIsOneHoistLine() {
        for (String[] bad : new String[][] {{"--no-such-option"}, {"-f", "x"}, {"-wi", "-3x"}}) {
            String line = BenchMain.refusal(bad);
            assertTrue(
                    line != null
                            && line.startsWith("hoist: jmh: ")
                            && line.lines().count() == 1,
                    String.join(" ", bad) + " → " + line);
        }
        assertNull(BenchMain.refusal("NttBenchmark", "-p", "logN=12", "-f", "1"));
    }
}
