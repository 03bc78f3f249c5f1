package io.hoist.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No package of the project depends on another that depends back on it, and the modules' main code
 * keeps the layering of docs/architecture.md. The graph is read from the main sources' imports:
 * Error Prone's UnnecessarilyFullyQualified (an error in this build) leaves no inline qualified
 * names, so the imports are every cross-package reference.
 */
class PackageCyclesTest {
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern IMPORT =
            Pattern.compile("^import (?:static )?((?:io\\.hoist)(?:\\.[a-z]\\w*)*)\\.[A-Z]", Pattern.MULTILINE);

    static Map<String, Set<String>> graph() throws IOException {
        Map<String, Set<String>> edges = new TreeMap<>();
        try (Stream<Path> files = Files.walk(Path.of(".."))) {
            for (Path f : files.filter(
                            p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
                    .toList()) {
                String s = Files.readString(f);
                Matcher pm = PACKAGE.matcher(s);
                if (!pm.find()) continue;
                String pkg = pm.group(1);
                Set<String> out = edges.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher im = IMPORT.matcher(s);
                while (im.find()) if (!im.group(1).equals(pkg)) out.add(im.group(1));
            }
        }
        return edges;
    }

    /** The strongly connected components with more than one package (Tarjan). */
    static List<Set<String>> cycles(Map<String, Set<String>> g) {
        Map<String, Integer> index = new HashMap<>(), low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> out = new ArrayList<>();
        int[] next = {0};
        for (String v : g.keySet()) if (!index.containsKey(v)) strong(v, g, index, low, stack, onStack, out, next);
        return out;
    }

    private static void strong(
            String v,
            Map<String, Set<String>> g,
            Map<String, Integer> index,
            Map<String, Integer> low,
            Deque<String> stack,
            Set<String> onStack,
            List<Set<String>> out,
            int[] next) {
        index.put(v, next[0]);
        low.put(v, next[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : g.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                strong(w, g, index, low, stack, onStack, out, next);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> c = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                c.add(w);
            } while (!w.equals(v));
            if (c.size() > 1) out.add(c);
        }
    }

    @Test
    void noPackageCycleAndTheLayersPointDown() throws IOException {
        Map<String, Set<String>> g = graph();
        assertTrue(
                g.containsKey("io.hoist.lt") && g.containsKey("io.hoist.ring"),
                "the sources were found: " + g.keySet());
        assertEquals(List.of(), cycles(g), "package cycles");
        for (String low : List.of("io.hoist.math", "io.hoist.ring", "io.hoist.ckks", "io.hoist.ckks.io")) {
            for (String dep : g.getOrDefault(low, Set.of())) {
                assertTrue(
                        !dep.startsWith("io.hoist.lt")
                                && !dep.startsWith("io.hoist.keygen")
                                && !dep.startsWith("io.hoist.cli"),
                        low + " -> " + dep);
            }
        }
        // the polynomial evaluator is a client of the CKKS evaluator only; nothing below bootstrapping knows it
        for (String dep : g.getOrDefault("io.hoist.ckks.poly", Set.of()))
            assertTrue(dep.equals("io.hoist.ckks") || dep.equals("io.hoist.ring"), "io.hoist.ckks.poly -> " + dep);
        for (String pkg : g.keySet()) {
            if (pkg.startsWith("io.hoist.bootstrap") || pkg.startsWith("io.hoist.cli")) continue;
            assertTrue(
                    g.get(pkg).stream().noneMatch(d -> d.startsWith("io.hoist.bootstrap")),
                    "only the CLI uses bootstrapping: " + pkg);
        }
        // the ring layer (module hoist-ring) knows no scheme; the BFV client (module bfv) knows no CKKS
        for (String ring : List.of("io.hoist", "io.hoist.math", "io.hoist.ring", "io.hoist.random"))
            for (String dep : g.getOrDefault(ring, Set.of()))
                assertTrue(!dep.startsWith("io.hoist.ckks") && !dep.startsWith("io.hoist.bfv"), ring + " -> " + dep);
        for (String bfv : g.keySet()) {
            if (!bfv.startsWith("io.hoist.bfv")) continue;
            for (String dep : g.get(bfv))
                assertTrue(
                        dep.startsWith("io.hoist.bfv")
                                || List.of("io.hoist", "io.hoist.math", "io.hoist.ring", "io.hoist.random")
                                        .contains(dep),
                        "the BFV client uses the ring layer only: " + bfv + " -> " + dep);
        }
        for (String lt : g.keySet()) {
            if (lt.startsWith("io.hoist.lt"))
                assertTrue(
                        g.get(lt).stream().noneMatch(d -> d.startsWith("io.hoist.keygen")),
                        "lt-bsgs main code uses no key generator: " + lt);
        }
        // the rooms of lt-bsgs: plan below schedule below exec below the user-facing package
        Map<String, List<String>> forbidden = Map.of(
                "io.hoist.lt.plan", List.of("io.hoist.lt.schedule", "io.hoist.lt.exec", "io.hoist.lt"),
                "io.hoist.lt.schedule", List.of("io.hoist.lt.exec", "io.hoist.lt"),
                "io.hoist.lt.exec", List.of("io.hoist.lt", "io.hoist.lt.io", "io.hoist.lt.planning"));
        // the CLI's: commands over report over run over options
        forbidden = new HashMap<>(forbidden);
        forbidden.put("io.hoist.cli.options", List.of("io.hoist.cli", "io.hoist.cli.run", "io.hoist.cli.report"));
        forbidden.put("io.hoist.cli.run", List.of("io.hoist.cli", "io.hoist.cli.report"));
        forbidden.put("io.hoist.cli.report", List.of("io.hoist.cli"));
        forbidden.forEach((from, tos) -> {
            for (String to : tos)
                assertTrue(!g.getOrDefault(from, Set.of()).contains(to), from + " must not depend on " + to);
        });
        for (var e : g.entrySet()) {
            boolean engineSide = e.getKey().equals("io.hoist.lt")
                    || e.getKey().startsWith("io.hoist.lt.exec")
                    || e.getKey().equals("io.hoist.lt.io");
            assertTrue(
                    engineSide || !e.getValue().contains("io.hoist.lt.exec"),
                    e.getKey() + " reaches into the engine's internal package io.hoist.lt.exec");
        }
        assertTrue(
                g.get("io.hoist.spark").stream()
                        .noneMatch(d -> d.startsWith("io.hoist.cli") || d.startsWith("io.hoist.bench")),
                "the Spark library needs no CLI");
    }

    @Test
    void everyTypedExceptionIsAHoistException() throws IOException {
        Pattern ext = Pattern.compile("class (\\w+Exception) extends (\\w+)");
        Map<String, String> parent = new TreeMap<>();
        try (Stream<Path> files = Files.walk(Path.of(".."))) {
            for (Path f : files.filter(p -> p.toString().endsWith("Exception.java")
                            && p.toString().contains("/src/main/java/"))
                    .toList()) {
                Matcher m = ext.matcher(Files.readString(f));
                if (m.find()) parent.put(m.group(1), m.group(2));
            }
        }
        assertTrue(parent.size() >= 15, "exceptions found: " + parent);
        for (String e : parent.keySet()) {
            String p = e;
            while (parent.containsKey(p)) p = parent.get(p);
            assertEquals("IllegalArgumentException", p, e + " reaches " + p);
            assertTrue(
                    e.equals("HoistException") || reaches(parent, e, "HoistException"),
                    e + " is not under HoistException");
        }
    }

    private static boolean reaches(Map<String, String> parent, String from, String to) {
        for (String p = parent.get(from); p != null; p = parent.get(p)) if (p.equals(to)) return true;
        return false;
    }

    /** Guava stays inside: no public method, constructor or record component of the libraries names one of its types. */
    @Test
    void publicSignaturesUseJdkTypesOnly() throws Exception {
        List<String> bad = new ArrayList<>();
        int classes = 0;
        try (Stream<Path> files = Files.walk(Path.of(".."))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")
                            && p.toString().contains("/src/main/java/")
                            && !p.toString().contains("/hoist-spark/")
                            && !p.toString().contains("/bench/")
                            && !p.toString().contains("/hoist-cli/")
                            && !p.toString().contains("/test-fixtures/"))
                    .toList()) {
                String s = Files.readString(f);
                Matcher pm = PACKAGE.matcher(s);
                if (!pm.find()) continue;
                Class<?> c = Class.forName(
                        pm.group(1) + "." + f.getFileName().toString().replace(".java", ""));
                if (!Modifier.isPublic(c.getModifiers())) continue;
                Deque<Class<?>> todo = new ArrayDeque<>(List.of(c)); // the class and its public member types
                while (!todo.isEmpty()) {
                    Class<?> k0 = todo.pop();
                    classes++;
                    for (var m : k0.getDeclaredMethods()) {
                        if (Modifier.isPublic(m.getModifiers())
                                && m.toGenericString().contains("com.google.common")) bad.add(m.toGenericString());
                    }
                    for (var k : k0.getDeclaredConstructors()) {
                        if (Modifier.isPublic(k.getModifiers())
                                && k.toGenericString().contains("com.google.common")) bad.add(k.toGenericString());
                    }
                    for (Class<?> inner : k0.getDeclaredClasses())
                        if (Modifier.isPublic(inner.getModifiers())) todo.push(inner);
                }
            }
        }
        assertTrue(classes > 50, "public classes found: " + classes);
        assertEquals(List.of(), bad, "public signatures with Guava types");
    }

    @Test
    void aCycleIsFound() {
        assertEquals(List.of(Set.of("a", "b")), cycles(Map.of("a", Set.of("b"), "b", Set.of("a", "c"), "c", Set.of())));
    }
}
