package io.hoist.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.LevelMismatchException;
import io.hoist.ckks.MissingRotationKeyException;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.io.KeyStore;
import io.hoist.ckks.poly.PolynomialEvaluator;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Objective;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.Op;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Full bootstrapping on small insecure rings: packings, encapsulation, the four DFT algorithms, twice in a row, keys. */
class BootstrapperTest {
    /** The floor every small-ring configuration here clears (worst slot, −log2 of the complex error). */
    static final double FLOOR_BITS = 18;

    private static void check(BootstrapFixture f, ComplexVector z, Ciphertext out, String what) {
        PrecisionStats p = f.precision(z, out);
        assertEquals(f.plan.outputLevel(), out.level(), what + ": output level");
        assertEquals(f.bp.ckks().defaultScale(), out.scale(), 0.0, what + ": output at the user's scale");
        assertTrue(p.l2().min() > FLOOR_BITS, what + ": " + p);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Algorithm.class)
    void everyAlgorithmDenseWithEncapsulation(Algorithm a) {
        BootstrapParameters bp = BootstrapFixture.small(12, 11, 3, 2, EvalModParameters.lattigoDefault(), 32);
        BootstrapFixture f = new BootstrapFixture(bp, BootstrapPlan.of(bp, a, a, Objective.FEWEST_KEYS, true, 0));
        ComplexVector z = f.message(1);
        Bootstrapper.Result r = f.boot.bootstrap(f.encryptAtLevel0(z));
        check(f, z, r.output(), a.toString());
        // two EvalMods (real and imaginary halves) of the cosine polynomial and the double angles
        int perEvalMod = f.boot.plan().parameters().evalMod().doubleAngle()
                + PolynomialEvaluator.plan(bp.evalMod().cosinePolynomial()).multiplications();
        assertEquals(2L * perEvalMod, r.counts().get(Op.CT_MUL), "ciphertext products");
    }

    static Stream<Arguments> packings() {
        List<Arguments> out = new ArrayList<>();
        // logN, logSlots (dense = logN − 1), CtS depth, StC depth, ephemeral weight (0: none)
        out.add(Arguments.of(12, 9, 2, 2, 32));
        out.add(Arguments.of(12, 11, 3, 2, 0));
        out.add(Arguments.of(13, 12, 3, 3, 32));
        out.add(Arguments.of(13, 10, 3, 2, 0));
        return out.stream();
    }

    @ParameterizedTest(name = "N=2^{0} slots=2^{1} depths {2}/{3} ephemeral h={4}")
    @MethodSource("packings")
    void packingsAndEncapsulation(int logN, int logSlots, int cts, int stc, int ephemeral) {
        // without the encapsulation |I| reaches about (192+1)/2 · tail: K = 32 and a degree-62 cosine
        EvalModParameters em =
                ephemeral > 0 ? EvalModParameters.lattigoDefault() : new EvalModParameters(32, 62, 3, 8, 0, 60);
        BootstrapParameters bp = BootstrapFixture.small(logN, logSlots, cts, stc, em, ephemeral);
        BootstrapFixture f = new BootstrapFixture(bp, BootstrapPlan.fewestKeys(bp));
        ComplexVector z = f.message(logN * 100L + logSlots);
        check(f, z, f.boot.bootstrap(f.encryptAtLevel0(z)).output(), bp.toString());
    }

    @Test
    void twiceInARow() {
        BootstrapParameters bp = BootstrapFixture.small(12, 11, 3, 2, EvalModParameters.lattigoDefault(), 32);
        BootstrapFixture f = new BootstrapFixture(bp, BootstrapPlan.fewestKeys(bp));
        ComplexVector z = f.message(7);
        Ciphertext once = f.boot.bootstrap(f.encryptAtLevel0(z)).output();
        Ciphertext twice = f.boot.bootstrap(once).output(); // dropped to level 0 inside
        PrecisionStats p1 = f.precision(z, once), p2 = f.precision(z, twice);
        assertTrue(p2.l2().min() > FLOOR_BITS - 2, "second bootstrap: " + p2 + " (first " + p1 + ")");
    }

