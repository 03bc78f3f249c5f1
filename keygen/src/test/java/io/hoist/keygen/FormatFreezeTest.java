package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.hash.Hashing;
import io.hoist.InsecureSecretKeyAccess;
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
 * The five key digests changed on 2026-12-02 with per-limb uniform streams: seeded keys now carry
 * the header bit LIMB_STREAMS, and files without it still read the old way (SeededKeyStorageTest).
 */
class FormatFreezeTest {
    static final Map<String, String> GOLDEN = Map.ofEntries(
            Map.entry("parameters", "d76919538303fb062bea1f002469c4803291f308f255db319afaa5268a55a5f1"),
            Map.entry("secretKey", "6b1fabb375925fece84adf3797a8f75a373fe52713819ba1b53c5ae59f905823"),
            Map.entry("publicKey", "1e38d19426f75d69ae5fb9310e4fd1619e05546b05e3c9f05ec883c71545f85a"),
            Map.entry("relinearizationKey", "2f0f0683701f13384c2bb38140e9dc56871dda41c8da3e1308ae8f39a6a0902d"),
            Map.entry("relinearizationKeySeeded", "9ff80f0327f57f1a04ec1b450295db886b94721e57314015d132ebd9ace23bc6"),
            Map.entry("galoisKey", "8838df5f40f71375c30b4a145e52687feb412a0264af92ebbffeab53db40c9a2"),
            Map.entry("galoisKeySeeded", "6dcbab44e1e0994e38f1add3cae74c9cdaaf053ae89efabad062e71a4aae5796"),
            Map.entry("keyStore", "412c78f7ff52d00a596b5276792ecc8665839a6a3ca7a2b649416bf2a98bd836"),
            Map.entry("plaintext", "7092a7553905951cd0a6d8b7d96c936a3d841dafd95af76d9cbc52fdcb02bef3"),
            Map.entry("ciphertext", "71adce6064aab31d63f274696df78fed69587a18581196d6b1acbe95274b6f35"),
            Map.entry("seededCiphertext", "517d427f5befade041edfb921819e67df069073eb3ef5213b5c4334339e5751d"));

    @Test
    void everyObjectKindHasItsFrozenDigest(@TempDir Path dir) throws Exception {
        Map<String, String> got = new LinkedHashMap<>();
        try (AutoCloseable seeds = Prng.insecureDeterministicSeedsForTesting(20261201L)) {
            CkksParameters p = parameters();
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
            got.put("secretKey", sha(KeySerialization.writeSecretKey(sk, InsecureSecretKeyAccess.get())));
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

    /** The frozen objects' parameters (also what the pre-limb-stream key file in the test resources was made under). */
    static CkksParameters parameters() {
        return CkksParameters.builder()
                .name("freeze")
                .logN(10)
                .logQ(40, 30)
                .logP(45)
                .scale(0x1p30)
                .allowInsecure()
                .build();
    }

    static String sha(byte[] b) {
        return Hashing.sha256().hashBytes(b).toString();
    }
}
