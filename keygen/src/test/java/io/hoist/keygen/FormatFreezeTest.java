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
 * The noise-bearing digests (public, relinearization, Galois keys, the store, the ciphertexts) changed on
 * 2026-12-08 with the constant-time Gaussian sampler; the bytes' layout did not, so no version bump: a
 * seed expands only the uniform part, and the noise is inside the stored b either way.
 */
class FormatFreezeTest {
    static final Map<String, String> GOLDEN = Map.ofEntries(
            Map.entry("parameters", "d76919538303fb062bea1f002469c4803291f308f255db319afaa5268a55a5f1"),
            Map.entry("secretKey", "6b1fabb375925fece84adf3797a8f75a373fe52713819ba1b53c5ae59f905823"),
            Map.entry("publicKey", "f3ac3f73497d88a5c26a8bdb1186252586d756aeaf7944651455c0ada8ae2dda"),
            Map.entry("relinearizationKey", "2502914bfd0b3f15fb813a88a9b99161604a9b6ea5546d4cf572f77e9730e7b1"),
            Map.entry("relinearizationKeySeeded", "85b9759a2b913a3186453e01abd7c74dd26c66832e4fa905030712f502d08e2a"),
            Map.entry("galoisKey", "a7fffc94d2e466b30b0a85b8e5ed26f9770d213fde2edad95ba1b565dbd7cac5"),
            Map.entry("galoisKeySeeded", "92e2c9c73c35f026e0a0a5d4c5523f227451623652c1e5ed545528fd5816d092"),
            Map.entry("keyStore", "56c2be33e3e913e919a7d351bb95b071c9901f79e2357bf4350e677fac1fd9a5"),
            Map.entry("plaintext", "7092a7553905951cd0a6d8b7d96c936a3d841dafd95af76d9cbc52fdcb02bef3"),
            Map.entry("ciphertext", "1c59dbe9413ee8f91a04c5d61e8d310ed098f15ab09892ce61f5554a1772b528"),
            Map.entry("seededCiphertext", "621c1bdf5f42364886299b4ef3d332fef7d61fdc7080f3ccb500a91aa8e6f172"));

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