    @Test
    void aWithheldKeyIsNamedBeforeAnyWork() {
        BootstrapParameters bp = BootstrapFixture.small(12, 11, 3, 2, EvalModParameters.lattigoDefault(), 32);
        BootstrapFixture f = new BootstrapFixture(bp, BootstrapPlan.fewestKeys(bp));
        List<GaloisKey> fewer = new ArrayList<>();
        long withheld = f.plan.galoisElements().first();
        for (long g : f.keys.rotations().galoisElements())
            if (g != withheld) fewer.add(f.keys.rotations().get(g, "test"));
        BootstrappingKeys partial = new BootstrappingKeys(
                new RotationKeySet(bp.ckks(), fewer), f.keys.relinearization(), f.keys.toSparse(), f.keys.toDense());
        MissingRotationKeyException e = assertThrows(
                MissingRotationKeyException.class,
                () -> new Bootstrapper(f.ctx, f.plan, partial, Storage.PRECOMPUTED, Progress.NONE));
        assertTrue(e.getMessage().contains("Galois element " + withheld), e.getMessage());
    }

    /** A missing key is named by what it does: a rotation below the slots, the sparse trace's automorphism past them. */
    @Test
    void aMissingTraceKeyIsNamedAsTheTrace() {
        CkksParameters p = CkksParameters.builder()
                .logN(12)
                .logSlots(8)
                .logQ(50, 40)
                .logP(60)
                .scale(0x1p40)
                .allowInsecure()
                .build();
        assertEquals("rotation by 3", Bootstrapper.nameOf(p, p.galoisElementForRotation(3)));
        assertEquals("rotation by 255", Bootstrapper.nameOf(p, p.galoisElementForRotation(-1)));
        assertEquals("the trace automorphism 5^1024", Bootstrapper.nameOf(p, 4097)); // 5^1024 mod 2^13
        assertEquals("the automorphism", Bootstrapper.nameOf(p, p.galoisElementForConjugation()));
    }

    /** A Galois key made below the level the plan switches with it is named before any work, not found midway. */
    @Test
    void aKeyBelowItsLevelIsNamedBeforeAnyWork() {
        BootstrapParameters bp = BootstrapFixture.small(12, 11, 3, 2, EvalModParameters.lattigoDefault(), 32);
        BootstrapFixture f = new BootstrapFixture(bp, BootstrapPlan.fewestKeys(bp));
        Map.Entry<Long, Integer> top = f.plan.galoisKeyLevels().entrySet().stream()
                .filter(e -> e.getValue() == f.plan.ctsLevel())
                .findFirst()
                .orElseThrow();
        List<GaloisKey> keys = new ArrayList<>();
        for (long g : f.keys.rotations().galoisElements())
            if (g != top.getKey()) keys.add(f.keys.rotations().get(g, "test"));
        keys.add(new KeyGenerator(f.ctx).genGaloisKey(f.sk, top.getKey(), top.getValue() - 1));
        BootstrappingKeys low = new BootstrappingKeys(
                new RotationKeySet(bp.ckks(), keys), f.keys.relinearization(), f.keys.toSparse(), f.keys.toDense());
        LevelMismatchException e = assertThrows(
                LevelMismatchException.class,
                () -> new Bootstrapper(f.ctx, f.plan, low, Storage.PRECOMPUTED, Progress.NONE));
        assertTrue(e.getMessage().contains("Galois element " + top.getKey()), e.getMessage());
        assertTrue(e.getMessage().contains("at level " + top.getValue()), e.getMessage());
    }

