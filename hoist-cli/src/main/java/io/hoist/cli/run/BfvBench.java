package io.hoist.cli.run;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.SecretKeyAccess;
import io.hoist.bfv.BatchEncoder;
import io.hoist.bfv.BfvCiphertext;
import io.hoist.bfv.BfvContext;
import io.hoist.bfv.BfvDecryptor;
import io.hoist.bfv.BfvEncryptor;
import io.hoist.bfv.BfvEvaluator;
import io.hoist.bfv.BfvKeyGenerator;
import io.hoist.bfv.BfvParameters;
import io.hoist.bfv.BfvPlaintext;
import io.hoist.bfv.BfvPublicKey;
import io.hoist.bfv.BfvSecretKey;
import io.hoist.bfv.seal.SealFormat;
import io.hoist.ring.KernelChoice;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code hoist bfv}'s measurement: the client's operations timed one call at a time (alternating,
 * after a warm-up; medians with the 10th and 90th percentiles), SEAL's byte sizes, the noise budget
 * after a plain multiply, a round trip, and the client's retained heap (what a device keeps: context
 * tables, the secret key, one encryptor and one decryptor, one seeded ciphertext), measured as the
 * heap in use after a full GC with and without those objects.
 */
public final class BfvBench {
    private BfvBench() {}

    /** Median and spread of one operation, microseconds. */
    public record Timing(double median, double p10, double p90) {}

    public record Result(
            BfvParameters params,
            String preset,
            int runs,
            Map<String, Timing> micros,
            int seededBytes,
            int fullBytes,
            int freshNoiseBudget,
            int noiseBudgetAfterMultiplyPlain,
            boolean roundTrip,
            long clientRetainedBytes,
            Map<String, Long> clientAccounting,
            String ntt,
            String cpu) {}

    public static Result run(BfvParameters p, String preset, boolean seeded, int runs) {
        SecretKeyAccess access = InsecureSecretKeyAccess.get();
        BfvContext ctx = BfvContext.of(p);
        BfvKeyGenerator kg = new BfvKeyGenerator(ctx);
        BfvSecretKey sk = kg.secretKey();
        BfvPublicKey pk = kg.publicKey(sk, access);
        BatchEncoder enc = new BatchEncoder(ctx);
        BfvEncryptor sym = BfvEncryptor.symmetric(ctx, sk, access), pub = BfvEncryptor.withPublicKey(ctx, pk);
        BfvDecryptor dec = new BfvDecryptor(ctx, sk, access);
        long t = p.t();
        SplittableRandom r = new SplittableRandom(0x5eed);
        long[] v = r.longs(ctx.n(), 0, t).toArray();

        BfvPlaintext m = enc.encode(v);
        BfvCiphertext ct = seeded ? sym.encryptSeeded(m) : sym.encrypt(m);
        byte[] wire = SealFormat.write(ct);
        BfvCiphertext back = SealFormat.readCiphertext(ctx, wire);
        boolean roundTrip = Arrays.equals(v, enc.decode(dec.decrypt(back)))
                && Arrays.equals(v, enc.decode(dec.decrypt(pub.encrypt(m))));
        int fresh = dec.invariantNoiseBudget(back);
        long[] w = r.longs(ctx.n(), 0, t).toArray();
        // what a server sends back is a full ciphertext: decryption is timed on one
        BfvCiphertext result = new BfvEvaluator(ctx).multiplyPlain(back, enc.encode(w));
        int afterMul = dec.invariantNoiseBudget(result);
        BfvCiphertext full = back.expand();

        String form = seeded ? "Seeded" : "Full";
        List<String> names = List.of(
                "encode",
                "encryptSymmetric" + form + "Save",
                "encodeEncrypt" + form + "Save",
                "encryptPublicKey",
                "decrypt",
                "decode",
                "decryptDecode");
        Map<String, long[]> samples = new LinkedHashMap<>();
        for (String s : names) samples.put(s, new long[runs]);
        long[] sink = {0};
        Runnable[] ops = {
            () -> sink[0] += enc.encode(v).coefficient(1),
            () -> sink[0] += SealFormat.write(seeded ? sym.encryptSeeded(m) : sym.encrypt(m)).length,
            () -> {
                BfvPlaintext x = enc.encode(v);
                sink[0] += SealFormat.write(seeded ? sym.encryptSeeded(x) : sym.encrypt(x)).length;
            },
            () -> sink[0] += pub.encrypt(m).limb(0, 0)[1],
            () -> sink[0] += dec.decrypt(full).coefficient(1),
            () -> sink[0] += enc.decode(m)[1],
            () -> sink[0] += enc.decode(dec.decrypt(full))[1]
        };
        long warmUntil = System.nanoTime() + 2_000_000_000L;
        for (int i = 0; i < 100 || System.nanoTime() < warmUntil; i++) for (Runnable op : ops) op.run();
        for (int i = 0; i < runs; i++) {
            for (int k = 0; k < ops.length; k++) {
                int o = (k + i) % ops.length; // rotate the order, so no operation always follows the same one
                long t0 = System.nanoTime();
                ops[o].run();
                samples.get(names.get(o))[i] = System.nanoTime() - t0;
            }
        }
        Map<String, Timing> micros = new LinkedHashMap<>();
        for (String s : names) {
            long[] a = samples.get(s);
            Arrays.sort(a);
            micros.put(
                    s, new Timing(a[runs / 2] / 1e3, a[runs / 10] / 1e3, a[Math.min(runs - 1, runs * 9 / 10)] / 1e3));
        }
        if (sink[0] == Long.MIN_VALUE) throw new IllegalStateException();

        Map<String, Long> accounting = new LinkedHashMap<>();
        long retained = clientFootprint(p, seeded, accounting);
        return new Result(
                p,
                preset,
                runs,
                micros,
                SealFormat.ciphertextBytes(ctx.n(), ctx.dataLevelSize(), true),
                SealFormat.ciphertextBytes(ctx.n(), ctx.dataLevelSize(), false),
                fresh,
                afterMul,
                roundTrip,
                retained,
                accounting,
                ctx.nttDescription(),
                KernelChoice.cpu());
    }

