package io.hoist.ring;

import com.google.errorprone.annotations.Immutable;
import io.hoist.ring.Kernel.Form;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Which form of each {@link Kernel} runs on this machine, and why. The machine's choice is measured
 * once by a short calibration (both forms timed side by side, outputs checked bit for bit), cached
 * per machine and JVM, and can be overridden with {@code -Dhoist.kernels}:
 *
 * <ul>
 *   <li>{@code auto} (the default): the cached calibration, or a new one;
 *   <li>{@code recalibrate}: a new calibration, written over the cache;
 *   <li>{@code scalar} or {@code vector}: every kernel in that form ({@code fma} is a form of the NTTs,
 *       dot2 and mulMod only: {@code ntt.forward=fma}, {@code dot2=fma}, {@code mulMod=fma});
 *   <li>a list such as {@code vector,mulShoup=scalar} or {@code dot2=scalar}: a leading form sets
 *       every kernel, {@code kernel=form} items then override single kernels; without a leading form
 *       the items apply on top of the calibrated choice.
 * </ul>
 *
 * <p>The cache lives in {@code hoist.cache.dir} (default {@code ~/.cache/hoist}); its key covers the
 * CPU's model and flags, the JVM and its vector flags, and the bytes of the kernel classes, so a
 * new machine, JVM or kernel version calibrates again.
 */
@Immutable
public final class KernelChoice {
    /** Where a choice came from. */
    public enum Source {
        CALIBRATED,
        CACHED,
        OVERRIDE,
        /** The Vector API is not in this JVM (or unusable): everything scalar. */
        NO_VECTOR_API;

        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    @SuppressWarnings("Immutable") // private, copied in, never handed out
    private final EnumMap<Kernel, Form> forms;

    @SuppressWarnings("Immutable") // private, copied in, never handed out
    private final EnumMap<Kernel, Double> ratios;

    @SuppressWarnings("Immutable") // private, copied in, never handed out
    private final EnumMap<Kernel, Double> fmaRatios;

    @SuppressWarnings("Immutable") // private, copied in, never handed out
    private final EnumMap<Kernel, Double> fmaOverVector;

    private final Source source;

    KernelChoice(
            Map<Kernel, Form> forms,
            Map<Kernel, Double> ratios,
            Map<Kernel, Double> fmaRatios,
            Map<Kernel, Double> fmaOverVector,
            Source source) {
        this.forms = new EnumMap<>(Kernel.class);
        for (Kernel k : Kernel.values()) {
            Form f = forms.get(k);
            if (f == null) throw new InvalidKernelChoiceException("no form given for kernel " + k.id());
            if (!k.has(f)) throw new InvalidKernelChoiceException("kernel " + k.id() + " has no " + f.id() + " form");
            this.forms.put(k, f);
        }
        this.ratios = ratios.isEmpty() ? new EnumMap<>(Kernel.class) : new EnumMap<>(ratios);
        this.fmaRatios = fmaRatios.isEmpty() ? new EnumMap<>(Kernel.class) : new EnumMap<>(fmaRatios);
        this.fmaOverVector = fmaOverVector.isEmpty() ? new EnumMap<>(Kernel.class) : new EnumMap<>(fmaOverVector);
        this.source = source;
    }

    KernelChoice(Map<Kernel, Form> forms, Map<Kernel, Double> ratios, Map<Kernel, Double> fmaRatios, Source source) {
        this(forms, ratios, fmaRatios, Map.of(), source);
    }

    KernelChoice(Map<Kernel, Form> forms, Map<Kernel, Double> ratios, Source source) {
        this(forms, ratios, Map.of(), source);
    }

    /** Every kernel in form {@code f}. */
    public static KernelChoice all(Form f, Source source) {
        EnumMap<Kernel, Form> m = new EnumMap<>(Kernel.class);
        for (Kernel k : Kernel.values()) m.put(k, f);
        return new KernelChoice(m, Map.of(), source);
    }

    /** The form of kernel {@code k}. */
    public Form form(Kernel k) {
        return forms.get(k);
    }

    public Source source() {
        return source;
    }

    /** Kernel id → form id, in {@link Kernel} order. */
    public Map<String, String> forms() {
        Map<String, String> m = new LinkedHashMap<>();
        forms.forEach((k, f) -> m.put(k.id(), f.id()));
        return Collections.unmodifiableMap(m);
    }

    /**
     * Kernel id → vector time over scalar time as the calibration measured it (below 1: the vector
     * form is faster); empty when the choice was not measured in this process or its cache.
     */
    public Map<String, Double> vectorOverScalar() {
        Map<String, Double> m = new LinkedHashMap<>();
        ratios.forEach((k, r) -> m.put(k.id(), r));
        return Collections.unmodifiableMap(m);
    }

