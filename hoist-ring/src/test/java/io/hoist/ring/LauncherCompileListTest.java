package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every class of this package on the Vector API is in the launcher's list of classes that reach C2 after a tenth
 * of the usual calls: one left out (MulModKernels, fortieth session) ran boxed into the first bootstrap, where its
 * lanes allocated 0.8 GB and C2 compiled it 4 s after the warm-up had ended.
 */
class LauncherCompileListTest {
    private static final Path LAUNCHER = Path.of("..", "hoist");
    private static final Path SOURCES = Path.of("src", "main", "java", "io", "hoist", "ring");

    @Test
    void everyVectorClassReachesC2Early() throws IOException {
        String launcher = Files.readString(LAUNCHER);
        Matcher list = Pattern.compile("for c in ([^;]*); do\\s*\\n\\s*JVM_FLAGS\\+=\\(\"-XX:CompileCommand="
                        + "CompileThresholdScaling")
                .matcher(launcher);
        assertTrue(list.find(), "the launcher's CompileThresholdScaling loop");
        List<Pattern> globs = new ArrayList<>();
        for (String g : list.group(1).replace("\\\n", " ").trim().split("\\s+")) {
            String glob = g.replace("'", "");
            globs.add(Pattern.compile(Pattern.quote(glob).replace("*", "\\E.*\\Q")));
        }
        List<String> vectorClasses = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                if (Files.readString(f).contains("import jdk.incubator.vector.")) {
                    String name = f.getFileName().toString();
                    vectorClasses.add("io.hoist.ring." + name.substring(0, name.length() - ".java".length()));
                }
            }
        }
        assertFalse(vectorClasses.isEmpty(), "no vector classes found under " + SOURCES.toAbsolutePath());
        for (String c : vectorClasses)
            assertTrue(globs.stream().anyMatch(g -> g.matcher(c).matches()), c + " is not in the launcher's list");
    }
}