    /** Retained heap of a fresh client, the median over 5 measurements of heap-in-use after a full GC. */
    static long clientFootprint(BfvParameters p, boolean seeded, Map<String, Long> accounting) {
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        SecretKeyAccess access = InsecureSecretKeyAccess.get();
        BfvSecretKey key = new BfvKeyGenerator(BfvContext.of(p)).secretKey();
        byte[] keyBytes = SealFormat.write(key, access);
        long[] d = new long[5];
        Object[] hold = new Object[1];
        for (int i = 0; i < d.length; i++) {
            hold[0] = null;
            System.gc();
            long before = mem.getHeapMemoryUsage().getUsed();
            BfvContext ctx = BfvContext.of(p);
            BfvSecretKey sk = SealFormat.readSecretKey(ctx, keyBytes, access);
            BatchEncoder enc = new BatchEncoder(ctx);
            BfvEncryptor e = BfvEncryptor.symmetric(ctx, sk, access);
            BfvDecryptor dec = new BfvDecryptor(ctx, sk, access);
            BfvCiphertext ct = seeded ? e.encryptSeeded(enc.encodeScalar(1)) : e.encrypt(enc.encodeScalar(1));
            hold[0] = new Object[] {ctx, sk, enc, e, dec, ct};
            System.gc();
            d[i] = mem.getHeapMemoryUsage().getUsed() - before;
            if (i == 0) {
                int n = ctx.n();
                accounting.put("tables", ctx.tableBytes());
                accounting.put("secretKey", 8L * n * ctx.keyLevelSize());
                accounting.put("ciphertext", ct.residentBytes());
                accounting.put("encryptorScratch", 8L * n);
                accounting.put("decryptorScratch", 8L * n * ctx.dataLevelSize());
                accounting.put("slotMap", 4L * n);
            }
        }
        Arrays.sort(d);
        return d[2];
    }
}