    /** As {@link #vectorOverScalar()}, for the FMA form of the kernels that have one. */
    public Map<String, Double> fmaOverScalar() {
        Map<String, Double> m = new LinkedHashMap<>();
        fmaRatios.forEach((k, r) -> m.put(k.id(), r));
        return Collections.unmodifiableMap(m);
    }

    /**
     * Kernel id → the FMA form's time over the vector form's, timed side by side, for the kernels whose
     * two forms both beat scalar: the measurement that chose between them.
     */
    public Map<String, Double> fmaOverVector() {
        Map<String, Double> m = new LinkedHashMap<>();
        fmaOverVector.forEach((k, r) -> m.put(k.id(), r));
        return Collections.unmodifiableMap(m);
    }

    /** This choice with the items of an override list applied (see the class comment). */
    KernelChoice with(String spec) {
        EnumMap<Kernel, Form> m = new EnumMap<>(forms);
        String[] items = spec.split(",", -1);
        for (int i = 0; i < items.length; i++) {
            String item = items[i].trim();
            if (item.isEmpty()) throw new InvalidKernelChoiceException("empty item in hoist.kernels='" + spec + "'");
            int eq = item.indexOf('=');
            if (eq < 0) {
                Form f = Form.byId(item);
                if (f == null || f == Form.FMA || i > 0) {
                    throw new InvalidKernelChoiceException("hoist.kernels='" + spec + "': '" + item
                            + "' is not a leading form (scalar, vector) or a kernel=form item (fma: ntt.forward=fma,"
                            + " ntt.inverse=fma, dot2=fma, mulMod=fma); kernels: " + ids());
                }
                for (Kernel k : Kernel.values()) m.put(k, f);
                continue;
            }
            Kernel k = Kernel.byId(item.substring(0, eq));
            if (k == null) {
                throw new InvalidKernelChoiceException("hoist.kernels='" + spec + "': unknown kernel '"
                        + item.substring(0, eq).trim() + "'; kernels: " + ids());
            }
            Form f = Form.byId(item.substring(eq + 1));
            if (f == null || !k.has(f)) {
                throw new InvalidKernelChoiceException("hoist.kernels='" + spec + "': unknown form '"
                        + item.substring(eq + 1).trim() + "' for " + k.id() + "; forms: scalar, vector"
                        + (k.has(Form.FMA) ? ", fma" : ""));
            }
            m.put(k, f);
        }
        return new KernelChoice(m, Map.of(), Source.OVERRIDE);
    }

    /** Whether an override list sets every kernel itself (a leading form), so no calibration is needed. */
    static boolean setsAll(String spec) {
        String first = spec.split(",", 2)[0].trim();
        Form f = first.contains("=") ? null : Form.byId(first);
        return f != null && f != Form.FMA;
    }

    private static String ids() {
        return Arrays.stream(Kernel.values()).map(Kernel::id).collect(Collectors.joining(", "));
    }

    /** One line for human reports: the kernels per form and the source. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        for (Form f : Form.values()) {
            String ks = forms.entrySet().stream()
                    .filter(e -> e.getValue() == f)
                    .map(e -> e.getKey().id())
                    .collect(Collectors.joining(" "));
            if (ks.isEmpty()) continue;
            if (sb.length() > 0) sb.append(" · ");
            sb.append(f.id()).append(": ").append(ks);
        }
        return sb.append(" (").append(source.id()).append(')').toString();
    }

    /**
     * Whether {@link #machine()} will calibrate (about 6 s): the setting is {@code auto} or absent, the
     * Vector API is usable and this machine has no cached choice. For a front end's progress line.
     */
    public static boolean calibrationPending() {
        String spec = System.getProperty("hoist.kernels", "auto").trim();
        if (!spec.isEmpty() && !spec.equalsIgnoreCase("auto") && !spec.equalsIgnoreCase("recalibrate")) {
            return !setsAll(spec) && KernelCalibration.vectorUsable() && KernelChoiceCache.read() == null;
        }
        return KernelCalibration.vectorUsable()
                && (spec.equalsIgnoreCase("recalibrate") || KernelChoiceCache.read() == null);
    }

    /** This CPU's model and vector flags (avx2, avx512f, avx512ifma), to print next to every timing. */
    public static String cpu() {
        return KernelChoiceCache.vectorSummary();
    }

    /** The machine's choice: see the class comment. Computed once per JVM. */
    public static KernelChoice machine() {
        return MachineHolder.CHOICE;
    }

    private static final class MachineHolder {
        static final KernelChoice CHOICE = KernelCalibration.machineChoice(System.getProperty("hoist.kernels", "auto"));
    }

    @Override
    public String toString() {
        return summary();
    }
}
