package io.hoist.bfv.seal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hoist.InsecureSecretKeyAccess;
import io.hoist.bfv.BatchEncoder;
import io.hoist.bfv.BfvCiphertext;
import io.hoist.bfv.BfvContext;
import io.hoist.bfv.BfvDecryptor;
import io.hoist.bfv.BfvEvaluator;
import io.hoist.bfv.BfvParameters;
import io.hoist.bfv.BfvPlaintext;
import io.hoist.bfv.BfvPublicKey;
import io.hoist.bfv.BfvSecretKey;
import io.hoist.bfv.PrngType;
import io.hoist.ring.ConstantTimeNtt;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files written by Microsoft SEAL 4.4.3 (src/test/resources/seal-vectors, see its README): every one
 * is read, decrypted and decoded to the documented values with SEAL's noise budgets, and re-created
 * byte for byte where SEAL's output is deterministic (parameters, keys, plaintexts, the expansion of
 * seeded ciphertexts, add, negate, multiply_plain). Where a file was left out (set b), its SHA-256
 * from params.json is the oracle.
 */
class SealVectorsTest {
    private static final Map<String, Map<String, Integer>> BUDGETS = Map.of(
            "a_n4096_default", Map.of("ct_pk", 45, "ct_sym", 47, "ct_add", 45, "ct_mul_plain", 21, "ct_negate", 45),
            "b_n8192_default", Map.of("ct_pk", 146, "ct_sym", 149),
            "c_n4096_q30x3", Map.of("ct_pk", 33, "ct_sym", 35, "ct_add", 33, "ct_mul_plain", 8, "ct_negate", 33));

    private static final Map<String, byte[]> CACHE = new HashMap<>();

