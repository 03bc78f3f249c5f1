package io.hoist.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.primitives.Bytes;
import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Decryptor;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.PrecisionStats;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.io.CiphertextSerialization;
import io.hoist.ckks.io.KeySerialization;
import io.hoist.ckks.io.KeyStore;
import io.hoist.keygen.KeyGenerator;
import io.hoist.lt.BlockEvaluation;
import io.hoist.lt.BlockLinearTransform;
import io.hoist.lt.EncodedBlockTransform;
import io.hoist.lt.LinearTransform;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.LtProgram.Kind;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.Op;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkException;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 2×2 block product on {@code local[2]} (N = 2^11, blocks of 64) against the one-process block
 * evaluator: bit for bit, with a task failure injected, and with a missing or damaged key on the
 * executor side.
 */
class SparkBlockProductTest {
    /** Two cores, and a failed task tried twice (local[N, maxFailures]). */
    private static JavaSparkContext sc;

    private static CkksParameters params;
    private static CkksContext ctx;
    private static SecretKey sk;
    private static RotationKeySet keys;
    private static Plan plan;
    private static final MatrixSource MATRIX =
            MatrixSource.random(120, 100, 64, 5); // 2×2 blocks, neither side a multiple of 64
    private static List<Ciphertext> inputs;
    private static ComplexVector x;
    private static BlockEvaluation local;
    private static EncodedBlockTransform localTransform;

    @TempDir
    static Path dir;

