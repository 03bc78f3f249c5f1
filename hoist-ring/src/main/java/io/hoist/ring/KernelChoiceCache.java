package io.hoist.ring;

import io.hoist.ring.Kernel.Form;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The per-machine cache of a {@link KernelCalibration}: one small properties file per machine key.
 * The key hashes what decides which form is faster — the CPU's model and flags, the JVM's version,
 * its vector-relevant flags and preferred vector width, and the bytes of the kernel classes — so a
 * stale entry is never read, only left behind. Unreadable or malformed entries count as absent.
 */
final class KernelChoiceCache {
    private KernelChoiceCache() {}

    /** Bumped when the calibration's method changes in a way the class bytes do not show. */
    static final int FORMAT = 1;

    private static final List<Class<?>> KERNEL_CLASSES = List.of(
            ScalarLimbKernels.class,
            VectorLimbKernels.class,
            VectorDotKernels.class,
            ScalarNttBackend.class,
            VectorNttBackend.class,
            FmaNtt.class,
            FmaDotKernels.class,
            MulModKernels.class,
            TunedNttBackend.class,
            KernelCalibration.class);

    static Path directory() {
        String dir = System.getProperty("hoist.cache.dir");
        if (dir != null && !dir.isBlank()) return Path.of(dir);
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("hoist");
    }

    static Path file() {
        return directory().resolve("kernels-" + machineKey() + ".properties");
    }

    /** The cached choice for this machine, or null. */
    static KernelChoice read() {
        Path f = file();
        if (!Files.isRegularFile(f)) return null;
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
        EnumMap<Kernel, Form> forms = new EnumMap<>(Kernel.class);
        EnumMap<Kernel, Double> ratios = new EnumMap<>(Kernel.class), fmaRatios = new EnumMap<>(Kernel.class);
        EnumMap<Kernel, Double> fmaOverVector = new EnumMap<>(Kernel.class);
        for (Kernel k : Kernel.values()) {
            Form form = Form.byId(p.getProperty(k.id() + ".form", ""));
            if (form == null || !k.has(form)) return null;
            forms.put(k, form);
            try {
                String ratio = p.getProperty(k.id() + ".vectorOverScalar");
                if (ratio != null) ratios.put(k, Double.parseDouble(ratio));
                String fma = p.getProperty(k.id() + ".fmaOverScalar");
                if (fma != null && k.has(Form.FMA)) fmaRatios.put(k, Double.parseDouble(fma));
                String direct = p.getProperty(k.id() + ".fmaOverVector");
                if (direct != null && k.has(Form.FMA)) fmaOverVector.put(k, Double.parseDouble(direct));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return new KernelChoice(forms, ratios, fmaRatios, fmaOverVector, KernelChoice.Source.CACHED);
    }

    /** Writes the choice for this machine (atomically; a failure to write only costs a later calibration). */
    static void write(KernelChoice c) {
        Path f = file();
        try {
            Files.createDirectories(f.getParent());
            Path tmp = Files.createTempFile(f.getParent(), "kernels-", ".tmp");
            Properties p = new Properties();
            for (Kernel k : Kernel.values()) {
                p.setProperty(k.id() + ".form", c.form(k).id());
                Double r = c.vectorOverScalar().get(k.id());
                if (r != null) p.setProperty(k.id() + ".vectorOverScalar", Double.toString(r));
                Double rf = c.fmaOverScalar().get(k.id());
                if (rf != null) p.setProperty(k.id() + ".fmaOverScalar", Double.toString(rf));
                Double rd = c.fmaOverVector().get(k.id());
                if (rd != null) p.setProperty(k.id() + ".fmaOverVector", Double.toString(rd));
            }
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "Hoist kernel calibration for " + describeMachine());
            }
            try {
                Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | SecurityException e) {
            // a read-only home only means calibrating again next time
        }
    }

    private static volatile String key;

    /** 16 hex digits of SHA-256 over the machine description and the kernel classes' bytes. */
    static String machineKey() {
        String k = key;
        if (k != null) return k;
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(describeMachine().getBytes(StandardCharsets.UTF_8));
            md.update(Integer.toString(FORMAT).getBytes(StandardCharsets.UTF_8));
            for (Class<?> c : KERNEL_CLASSES) {
                String res = c.getName().replace('.', '/') + ".class";
                try (InputStream in = c.getClassLoader().getResourceAsStream(res)) {
                    if (in != null) md.update(in.readAllBytes());
                } catch (IOException e) {
                    md.update(res.getBytes(StandardCharsets.UTF_8));
                }
            }
            k = HexFormat.of().formatHex(md.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
        key = k;
        return k;
    }

    /** The CPU (model and flags from /proc/cpuinfo where there is one), the JVM and its vector flags. */
    static String describeMachine() {
        StringBuilder sb = new StringBuilder();
        sb.append(System.getProperty("os.arch"))
                .append(' ')
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cpus; ");
        sb.append(cpuInfo()).append("; ");
        sb.append(System.getProperty("java.vm.name"))
                .append(' ')
                .append(System.getProperty("java.vm.version"))
                .append("; ");
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.contains("AVX") || arg.contains("Vector") || arg.contains("SSE") || arg.startsWith("-XX:Use")) {
                sb.append(arg).append(' ');
            }
        }
        try {
            sb.append("lanes ").append(VectorNttBackend.L);
        } catch (LinkageError e) {
            sb.append("no vector api");
        }
        return sb.toString();
    }

    private static String cpuInfo() {
        String[] mf = modelAndFlags();
        return mf == null ? System.getProperty("os.name") : mf[0] + " [" + mf[1] + "]";
    }

    /** The CPU model and its vector flags among avx2, avx512f, avx512ifma, for reports next to timings. */
    static String vectorSummary() {
        String[] mf = modelAndFlags();
        if (mf == null) return System.getProperty("os.arch");
        String flags = " " + mf[1] + " ";
        StringBuilder have = new StringBuilder();
        for (String f : new String[] {"avx2", "avx512f", "avx512ifma"})
            if (flags.contains(" " + f + " "))
                have.append(have.isEmpty() ? "" : " ").append(f);
        return mf[0] + " [" + have + "]";
    }

    /** {model name, flags} from /proc/cpuinfo, or null where there is none. */
    private static String[] modelAndFlags() {
        Path p = Path.of("/proc/cpuinfo");
        if (!Files.isReadable(p)) return null;
        try (Stream<String> lines = Files.lines(p, StandardCharsets.UTF_8)) {
            String[] want = {"", ""};
            lines.forEach(l -> {
                if (want[0].isEmpty() && l.startsWith("model name"))
                    want[0] = l.substring(l.indexOf(':') + 1).trim();
                if (want[1].isEmpty() && (l.startsWith("flags") || l.startsWith("Features")))
                    want[1] = l.substring(l.indexOf(':') + 1).trim();
            });
            return want;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
