package io.hoist.bfv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.SecretKeyAccess;
import io.hoist.bfv.seal.SealFormat;
import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Our own encryptions on small rings (N = 2^10 … 2^13, seeded generators): every mode decrypts to its slots, and through SEAL's format. */
class BfvRoundTripTest {
    private static final SecretKeyAccess ACCESS = InsecureSecretKeyAccess.get();

    static Stream<Arguments> sets() {
        return Stream.of(
                Arguments.of(10, 17, 3, 40),
                Arguments.of(11, 20, 3, 40),
                Arguments.of(12, 20, 3, 36),
                Arguments.of(13, 25, 4, 50),
                Arguments.of(12, 17, 3, 30));
    }

    /** An insecure set: k primes of {@code bits} bits and a batching t of about tBits bits. */
    static BfvParameters params(int logN, int tBits, int k, int bits) {
        List<Long> q = Primes.nttPrimes(logN, bits, k);
        long t = Primes.nttPrimes(logN, tBits, 1).getFirst();
        return BfvParameters.insecure(
                1 << logN, t, q.stream().mapToLong(Long::longValue).toArray());
    }

    @ParameterizedTest
    @MethodSource("sets")
    void everyEncryptionModeDecryptsToItsSlots(int logN, int tBits, int k, int bits) {
        BfvContext ctx = BfvContext.of(params(logN, tBits, k, bits));
        BfvKeyGenerator kg = new BfvKeyGenerator(ctx);
        BfvSecretKey sk = kg.secretKey();
        BfvPublicKey pk = kg.publicKey(sk, ACCESS);
        BatchEncoder enc = new BatchEncoder(ctx);
        BfvDecryptor dec = new BfvDecryptor(ctx, sk, ACCESS);
        SplittableRandom r = new SplittableRandom(logN * 1000L + k);
        long t = ctx.params().t();
        long[] v = r.longs(ctx.n(), 0, t).toArray();
        BfvPlaintext m = enc.encode(v);
        assertArrayEquals(v, enc.decode(m));
        BfvEncryptor sym = BfvEncryptor.symmetric(ctx, sk, ACCESS), pub = BfvEncryptor.withPublicKey(ctx, pk);
        for (BfvCiphertext ct : new BfvCiphertext[] {
            sym.encrypt(m), sym.encryptSeeded(m), sym.encryptSeeded(m, PrngType.BLAKE2XB), pub.encrypt(m)
        }) {
            assertArrayEquals(v, enc.decode(dec.decrypt(ct)), ct.toString());
            assertTrue(dec.invariantNoiseBudget(ct) > 5, "noise budget " + dec.invariantNoiseBudget(ct));
            BfvCiphertext back = SealFormat.readCiphertext(ctx, SealFormat.write(ct));
            assertEquals(ct.isSeeded(), back.isSeeded());
            assertArrayEquals(v, enc.decode(dec.decrypt(back)));
            assertArrayEquals(SealFormat.write(ct.expand()), SealFormat.write(back.expand()));
        }
        // the server side: (v + v)·w − v
        BfvEvaluator ev = new BfvEvaluator(ctx);
        long[] w = r.longs(ctx.n(), 0, t).toArray();
        BfvCiphertext c =
                ev.sub(ev.multiplyPlain(ev.add(sym.encryptSeeded(m), pub.encrypt(m)), enc.encode(w)), sym.encrypt(m));
        long[] got = enc.decode(dec.decrypt(c));
        for (int i = 0; i < v.length; i++)
            assertEquals(Math.floorMod((2 * v[i] % t) * w[i] % t - v[i], t), got[i], "slot " + i);
        assertArrayEquals(negated(v, t), enc.decode(dec.decrypt(ev.negate(sym.encrypt(m)))));
        // keys through SEAL's format
        BfvSecretKey sk2 = SealFormat.readSecretKey(ctx, SealFormat.write(sk, ACCESS), ACCESS);
        assertArrayEquals(v, enc.decode(new BfvDecryptor(ctx, sk2, ACCESS).decrypt(pub.encrypt(m))));
        BfvPublicKey pk2 = SealFormat.readPublicKey(ctx, SealFormat.write(pk));
        assertArrayEquals(
                v, enc.decode(dec.decrypt(BfvEncryptor.withPublicKey(ctx, pk2).encrypt(m))));
    }

    private static long[] negated(long[] v, long t) {
        long[] o = new long[v.length];
        for (int i = 0; i < v.length; i++) o[i] = (t - v[i]) % t;
        return o;
    }

