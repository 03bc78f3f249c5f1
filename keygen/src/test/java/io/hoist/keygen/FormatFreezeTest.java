package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.hash.Hashing;
import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.Encoder;
import io.hoist.ckks.Encryptor;
import io.hoist.ckks.Plaintext;
import io.hoist.ckks.PublicKey;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.io.CiphertextSerialization;
import io.hoist.ckks.io.KeySerialization;
import io.hoist.ckks.io.KeyStore;
import io.hoist.ckks.io.ParametersSerialization;
import io.hoist.random.Prng;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Freezes the wire format (as Lattigo's TestRLWEConstSerialization does): every object kind of the
 * scheme, made from fixed seeds on one thread, has the SHA-256 below. A change of any byte of any
 * format — or of the sampling that fills it — fails here and must come with a format version bump.
 */
class FormatFreezeTest {
    static final Map<String, String> GOLDEN = Map.ofEntries(
            Map.entry("parameters", "d76919538303fb062bea1f002469c4803291f308f255db319afaa5268a55a5f1"),
            Map.entry("secretKey", "6b1fabb375925fece84adf3797a8f75a373fe52713819ba1b53c5ae59f905823"),
            Map.entry("publicKey", "1e38d19426f75d69ae5fb9310e4fd1619e05546b05e3c9f05ec883c71545f85a"),
            Map.entry("relinearizationKey", "dda8571d4f234137f821adc09b0e30bc789bf194f3dc09b525bbdf45544881f7"),
            Map.entry("relinearizationKeySeeded", "4d5dd7c0898e1e2385f769c3b87643de6b9819adb247191545cfc7b30e917465"),
            Map.entry("galoisKey", "035ba8a54cbfab1b19cd926ee250b045ef133ccc9ae352923540d34775f78644"),
            Map.entry("galoisKeySeeded", "9670cd48175c7ac88d57f228509fc9f5858ff364599f9ce87a907282bd3df279"),
            Map.entry("keyStore", "70feb823066721cee0f40ed4d093a265d04a98fbbcb8d7c623a7b9005a649db7"),
            Map.entry("plaintext", "7092a7553905951cd0a6d8b7d96c936a3d841dafd95af76d9cbc52fdcb02bef3"),
            Map.entry("ciphertext", "71adce6064aab31d63f274696df78fed69587a18581196d6b1acbe95274b6f35"),
            Map.entry("seededCiphertext", "517d427f5befade041edfb921819e67df069073eb3ef5213b5c4334339e5751d"));

    @Test
    void everyObjectKindHasItsFrozenDigest(@TempDir Path dir) throws Exception {
        Map<String, String> got = new LinkedHashMap<>();
        try (AutoCloseable seeds = Prng.insecureDeterministicSeedsForTesting(20261201L)) {
            CkksParameters p = CkksParameters.builder()
                    .name("freeze")
                    .logN(10)
                    .logQ(40, 30)
                    .logP(45)
                    .scale(0x1p30)
                    .allowInsecure()
                    .build();
            CkksContext ctx = CkksContext.create(p); // one thread: the seeds are drawn in program order
            KeyGenerator kg = new KeyGenerator(ctx);
            SecretKey sk = kg.genSecretKey();
            PublicKey pk = kg.genPublicKey(sk);
            var rlk = kg.genRelinearizationKey(sk);
            var gk = kg.genGaloisKey(sk, p.galoisElementForRotation(1), p.maxLevel());
            Path store = dir.resolve("k.hks");
            KeyStore.write(store, kg.genRotationKeysForSteps(sk, p.maxLevel(), new int[] {1, 2}, true), true);
            Encoder enc = new Encoder(ctx);
            Plaintext pt = enc.encode(
                    ComplexVector.random(new SplittableRandom(7), p.slots()), p.maxLevel(), p.defaultScale());
            Ciphertext ct = Encryptor.withPublicKey(ctx, pk).encrypt(pt);
            got.put("parameters", sha(ParametersSerialization.write(p)));
            got.put("secretKey", sha(KeySerialization.writeSecretKey(sk)));
            got.put("publicKey", sha(KeySerialization.write(pk)));
            got.put("relinearizationKey", sha(KeySerialization.write(rlk, false)));
            got.put("relinearizationKeySeeded", sha(KeySerialization.write(rlk, true)));
            got.put("galoisKey", sha(KeySerialization.write(gk, false)));
            got.put("galoisKeySeeded", sha(KeySerialization.write(gk, true)));
            got.put("keyStore", sha(Files.readAllBytes(store)));
            got.put("plaintext", sha(CiphertextSerialization.write(pt)));
            got.put("ciphertext", sha(CiphertextSerialization.write(ct)));
            got.put(
                    "seededCiphertext",
                    sha(CiphertextSerialization.write(
                            Encryptor.withSecretKey(ctx, sk).encryptSeeded(pt))));
        }
        String all = got.entrySet().stream()
                .map(e -> "Map.entry(\"" + e.getKey() + "\", \"" + e.getValue() + "\")")
                .collect(Collectors.joining(",\n"));
        for (var e : got.entrySet())
            assertEquals(GOLDEN.get(e.getKey()), e.getValue(), e.getKey() + " digest; all of this run:\n" + all);
    }

    static String sha(byte[] b) {
        return Hashing.sha256().hashBytes(b).toString();
    }
}