    /**
     * Full slots on two threads: the two halves' EvalMods run one per thread (each on its thread alone), the DFTs
     * split their steps; the same ciphertext bootstraps to the same bits as on one thread, with the same counts (but
     * the transforms' batches).
     */
    @Test
    void twoThreadsGiveOneThreadsBits() {
        BootstrapParameters bp = BootstrapFixture.small(12, 11, 3, 2, EvalModParameters.lattigoDefault(), 32);
        BootstrapFixture f = new BootstrapFixture(bp, BootstrapPlan.fewestKeys(bp));
        Bootstrapper two = new Bootstrapper(
                CkksContext.create(bp.ckks(), null, 2), f.plan, f.keys, Storage.PRECOMPUTED, Progress.NONE);
        Ciphertext in = f.encryptAtLevel0(f.message(5));
        Bootstrapper.Result a = f.boot.bootstrap(in), b = two.bootstrap(in);
        assertEquals(a.output(), b.output());
        for (Op op : Op.values()) // the transforms' batches are cut per thread: only the number of calls differs
        if (op != Op.NTT_CALLS) assertEquals(a.counts().get(op), b.counts().get(op), op.name());
    }

    /**
     * Two bootstraps at once on one bootstrapper (two threads, its two EvalMod halves each on a worker too): each
     * result counts only its own work, the counts of a bootstrap run alone, and gives the same bits.
     */
    @Test
    void concurrentBootstrapsCountOnlyTheirOwnWork() throws Exception {
        BootstrapParameters bp = BootstrapFixture.small(12, 11, 3, 2, EvalModParameters.lattigoDefault(), 32);
        BootstrapFixture f = new BootstrapFixture(bp, BootstrapPlan.fewestKeys(bp));
        CkksContext ctx2 = CkksContext.create(bp.ckks(), null, 2);
        Bootstrapper two = new Bootstrapper(ctx2, f.plan, f.keys, Storage.PRECOMPUTED, Progress.NONE);
        Ciphertext in = f.encryptAtLevel0(f.message(9));
        two.bootstrap(in); // the first run also transforms mulByI's i^e once (counted there)
        Map<Op, Long> before = ctx2.counters().snapshot();
        Bootstrapper.Result alone = two.bootstrap(in);
        assertEquals(ctx2.counters().since(before), alone.counts(), "alone, its own counts are the context's");
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try {
            Future<Bootstrapper.Result> a = callers.submit(() -> two.bootstrap(in)),
                    b = callers.submit(() -> two.bootstrap(in));
            for (Bootstrapper.Result r : List.of(a.get(), b.get())) {
                assertEquals(alone.output(), r.output());
                for (Op op : Op.values()) // the transforms' batches run in place while the other caller holds the
                    // workers: only the number of calls may differ
                    if (op != Op.NTT_CALLS)
                        assertEquals(alone.counts().get(op), r.counts().get(op), op.name());
            }
        } finally {
            callers.shutdown();
        }
    }

    /**
     * Every intermediate ciphertext of a bootstrap is in pooled limbs: warm runs borrow what the first pooled (the
     * pools do not grow) and give the same bits.
     */
    @Test
    void warmBootstrapsBorrowWhatTheFirstPooled() {
        BootstrapParameters bp = BootstrapFixture.small(12, 11, 3, 2, EvalModParameters.lattigoDefault(), 32);
        BootstrapFixture f = new BootstrapFixture(bp, BootstrapPlan.fewestKeys(bp));
        Ciphertext in = f.encryptAtLevel0(f.message(13));
        Ciphertext first = f.boot.bootstrap(in).output();
        long pooled = f.boot.pooledBytes();
        assertTrue(pooled > 0);
        for (int run = 0; run < 2; run++) {
            assertEquals(first, f.boot.bootstrap(in).output(), "run " + run);
            assertEquals(pooled, f.boot.pooledBytes(), "run " + run + ": the pools did not grow");
        }
    }

