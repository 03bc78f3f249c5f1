package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import io.hoist.ring.Kernel.Form;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The per-machine kernel choice: overrides, the cache, the calibration, and tuned kernels bit-identical to scalar. */
class KernelChoiceTest {

    private static KernelChoice base(Form f) {
        return KernelChoice.all(f, KernelChoice.Source.CALIBRATED);
    }

    @Test
    void overridesSetAllThenSingleKernels() {
        KernelChoice c = base(Form.SCALAR).with("vector,mulShoup=scalar,ntt.inverse=SCALAR");
        assertEquals(KernelChoice.Source.OVERRIDE, c.source());
        assertEquals(Form.VECTOR, c.form(Kernel.DOT2));
        assertEquals(Form.SCALAR, c.form(Kernel.MUL_SHOUP));
        assertEquals(Form.SCALAR, c.form(Kernel.NTT_INVERSE));
        assertEquals(Form.VECTOR, c.form(Kernel.NTT_FORWARD));
        // without a leading form the items apply on top of the base
        KernelChoice d = base(Form.VECTOR).with("dot2=scalar");
        assertEquals(Form.SCALAR, d.form(Kernel.DOT2));
        assertEquals(Form.VECTOR, d.form(Kernel.SUM_SHOUP));
        assertTrue(KernelChoice.setsAll("scalar,dot2=vector"));
        assertTrue(!KernelChoice.setsAll("dot2=vector"));
        assertEquals(Kernel.values().length, c.forms().size());
        KernelChoice f = base(Form.VECTOR).with("ntt.forward=fma,ntt.inverse=FMA");
        assertEquals(Form.FMA, f.form(Kernel.NTT_FORWARD));
        assertEquals(Form.FMA, f.form(Kernel.NTT_INVERSE));
        assertEquals(Form.VECTOR, f.form(Kernel.DOT2));
        assertEquals(Form.FMA, base(Form.VECTOR).with("dot2=fma").form(Kernel.DOT2));
        assertTrue(!KernelChoice.setsAll("fma"), "fma is not a form of every kernel");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"dot3=vector", "dot2=simd", "dot2", ",", "dot2=vector,scalar", "fast", "sumShoup=fma", "fma"})
    void badOverridesNameWhatIsWrong(String spec) {
        var e = assertThrows(
                InvalidKernelChoiceException.class, () -> base(Form.SCALAR).with(spec));
        assertTrue(e.getMessage().contains("hoist.kernels"), e.getMessage());
    }

    @Test
    void overrideWithAFormSkipsCalibration() {
        KernelChoice c = KernelCalibration.machineChoice("scalar");
        for (Kernel k : Kernel.values()) assertEquals(Form.SCALAR, c.form(k));
        assertTrue(c.vectorOverScalar().isEmpty());
    }

    @Test
    void cacheRoundTripsAndIgnoresMalformedEntries(@TempDir Path dir) throws IOException {
        String before = System.getProperty("hoist.cache.dir");
        System.setProperty("hoist.cache.dir", dir.toString());
        try {
            assertNull(KernelChoiceCache.read(), "nothing cached yet");
            EnumMap<Kernel, Form> forms = new EnumMap<>(Kernel.class);
            EnumMap<Kernel, Double> ratios = new EnumMap<>(Kernel.class);
            for (Kernel k : Kernel.values()) {
                forms.put(k, k.ordinal() % 2 == 0 ? Form.VECTOR : Form.SCALAR);
                ratios.put(k, 0.5 + k.ordinal());
            }
            forms.put(Kernel.NTT_INVERSE, Form.FMA);
            forms.put(Kernel.DOT2, Form.FMA);
            KernelChoiceCache.write(new KernelChoice(
                    forms,
                    ratios,
                    Map.of(Kernel.NTT_INVERSE, 0.25, Kernel.DOT2, 0.125),
                    Map.of(Kernel.DOT2, 0.75),
                    KernelChoice.Source.CALIBRATED));
            KernelChoice back = KernelChoiceCache.read();
            assertNotNull(back);
            assertEquals(KernelChoice.Source.CACHED, back.source());
            for (Kernel k : Kernel.values()) assertEquals(forms.get(k), back.form(k), k.id());
            assertEquals(0.5, back.vectorOverScalar().get(Kernel.NTT_FORWARD.id()));
            assertEquals(0.25, back.fmaOverScalar().get(Kernel.NTT_INVERSE.id()));
            assertEquals(0.125, back.fmaOverScalar().get(Kernel.DOT2.id()));
            assertEquals(Map.of(Kernel.DOT2.id(), 0.75), back.fmaOverVector());
            Path f = KernelChoiceCache.file();
            assertTrue(f.getFileName().toString().contains(KernelChoiceCache.machineKey()));
            Files.writeString(f, Files.readString(f).replace("dot2.form=fma", "dot2.form=gpu"));
            assertNull(KernelChoiceCache.read(), "an unknown form makes the entry absent, never a guess");
            KernelChoiceCache.write(new KernelChoice(forms, ratios, KernelChoice.Source.CALIBRATED));
            Files.writeString(f, Files.readString(f).replace("sumShoup.form=scalar", "sumShoup.form=fma"));
            assertNull(KernelChoiceCache.read(), "a form the kernel does not have makes the entry absent");
            Files.writeString(f, "\\u00zz broken");
            assertNull(KernelChoiceCache.read());
        } finally {
            if (before == null) System.clearProperty("hoist.cache.dir");
            else System.setProperty("hoist.cache.dir", before);
        }
    }

    @Test
    void calibrationMeasuresEveryKernelAndChoosesOnlyIdenticalForms() {
        KernelChoice c = KernelCalibration.calibrate();
        assertEquals(KernelChoice.Source.CALIBRATED, c.source());
        Map<String, Double> ratios = c.vectorOverScalar();
        for (Kernel k : Kernel.values()) {
            Double r = ratios.get(k.id());
            assertNotNull(r, k.id());
            assertTrue(r > 0 && Double.isFinite(r), k.id() + " " + r);
            if (c.form(k) == Form.VECTOR) assertTrue(r < KernelCalibration.MARGIN + 5e-4, k.id() + " chosen at " + r);
            Double fr = c.fmaOverScalar().get(k.id());
            assertEquals(k.has(Form.FMA) && KernelCalibration.fmaUsable(), fr != null, k.id() + " fma measured");
            // ratios are reported to three decimals: allow that rounding at the margin
            boolean vectorFast = r < KernelCalibration.MARGIN + 5e-4,
                    fmaFast = fr != null && fr < KernelCalibration.MARGIN + 5e-4;
            Double direct = c.fmaOverVector().get(k.id());
            if (c.form(k) == Form.FMA) {
                assertTrue(fmaFast, k.id() + " fma chosen at " + fr);
                // beside a fast vector form, the FMA form won side by side
                if (direct != null) assertTrue(direct < 1 + 5e-4, k.id() + " fma chosen at " + direct + " of vector");
                else
                    assertTrue(r >= KernelCalibration.MARGIN - 5e-4, k.id() + " fma chosen without facing vector " + r);
            }
            if (c.form(k) == Form.VECTOR && direct != null)
                assertTrue(direct > 1 - 5e-4, k.id() + " vector chosen though fma took " + direct + " of its time");
            if (direct != null) assertTrue(vectorFast && fmaFast, k.id() + " side by side only when both are fast");
        }
    }

    @Test
    void enginesReportTheirForms() {
        Map<String, String> s = new NttEngine(NttBackends.scalar(), new OpCounters()).kernelForms();
        for (Kernel k : Kernel.values()) assertEquals("scalar", s.get(k.id()), k.id());
        assertEquals("fixed", s.get("source"));
        Map<String, String> v = new NttEngine(NttBackends.get(VectorNttBackend.NAME), new OpCounters()).kernelForms();
        for (Kernel k : Kernel.values()) assertEquals("vector", v.get(k.id()), k.id());
        Map<String, String> d = NttEngine.defaultEngine().kernelForms();
        assertTrue(
                Map.of("calibrated", 1, "cached", 1, "override", 1, "no-vector-api", 1)
                        .containsKey(d.get("source")),
                d.toString());
        assertTrue(NttEngine.summarize(d).endsWith("(" + d.get("source") + ")"));
    }

    /** Seeded mixes of forms: every kernel of a tuned set equals the scalar twin word for word. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void tunedKernelsAreBitIdenticalToScalar(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        EnumMap<Kernel, Form> forms = new EnumMap<>(Kernel.class);
        for (Kernel k : Kernel.values()) {
            Form[] fs = Arrays.stream(Form.values()).filter(k::has).toArray(Form[]::new);
            forms.put(k, fs[r.nextInt(fs.length)]);
        }
        KernelChoice choice = new KernelChoice(forms, Map.of(), KernelChoice.Source.OVERRIDE);
        LimbKernels tuned = new TunedLimbKernels(choice), scalar = new ScalarLimbKernels();
        int logN = 10 + r.nextInt(3), n = 1 << logN;
        long q = Primes.nttPrimes(logN, 30 + r.nextInt(31), 1).get(0);
        int terms = 1 + r.nextInt(12);
        long[][] x = new long[terms][], y = new long[terms][], z = new long[terms][];
        long[] w = new long[terms], ws = new long[terms];
        for (int t = 0; t < terms; t++) {
            x[t] = r.longs(n, 0, q).toArray();
            y[t] = r.longs(n, 0, q).toArray();
            z[t] = r.longs(n, 0, q).toArray();
            w[t] = r.nextLong(q);
            ws[t] = ModArith.shoupQuotient(w[t], q);
        }
        long[][] a = {new long[n], new long[n], new long[n], new long[n]};
        tuned.dot2Montgomery(x, y, z, terms, a[0], a[1], q, false);
        scalar.dot2Montgomery(x, y, z, terms, a[2], a[3], q, false);
        assertArrayEquals(a[2], a[0], "dot2");
        assertArrayEquals(a[3], a[1], "dot2 second output");
        tuned.sumShoup(y, terms, w, ws, q, a[0], 0, n);
        scalar.sumShoup(y, terms, w, ws, q, a[2], 0, n);
        assertArrayEquals(a[2], a[0], "sumShoup");
        tuned.mulShoup(x[0], w[0], ws[0], q, a[0], 0, n);
        scalar.mulShoup(x[0], w[0], ws[0], q, a[2], 0, n);
        assertArrayEquals(a[2], a[0], "mulShoup");
        tuned.subMulShoup(x[0], y[0], a[0], w[0], ws[0], q);
        scalar.subMulShoup(x[0], y[0], a[2], w[0], ws[0], q);
        assertArrayEquals(a[2], a[0], "subMulShoup");
        long[] signed = r.longs(n, -(1L << 45), 1L << 45).toArray();
        tuned.liftSigned(signed, w[0], ws[0], q, a[0]);
        scalar.liftSigned(signed, w[0], ws[0], q, a[2]);
        assertArrayEquals(a[2], a[0], "liftSigned");
        tuned.mulMod(x[0], z[0], a[0], q, false);
        scalar.mulMod(x[0], z[0], a[2], q, false);
        assertArrayEquals(a[2], a[0], "mulMod");
        NttPermutation perm = Automorphism.nttPermutation(logN, 5);
        tuned.automorphismNtt(x[0], y[0], a[0], perm, q, false);
        scalar.automorphismNtt(x[0], y[0], a[2], perm, q, false);
        assertArrayEquals(a[2], a[0], "automorphism");
        NttTables t = NttTables.of(logN, q);
        TunedNttBackend ntt = new TunedNttBackend(choice);
        long[] f = x[0].clone(), g = x[0].clone();
        ntt.forward(new long[][] {f}, new NttTables[] {t}, 1);
        NttBackends.scalar().forward(new long[][] {g}, new NttTables[] {t}, 1);
        assertArrayEquals(g, f, "forward NTT");
        ntt.inverse(new long[][] {f}, new NttTables[] {t}, 1);
        NttBackends.scalar().inverse(new long[][] {g}, new NttTables[] {t}, 1);
        assertArrayEquals(g, f, "inverse NTT");
        assertArrayEquals(x[0], f, "round trip");
    }
}