    @Test
    void extremeMessagesRoundTrip() {
        BfvContext ctx = BfvContext.of(params(11, 20, 3, 40));
        BfvSecretKey sk = new BfvKeyGenerator(ctx).secretKey();
        BatchEncoder enc = new BatchEncoder(ctx);
        BfvDecryptor dec = new BfvDecryptor(ctx, sk, ACCESS);
        BfvEncryptor sym = BfvEncryptor.symmetric(ctx, sk, ACCESS);
        long t = ctx.params().t();
        for (long x : new long[] {0, 1, t - 1, t / 2, (t + 1) / 2}) {
            long[] v = new long[ctx.n()];
            Arrays.fill(v, x);
            assertArrayEquals(v, enc.decode(dec.decrypt(sym.encryptSeeded(enc.encode(v)))), "all slots " + x);
            assertArrayEquals(v, enc.decode(dec.decrypt(sym.encrypt(enc.encodeScalar(x)))), "scalar " + x);
        }
        long[] s = {-(t - 1) / 2, (t - 1) / 2, -1, 0, 1};
        long[] got = enc.decode(dec.decrypt(sym.encrypt(enc.encodeSigned(s))));
        for (int i = 0; i < s.length; i++) assertEquals(Math.floorMod(s[i], t), got[i]);
    }

    @Test
    void theClientRunsWithoutGuavaOrFastutil() {
        // the module excludes both (a client jar should not carry them): nothing the client touches needs them
        for (String c :
                new String[] {"com.google.common.collect.ImmutableList", "it.unimi.dsi.fastutil.ints.Int2LongAVLTreeMap"
                })
            assertThrows(ClassNotFoundException.class, () -> Class.forName(c), c + " is on the client's class path");
        BfvContext ctx = BfvContext.of(BfvParameters.preset("seal4096"));
        assertTrue(ctx.nttDescription().startsWith("constant-time"));
    }

    @Test
    void constantTimeHelpersAreExactAtTheEdges() {
        long[] ms = {3, 1032193, (1L << 36) - 5, (1L << 61) - 1};
        SplittableRandom r = new SplittableRandom(7);
        for (long m : ms) {
            long[] xs = {0, 1, m - 1, m, m + 1, 2 * m - 1};
            for (long x : xs) assertEquals(x % m, ModArith.reduceOnce(x, m), x + " mod " + m);
            for (int i = 0; i < 1000; i++) {
                long a = r.nextLong(m), b = r.nextLong(m), w = r.nextLong(m);
                assertEquals((a + b) % m, Ct.add(a, b, m));
                assertEquals(Math.floorMod(a - b, m), Ct.sub(a, b, m));
                long x = r.nextLong() >>> r.nextInt(64);
                assertEquals(
                        new BigInteger(Long.toUnsignedString(x))
                                .multiply(BigInteger.valueOf(w))
                                .mod(BigInteger.valueOf(m))
                                .longValue(),
                        Ct.mulShoup(x, w, Ct.shoup(w, m), m));
                assertEquals(a > b ? -1L : 0L, Ct.gtMask(a, b));
                assertEquals(a >= b ? -1L : 0L, Ct.geMask(a, b));
            }
        }
    }

    @Test
    void sealStreamsStartAsSealsDo() {
        // set a's seeded ciphertext: the first 64 bytes of the BLAKE2Xb stream of its seed (params.json)
        byte[] seed = HexFormat.of()
                .parseHex("8a46a57e4013b5604638d1dfb3b866324d0e9e19776e5aa9a4e404c97920c37c"
                        + "15ebe91c89355f101432cc80a1cbf8eaba8641db502dc75002d6c148c906639d");
        SeedStream s = new SeedStream(PrngType.BLAKE2XB, seed, 0);
        assertEquals(0x80e819e187064819L, s.nextLong());
        assertEquals(0x63411a94e73af157L, s.nextLong());
        // a later block starts where the stream from 0 gets to
        SeedStream a = new SeedStream(PrngType.SHAKE256, seed, 0), b = new SeedStream(PrngType.SHAKE256, seed, 1);
        for (int i = 0; i < 512; i++) a.nextLong();
        assertEquals(a.nextLong(), b.nextLong());
    }