    static byte[] file(String set, String name) {
        return CACHE.computeIfAbsent(set + "/" + name, k -> {
            try (InputStream in = SealVectorsTest.class.getResourceAsStream("/seal-vectors/" + k)) {
                return in == null ? null : in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    static JsonNode json(String set) throws IOException {
        return new ObjectMapper().readTree(file(set, "params.json"));
    }

    static String sha256(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static long[] v(int n, long t) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) v[i] = ((long) i * 7919 + 13) % t;
        return v;
    }

    static long[] w(int n, long t) {
        long[] w = new long[n];
        for (int i = 0; i < n; i++) w[i] = (3L * i + 1) % t;
        return w;
    }

    /** The bytes SEAL wrote, or (for a file left out) an assertion on the SHA-256 params.json gives. */
    static void assertSameAsSeal(String set, String name, byte[] ours) throws IOException {
        byte[] seal = file(set, name);
        if (seal != null) assertArrayEquals(seal, ours, set + "/" + name);
        else assertEquals(json(set).get("files").get(name).get("sha256").asText(), sha256(ours), set + "/" + name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a_n4096_default", "b_n8192_default", "c_n4096_q30x3"})
    void parametersKeysAndParmsIdsMatchSeal(String set) throws IOException {
        JsonNode j = json(set);
        BfvParameters p = SealFormat.readParameters(file(set, "params.seal"));
        assertEquals(j.get("N").asInt(), p.n());
        assertEquals(j.get("t").asLong(), p.t());
        for (int i = 0; i < p.keyLevelSize(); i++)
            assertEquals(j.get("q").get(i).asLong(), p.prime(i));
        assertTrue(p.secure(), "SEAL accepted it at 128 bits");
        assertArrayEquals(file(set, "params.seal"), SealFormat.write(p));
        assertEquals(j.get("parms_id").get("bytes_hex").asText(), SealFormat.hex(SealFormat.parmsId(p, false)));
        assertEquals(
                j.get("parms_id_key_level").get("bytes_hex").asText(), SealFormat.hex(SealFormat.parmsId(p, true)));

        BfvContext ctx = BfvContext.of(p);
        var access = InsecureSecretKeyAccess.get();
        BfvSecretKey sk = SealFormat.readSecretKey(ctx, file(set, "secret.seal"), access);
        assertArrayEquals(file(set, "secret.seal"), SealFormat.write(sk, access));
        // the NTT form is SEAL's: its inverse on every prime is the ternary s of params.json
        String s = j.get("secret_key").get("coefficients").asText();
        for (int q = 0; q < p.keyLevelSize(); q++) {
            long[] c = sk.nttLimb(q, access);
            ConstantTimeNtt.of(p.logN(), p.prime(q)).inverse(c);
            for (int i = 0; i < p.n(); i++) {
                long want = s.charAt(i) == '+' ? 1 : s.charAt(i) == '-' ? p.prime(q) - 1 : 0;
                assertEquals(want, c[i], "s_" + i + " mod q_" + q);
            }
        }
        BfvPublicKey pk = SealFormat.readPublicKey(ctx, file(set, "public.seal"));
        assertArrayEquals(file(set, "public.seal"), SealFormat.write(pk));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a_n4096_default", "b_n8192_default", "c_n4096_q30x3"})
    void batchEncodingIsSealsByteForByte(String set) {
        BfvContext ctx = BfvContext.of(SealFormat.readParameters(file(set, "params.seal")));
        BatchEncoder enc = new BatchEncoder(ctx);
        int n = ctx.n();
        long t = ctx.params().t();
        assertArrayEquals(file(set, "plain.seal"), SealFormat.write(enc.encode(v(n, t))));
        assertArrayEquals(file(set, "plain_w.seal"), SealFormat.write(enc.encode(w(n, t))));
        assertArrayEquals(v(n, t), enc.decode(SealFormat.readPlaintext(ctx, file(set, "plain.seal"))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a_n4096_default", "b_n8192_default", "c_n4096_q30x3"})
    void sealCiphertextsDecryptWithSealsNoiseBudgets(String set) throws IOException {
        BfvContext ctx = BfvContext.of(SealFormat.readParameters(file(set, "params.seal")));
        var access = InsecureSecretKeyAccess.get();
        BfvDecryptor dec =
                new BfvDecryptor(ctx, SealFormat.readSecretKey(ctx, file(set, "secret.seal"), access), access);
        BatchEncoder enc = new BatchEncoder(ctx);
        int n = ctx.n();
        long t = ctx.params().t();
        long[] v = v(n, t), w = w(n, t);
        Map<String, long[]> expect = new HashMap<>();
        long[] twice = new long[n], prod = new long[n], neg = new long[n];
        for (int i = 0; i < n; i++) {
            twice[i] = 2 * v[i] % t;
            prod[i] = v[i] * w[i] % t;
            neg[i] = (t - v[i]) % t;
        }
        for (String f :
                new String[] {"ct_pk", "ct_sym", "ct_sym_seeded", "ct_sym_seeded_expanded", "ct_sym_seeded_shake"})
            expect.put(f, v);
        expect.put("ct_add", twice);
        expect.put("ct_mul_plain", prod);
        expect.put("ct_negate", neg);
        int read = 0;
        for (var e : expect.entrySet()) {
            byte[] bytes = file(set, e.getKey() + ".seal");
            if (bytes == null) continue;
            read++;
            BfvCiphertext ct = SealFormat.readCiphertext(ctx, bytes);
            assertEquals(e.getKey().contains("seeded") && !e.getKey().contains("expanded"), ct.isSeeded(), e.getKey());
            assertArrayEquals(e.getValue(), enc.decode(dec.decrypt(ct)), set + "/" + e.getKey());
            String budgetKey = e.getKey().startsWith("ct_sym") ? "ct_sym" : e.getKey();
            int budget = json(set)
                    .get("ciphertexts")
                    .get(e.getKey() + ".seal")
                    .get("noise_budget_bits")
                    .asInt();
            assertEquals(budget, dec.invariantNoiseBudget(ct), set + "/" + e.getKey() + " noise budget");
            assertEquals(BUDGETS.get(set).get(budgetKey), budget);
            assertArrayEquals(bytes, SealFormat.write(ct), "written back byte for byte: " + e.getKey());
        }
        assertTrue(read >= 3, "files read: " + read);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a_n4096_default", "b_n8192_default", "c_n4096_q30x3"})
    void seededCiphertextsExpandAsSealsLoaderDoes(String set) throws IOException {
        BfvContext ctx = BfvContext.of(SealFormat.readParameters(file(set, "params.seal")));
        for (String f : new String[] {"ct_sym_seeded.seal", "ct_sym_seeded_shake.seal"}) {
            BfvCiphertext ct = SealFormat.readCiphertext(ctx, file(set, f));
            JsonNode seed = json(set).get("ciphertexts").get(f).get("seed");
            assertEquals(seed.get("prng_type_byte").asInt(), ct.seedType().code());
            assertEquals(f.contains("shake") ? PrngType.SHAKE256 : PrngType.BLAKE2XB, ct.seedType());
            assertEquals(seed.get("seed_hex").asText(), HexFormat.of().formatHex(ct.seed()));
            BfvCiphertext full = ct.expand();
            int n = ctx.n(), k = ctx.dataLevelSize();
            ByteBuffer c1 = ByteBuffer.allocate(8 * n * k).order(ByteOrder.LITTLE_ENDIAN);
            for (int j = 0; j < k; j++) for (long x : full.limb(1, j)) c1.putLong(x);
            assertEquals(seed.get("expanded_c1").get("sha256_of_c1_u64le").asText(), sha256(c1.array()), set + "/" + f);
            if (!f.contains("shake")) assertSameAsSeal(set, "ct_sym_seeded_expanded.seal", SealFormat.write(full));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"a_n4096_default", "b_n8192_default", "c_n4096_q30x3"})
    void theServerOperationsGiveSealsBytes(String set) throws IOException {
        BfvContext ctx = BfvContext.of(SealFormat.readParameters(file(set, "params.seal")));
        BfvEvaluator ev = new BfvEvaluator(ctx);
        BfvCiphertext pk = SealFormat.readCiphertext(ctx, file(set, "ct_pk.seal"));
        BfvPlaintext pw = SealFormat.readPlaintext(ctx, file(set, "plain_w.seal"));
        assertSameAsSeal(set, "ct_negate.seal", SealFormat.write(ev.negate(pk)));
        assertSameAsSeal(set, "ct_mul_plain.seal", SealFormat.write(ev.multiplyPlain(pk, pw)));
        byte[] sym = file(set, "ct_sym.seal");
        if (sym != null) {
            BfvCiphertext s = SealFormat.readCiphertext(ctx, sym);
            assertSameAsSeal(set, "ct_add.seal", SealFormat.write(ev.add(pk, s)));
            assertArrayEquals(SealFormat.write(pk), SealFormat.write(ev.sub(ev.add(pk, s), s)));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"a_n4096_default"})
    void foreignOrDamagedObjectsAreRefusedByName(String set) {
        BfvParameters p = SealFormat.readParameters(file(set, "params.seal"));
        BfvContext ctx = BfvContext.of(p);
        BfvContext other = BfvContext.of(SealFormat.readParameters(file("c_n4096_q30x3", "params.seal")));
        byte[] ct = file(set, "ct_pk.seal");
        assertThrows(ParmsIdMismatchException.class, () -> SealFormat.readCiphertext(other, ct));
        byte[] v45 = ct.clone();
        v45[4] = 5;
        assertThrows(UnsupportedSealVersionException.class, () -> SealFormat.readCiphertext(ctx, v45));
        byte[] zstd = ct.clone();
        zstd[5] = 2;
        assertThrows(UnsupportedCompressionException.class, () -> SealFormat.readCiphertext(ctx, zstd));
        byte[] magic = ct.clone();
        magic[0] = 0;
        assertThrows(SealFormatException.class, () -> SealFormat.readCiphertext(ctx, magic));
        byte[] cut = Arrays.copyOf(ct, ct.length - 8);
        assertThrows(SealFormatException.class, () -> SealFormat.readCiphertext(ctx, cut));
        byte[] big = ct.clone();
        ByteBuffer.wrap(big).order(ByteOrder.LITTLE_ENDIAN).putLong(113 + 8, -1L); // residue ≥ q
        assertThrows(SealFormatException.class, () -> SealFormat.readCiphertext(ctx, big));
        byte[] seeded = file(set, "ct_sym_seeded.seal").clone();
        seeded[65665] = 7;
        assertThrows(SealFormatException.class, () -> SealFormat.readCiphertext(ctx, seeded));
        assertThrows(
                SealFormatException.class, () -> SealFormat.readObject(new ByteArrayInputStream(ct), ct.length - 1L));
    }
}