    @BeforeAll
    static void setUp() {
        params = CkksParameters.builder()
                .logN(11)
                .logSlots(10)
                .logQ(50, 40, 40)
                .logP(60)
                .scale(0x1p40)
                .allowInsecure()
                .build();
        ctx = CkksContext.create(params);
        KeyGenerator kg = new KeyGenerator(ctx);
        sk = kg.genSecretKey();
        BlockLinearTransform m = MATRIX.matrix();
        plan = Plan.forIndices(64, m.diagonalIndices(), Algorithm.TH_BSGS, 4, 4, 4);
        keys = kg.genRotationKeys(sk, params.maxLevel(), plan.rotationKeys(params));
        Encoder encoder = new Encoder(ctx);
        Encryptor enc = Encryptor.withSecretKey(ctx, sk);
        x = ComplexVector.random(new SplittableRandom(2), m.cols());
        inputs = new ArrayList<>();
        for (ComplexVector part : m.splitInput(x))
            inputs.add(enc.encrypt(
                    encoder.encode(m.replicate(part, params.slots()), params.maxLevel(), params.defaultScale())));
        LinearTransformEvaluator lte = new LinearTransformEvaluator(ctx, keys);
        EncodedBlockTransform ebt = lte.encode(m, plan, params.maxLevel(), Storage.COMPACT, Progress.NONE);
        local = lte.evaluate(inputs, ebt);
        localTransform = ebt;
        // Kryo for the data, as many deployments set it (closures travel by Java serialization either way, and the
        // spark-lt CLI tests run the default serializer): records and EnumMaps failed under it
        sc = new JavaSparkContext(new SparkConf()
                .setMaster("local[2,2]")
                .setAppName("hoist-test")
                .set("spark.ui.enabled", "false")
                .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer"));
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (sc != null) sc.close();
        try (var files = Files.list(dir)) { // the links KeySource.ship made beside the stores go with the context
            List<Path> shipped = files.filter(f -> f.getFileName().toString().startsWith(".hoist-"))
                    .toList();
            assertEquals(List.of(), shipped);
        }
    }

    private static Path store(String name, RotationKeySet k) {
        Path p = dir.resolve(name);
        KeyStore.write(p, k, false);
        return p;
    }

    private static void assertBitIdentical(SparkBlockProduct.Result r) {
        assertEquals(local.outputs().size(), r.outputs().size());
        for (int i = 0; i < r.outputs().size(); i++) {
            assertArrayEquals(
                    CiphertextSerialization.write(local.outputs().get(i)),
                    CiphertextSerialization.write(r.outputs().get(i)),
                    "block row " + i);
        }
    }

    @Test
    void bitIdenticalToTheLocalBlockEvaluator() {
        BlockJob job = BlockJob.of(
                params, plan, params.maxLevel(), MATRIX, KeySource.ship(sc, store("keys.hks", keys)), 1, null);
        SparkBlockProduct.Result r = SparkBlockProduct.run(sc, ctx, job, inputs);
        assertBitIdentical(r);
        for (Op op : List.of(Op.DECOMPOSE, Op.MOD_DOWN, Op.KS_INNER_PRODUCT, Op.PT_MUL, Op.NTT_LIMBS, Op.INTT_LIMBS)) {
            assertEquals(
                    local.counts().getOrDefault(op, 0L),
                    r.counts().getOrDefault(op, 0L),
                    op + " summed over the tasks");
        }
        assertEquals(2, r.stats().mapTasks());
        assertEquals(4, r.stats().partials(), "one partial per block");
        assertEquals(keys.size(), r.stats().keysLoadedPerWorker(), "exactly the plan's keys");
        Decryptor dec = new Decryptor(ctx, sk);
        Encoder encoder = new Encoder(ctx);
        List<ComplexVector> parts = new ArrayList<>();
        for (Ciphertext c : r.outputs()) parts.add(dec.decryptAndDecode(c, encoder));
        PrecisionStats p =
                PrecisionStats.of(MATRIX.matrix().apply(x), MATRIX.matrix().joinOutput(parts));
        assertTrue(p.minBits() > 15, p.toString());
    }

    @Test
    void wrongInputsAndJobsAreRefusedBeforeAnyTaskRuns() {
        CkksParameters other = CkksParameters.builder()
                .logN(11)
                .logSlots(10)
                .logQ(50, 40, 40)
                .logP(61)
                .scale(0x1p40)
                .allowInsecure()
                .build();
        BlockJob job = BlockJob.of(
                params, plan, params.maxLevel(), MATRIX, KeySource.shared(store("refused.hks", keys)), 1, null);
        CkksContext otherCtx = CkksContext.create(other);
        assertThrows(ParameterMismatchException.class, () -> SparkBlockProduct.run(sc, otherCtx, job, inputs));
        KeyGenerator kg = new KeyGenerator(otherCtx);
        Ciphertext foreign = Encryptor.withSecretKey(otherCtx, kg.genSecretKey())
                .encrypt(new Encoder(otherCtx).encode(new double[4], other.maxLevel(), other.defaultScale()));
        List<Ciphertext> mixed = new ArrayList<>(inputs);
        mixed.set(1, foreign);
        assertThrows(ParameterMismatchException.class, () -> SparkBlockProduct.run(sc, ctx, job, mixed));
        KeySource ks = KeySource.shared(dir.resolve("none.hks"));
        assertThrows(
                IllegalArgumentException.class,
                () -> BlockJob.of(params, plan, params.maxLevel(), MATRIX, ks, 1, "no-such-backend"));
        MatrixSource big = MatrixSource.random(64, 64, 2048, 1);
        Plan plan2048 = Plan.forIndices(2048, List.of(0, 1), Algorithm.DIAGONAL);
        assertThrows(
                IllegalArgumentException.class,
                () -> BlockJob.of(params, plan2048, params.maxLevel(), big, ks, 1, null));
        // ⌈(2^31 − 1) / 64⌉ = 2^25, where (size + b − 1) / b wrapped negative
        Plan plan64 = Plan.forIndices(64, List.of(0, 1), Algorithm.DIAGONAL);
        BlockJob wide = BlockJob.of(
                params, plan64, params.maxLevel(), MatrixSource.random(64, Integer.MAX_VALUE, 64, 1), ks, 1, null);
        assertEquals(1 << 25, wide.blockCols());
        BlockJob tall = BlockJob.of(
                params, plan64, params.maxLevel(), MatrixSource.random(Integer.MAX_VALUE, 64, 64, 1), ks, 1, null);
        assertEquals(1 << 25, tall.blockRows());
    }

    @Test
    void aJobsKeysAreForgottenWhenItEnds() {
        BlockJob job = BlockJob.of(
                params, plan, params.maxLevel(), MATRIX, KeySource.ship(sc, store("forget.hks", keys)), 1, null);
        assertBitIdentical(SparkBlockProduct.run(sc, ctx, job, inputs));
        assertEquals(0, Worker.cached(), "local mode: the driver is the executor, and it kept the last job's keys");
    }

    @Test
    void rowGroupsSplitAColumnAcrossTasksWithTheSameBits() {
        BlockJob job = BlockJob.of(
                params, plan, params.maxLevel(), MATRIX, KeySource.shared(store("shared.hks", keys)), 2, null);
        SparkBlockProduct.Result r = SparkBlockProduct.run(sc, ctx, job, inputs);
        assertBitIdentical(r);
        assertEquals(4, r.stats().mapTasks());
        var prog = LtProgram.compile(plan, LimbLayout.of(params, params.maxLevel()));
        long inputPart = prog.steps().stream()
                .filter(s -> s.phase() <= 3 && s.kind() == Kind.DECOMPOSE)
                .count();
        assertEquals(
                local.counts().get(Op.DECOMPOSE) + 2 * inputPart,
                r.counts().get(Op.DECOMPOSE),
                "the second row group of each of the 2 columns decomposes its input again");
        Cost c = localTransform.cost(job::rowGroupOf);
        assertEquals(c.decompose(), r.counts().get(Op.DECOMPOSE));
        assertEquals(c.keySwitchInnerProducts(), r.counts().get(Op.KS_INNER_PRODUCT));
        assertEquals(c.ptMuls(), r.counts().get(Op.PT_MUL));
        assertEquals(c.ntt(), r.counts().get(Op.NTT_LIMBS) + r.counts().get(Op.INTT_LIMBS));
    }

    /** Throws in the first attempt of the task that encodes block (1, 0); Spark runs it again. */
    record FlakyMatrix(MatrixSource inner) implements MatrixSource {
        static final AtomicInteger FAILURES = new AtomicInteger();

        @Override
        public int rows() {
            return inner.rows();
        }

        @Override
        public int cols() {
            return inner.cols();
        }

        @Override
        public int blockDimension() {
            return inner.blockDimension();
        }

        @Override
        public LinearTransform block(int blockRow, int blockCol) {
            TaskContext tc = TaskContext.get();
            if (tc != null && tc.attemptNumber() == 0 && blockRow == 1 && blockCol == 0) {
                FAILURES.incrementAndGet();
                throw new IllegalStateException("injected task failure");
            }
            return inner.block(blockRow, blockCol);
        }
    }

    @Test
    void aFailedTaskIsRetriedWithTheSameResult() {
        FlakyMatrix.FAILURES.set(0);
        BlockJob job = BlockJob.of(
                params,
                plan,
                params.maxLevel(),
                new FlakyMatrix(MATRIX),
                KeySource.ship(sc, store("keys-retry.hks", keys)),
                1,
                null);
        SparkBlockProduct.Result r = SparkBlockProduct.run(sc, ctx, job, inputs);
        assertEquals(1, FlakyMatrix.FAILURES.get(), "the failure was injected once");
        assertBitIdentical(r);
        assertEquals(local.counts().get(Op.PT_MUL), r.counts().get(Op.PT_MUL), "the failed attempt is not counted");
    }

    @Test
    void aMissingKeyFailsTheJobWithHoistsTypedError() {
        List<Long> some = new ArrayList<>(keys.galoisElements());
        long dropped = some.remove(some.size() - 1);
        RotationKeySet fewer = new RotationKeySet(
                params, some.stream().map(g -> keys.get(g, "")).toList());
        BlockJob job = BlockJob.of(
                params, plan, params.maxLevel(), MATRIX, KeySource.ship(sc, store("keys-missing.hks", fewer)), 1, null);
        SparkException e = assertThrows(SparkException.class, () -> SparkBlockProduct.run(sc, ctx, job, inputs));
        assertTrue(e.getMessage().contains("io.hoist.ckks.MissingRotationKeyException"), e.getMessage());
        assertTrue(e.getMessage().contains("Galois element " + dropped), e.getMessage());
    }

    @Test
    void aStoreShippedAgainUnderTheSameNameIsTheNewOne() {
        Path p = dir.resolve("keys-again.hks");
        KeyStore.write(p, keys, false);
        KeySource first = KeySource.ship(sc, p);
        List<Long> some = new ArrayList<>(keys.galoisElements());
        some.remove(0);
        KeyStore.write(
                p,
                new RotationKeySet(
                        params, some.stream().map(g -> keys.get(g, "")).toList()),
                false); // same name, one key fewer
        BlockJob job = BlockJob.of(params, plan, params.maxLevel(), MATRIX, KeySource.ship(sc, p), 1, null);
        SparkException e = assertThrows(
                SparkException.class, () -> SparkBlockProduct.run(sc, ctx, job, inputs), "not the first store's keys");
        assertTrue(e.getMessage().contains("MissingRotationKeyException"), e.getMessage());
        assertBitIdentical(SparkBlockProduct.run(
                sc, ctx, BlockJob.of(params, plan, params.maxLevel(), MATRIX, first, 1, null), inputs));
    }

    @Test
    void aCorruptKeyFileFailsTheJobWithHoistsTypedError() throws Exception {
        Path p = store("keys-corrupt.hks", keys);
        byte[] b = Files.readAllBytes(p);
        b[b.length - 1000] ^= 0x10; // inside the last key's entry
        Files.write(p, b);
        BlockJob job = BlockJob.of(params, plan, params.maxLevel(), MATRIX, KeySource.shared(p), 1, null);
        SparkException e = assertThrows(SparkException.class, () -> SparkBlockProduct.run(sc, ctx, job, inputs));
        assertTrue(e.getMessage().contains("io.hoist.ckks.io.MalformedDataException"), e.getMessage());
        assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
    }

    @Test
    void nothingThatTravelsHoldsTheSecretKey() throws Exception {
        Path keyFile = store("keys-secret-check.hks", keys);
        BlockJob job = BlockJob.of(params, plan, params.maxLevel(), MATRIX, KeySource.shared(keyFile), 1, null);
        ByteArrayOutputStream closure = new ByteArrayOutputStream();
        try (ObjectOutputStream o = new ObjectOutputStream(closure)) {
            o.writeObject(job);
        }
        byte[] secret = KeySerialization.writeSecretKey(sk, InsecureSecretKeyAccess.get());
        byte[] window = Arrays.copyOfRange(secret, secret.length / 2, secret.length / 2 + 256); // 32 residues of s
        assertTrue(indexOf(secret, window) >= 0, "the probe itself works");
        assertEquals(-1, indexOf(closure.toByteArray(), window), "the job description");
        assertEquals(-1, indexOf(Files.readAllBytes(keyFile), window), "the key store");
        for (Ciphertext c : inputs)
            assertEquals(-1, indexOf(CiphertextSerialization.write(c), window), "an input ciphertext");
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        return Bytes.indexOf(hay, needle);
    }
}