    @ParameterizedTest
    @ValueSource(ints = {8, 10})
    void aRejectedWordIsReplacedByTheNextWordAfterTheBulk(int logN) {
        // q ≈ 1.5·2^59 leaves (2^64 − 1) mod q ≈ q/3, so about 1.5 % of the words are rejected; the bulk
        // of 8·N bytes ends inside a 4096-byte block for N = 256 and on a block boundary for N = 1024
        int n = 1 << logN;
        long q = (3L << 58) + 1;
        while (!Primes.isPrime(q)) q += 2L * n;
        long t = Primes.nttPrimes(logN, 17, 1).getFirst();
        BfvContext ctx = BfvContext.of(
                BfvParameters.insecure(n, t, q, Primes.nttPrimes(logN, 40, 1).getFirst()));
        byte[] seed = new byte[64];
        seed[0] = 7;
        UniformSampler s = new UniformSampler(ctx, 1, PrngType.SHAKE256, seed);
        long[] got = new long[n];
        s.next(got);
        SeedStream bulk = new SeedStream(PrngType.SHAKE256, seed, 0),
                after = new SeedStream(PrngType.SHAKE256, seed, 0);
        for (int i = 0; i < n; i++) after.nextLong();
        long max = -1L - Long.remainderUnsigned(-1L, q) - 1;
        int rejected = 0;
        for (int i = 0; i < n; i++) {
            long x = bulk.nextLong();
            while (Long.compareUnsigned(x, max) >= 0) {
                x = after.nextLong();
                rejected++;
            }
            assertEquals(Long.remainderUnsigned(x, q), got[i], "coefficient " + i);
        }
        assertTrue(rejected > 0, "no word was rejected at N = " + n + "; pick another seed");
    }

    @Test
    void badParametersAndOperandsAreNamed() {
        assertThrows(
                InvalidBfvParametersException.class,
                () -> BfvParameters.of(4096, 1032193, 68719403009L, 68719230977L, 137438822401L, 137438691329L));
        assertThrows(InvalidBfvParametersException.class, () -> BfvParameters.insecure(1000, 17, 12289, 40961));
        assertThrows(InvalidBfvParametersException.class, () -> BfvParameters.insecure(1024, 17, 12289));
        assertThrows(InvalidBfvParametersException.class, () -> BfvParameters.insecure(1024, 17, 12289, 12289));
        assertThrows(InvalidBfvParametersException.class, () -> BfvParameters.insecure(1024, 1L << 61, 12289, 40961));
        assertThrows(InvalidBfvParametersException.class, () -> BfvParameters.preset("seal2048"));
        BfvContext ctx = BfvContext.of(BfvParameters.preset("small4096"));
        BatchEncoder enc = new BatchEncoder(ctx);
        assertThrows(
                BfvOperandException.class,
                () -> enc.encode(new long[] {ctx.params().t()}));
        assertThrows(BfvOperandException.class, () -> enc.encode(new long[ctx.n() + 1]));
        BfvContext other = BfvContext.of(BfvParameters.preset("seal4096"));
        BfvSecretKey sk = new BfvKeyGenerator(other).secretKey();
        assertThrows(BfvOperandException.class, () -> new BfvDecryptor(ctx, sk, ACCESS));
        assertThrows(BfvOperandException.class, () -> BfvEncryptor.symmetric(other, sk, null));
        assertThrows(
                BfvOperandException.class,
                () -> BfvEncryptor.withPublicKey(other, new BfvKeyGenerator(other).publicKey(sk, ACCESS))
                        .encryptSeeded(new BatchEncoder(other).encodeScalar(1)));
        BfvCiphertext ct = BfvEncryptor.symmetric(ctx, new BfvKeyGenerator(ctx).secretKey(), ACCESS)
                .encryptSeeded(enc.encodeScalar(1));
        assertThrows(BfvOperandException.class, () -> ct.limb(0, 2));
        assertThrows(BfvOperandException.class, () -> ct.limb(2, 0));
        assertThrows(BfvOperandException.class, () -> enc.encodeScalar(1).coefficient(4096));
        assertThrows(BfvOperandException.class, () -> ctx.params().prime(3));
        BfvSecretKey gone = new BfvKeyGenerator(ctx).secretKey();
        BfvEncryptor before = BfvEncryptor.symmetric(ctx, gone, ACCESS);
        gone.destroy();
        assertThrows(BfvOperandException.class, () -> before.encrypt(enc.encodeScalar(1)));
        assertThrows(BfvOperandException.class, () -> new BfvKeyGenerator(ctx).publicKey(gone, ACCESS));
        assertThrows(BfvOperandException.class, () -> before.encryptSeeded(enc.encodeScalar(1), null));
        assertThrows(
                InvalidBfvParametersException.class, () -> BfvParameters.insecure(1024, 40961, 1099510054913L, 40961));
        assertTrue(BfvParameters.preset("seal16384").secure());
        assertEquals(438, BfvParameters.preset("seal16384").totalPrimeBits());
        // SEAL's PlainModulus::Batching(16384, 20): the largest 20-bit prime ≡ 1 mod 2N, so the preset batches
        for (String name : new String[] {"seal4096", "seal8192", "seal16384", "small4096"}) {
            BfvParameters p = BfvParameters.preset(name);
            assertEquals(1, p.t() % (2L * p.n()), name + ": t ≡ 1 mod 2N");
        }
        assertEquals(786433, BfvParameters.preset("seal16384").t());
    }
}