    @Test
    void keysStoredAndReopened(@TempDir Path dir) throws IOException {
        BootstrapParameters bp = BootstrapFixture.small(12, 11, 3, 2, EvalModParameters.lattigoDefault(), 32);
        BootstrapFixture f = new BootstrapFixture(bp, BootstrapPlan.fewestKeys(bp));
        BootstrapKeyFiles.save(dir, f.keys, true);
        BootstrapKeyFiles.save(dir, f.keys, true); // again: the first set's stores are replaced, not mixed in
        BootstrappingKeys back = BootstrapKeyFiles.open(dir, f.ctx, f.plan);
        assertEquals(f.keys.rotations().galoisElements(), back.rotations().galoisElements());
        Set<Integer> levels = new TreeSet<>(f.plan.galoisKeyLevels().values());
        assertTrue(levels.size() > 1, "keys at several levels: " + levels);
        for (long g : f.plan.galoisElements()) {
            assertEquals(
                    f.plan.galoisKeyLevels().get(g),
                    back.rotations().get(g, "test").level());
            assertTrue(Files.exists(
                    dir.resolve("galois-" + f.plan.galoisKeyLevels().get(g) + ".hks")));
        }
        Bootstrapper boot = new Bootstrapper(f.ctx, f.plan, back, Storage.PRECOMPUTED, Progress.NONE);
        ComplexVector z = f.message(3);
        check(f, z, boot.bootstrap(f.encryptAtLevel0(z)).output(), "keys from the store");

        // a directory of the earlier layout (one store, every key at the top) opens, and serves every level
        Path old = dir.resolve("old");
        BootstrapKeyFiles.save(old, f.keys, false);
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(old, "galois*.hks")) {
            for (Path p : ds) Files.delete(p);
        }
        RotationKeySet top = new KeyGenerator(f.ctx)
                .genRotationKeys(f.sk, f.plan.ctsLevel(), f.plan.galoisElements(), Progress.NONE, KeyStorage.FULL);
        KeyStore.write(old.resolve("galois.hks"), top, false);
        BootstrappingKeys fromOld = BootstrapKeyFiles.open(old, f.ctx, f.plan);
        for (long g : f.plan.galoisElements())
            assertEquals(f.plan.ctsLevel(), fromOld.rotations().get(g, "test").level());
        check(
                f,
                z,
                new Bootstrapper(f.ctx, f.plan, fromOld, Storage.PRECOMPUTED, Progress.NONE)
                        .bootstrap(f.encryptAtLevel0(z))
                        .output(),
                "keys from a store of the earlier layout");

        // a store whose keys sit below the level the plan uses one at does not serve it: named, not used
        Path low = dir.resolve("low");
        BootstrapKeyFiles.save(low, f.keys, false);
        long g = f.plan.galoisKeyLevels().entrySet().stream()
                .filter(e -> e.getValue() == f.plan.ctsLevel())
                .findFirst()
                .orElseThrow()
                .getKey();
        Path store = low.resolve("galois-" + f.plan.ctsLevel() + ".hks");
        RotationKeySet below = new KeyGenerator(f.ctx)
                .genRotationKeys(f.sk, f.plan.ctsLevel() - 1, List.of(g), Progress.NONE, KeyStorage.FULL);
        Files.delete(store);
        KeyStore.write(low.resolve("galois-" + (f.plan.ctsLevel() - 1) + "-extra.hks"), below, false);
        MissingRotationKeyException missing =
                assertThrows(MissingRotationKeyException.class, () -> BootstrapKeyFiles.open(low, f.ctx, f.plan));
        assertTrue(missing.getMessage().contains("at level " + f.plan.ctsLevel() + " or above"), missing.getMessage());
    }

    @Test
    void anInputAtAnotherScaleKeepsItsMessage() {
        BootstrapParameters bp = BootstrapFixture.small(12, 11, 3, 2, EvalModParameters.lattigoDefault(), 32);
        BootstrapFixture f = new BootstrapFixture(bp, BootstrapPlan.fewestKeys(bp));
        ComplexVector z = f.message(11);
        // 2^38 · 3: ScaleDown's integer no longer lands exactly on Δ_s, and the output scale says by how much
        double scale = 3 * 0x1p38;
        Ciphertext in = f.enc.encrypt(f.encoder.encode(z, 0, scale));
        Ciphertext out = f.boot.bootstrap(in).output();
        long k = Math.round(f.plan.raisedMessageScale() / scale);
        assertEquals(bp.ckks().defaultScale() * scale * k / f.plan.raisedMessageScale(), out.scale(), 0.0);
        PrecisionStats p = f.precision(z, out);
        assertTrue(p.l2().min() > FLOOR_BITS, p.toString());
    }
}
