package io.hoist.ckks.io;

import io.hoist.SecretKeyAccess;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.GaloisKey;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.PublicKey;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.RelinearizationKey;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.SwitchingKey;
import io.hoist.ckks.WrongOperandException;
import io.hoist.random.Prng;
import io.hoist.ring.Domain;
import io.hoist.ring.RnsPoly;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * Keys in the Hoist binary format, apart from the key classes (as Tink keeps its
 * {@code *ProtoSerialization}). The secret key has a file kind of its own and no other kind ever
 * holds secret material. Switching keys (relinearization, Galois) are written in full or seeded:
 * seeded keys store the 256-bit seed of their uniform parts instead of the parts (about half the
 * bytes), and the reader expands them again.
 *
 * <p>Bodies (limbs as little-endian u64, NTT domain, Montgomery form for switching keys): secret key
 * — s over QP at the top level; public key — b, a over Q at the top level; switching key at level ℓ
 * — [u64 Galois element (Galois keys)] then, for each of the β digits, b_t over QP, then either the
 * 32-byte seed (seeded) or the a_t over QP.
 */
public final class KeySerialization {
    private KeySerialization() {}

    // ---------------------------------------------------------------- secret key

    /** The secret key's own file: handle it as secret material ({@code access}: the caller reaches s, as it says). */
    public static byte[] writeSecretKey(SecretKey sk, SecretKeyAccess access) {
        return writeSecretKey(sk, null, access);
    }

    /** The secret key's own file carrying {@code pairId} (null: none), the id of the key store written with it. */
    public static byte[] writeSecretKey(SecretKey sk, KeyPairId pairId, SecretKeyAccess access) {
        Objects.requireNonNull(sk, "the secret key is null");
        Objects.requireNonNull(access, "access is null");
        CkksParameters p = sk.params();
        int prefix = pairId == null ? 0 : KeyPairId.BYTES;
        ByteBuffer b = Envelope.start(
                ObjectKind.SECRET_KEY,
                Header.NTT | (pairId == null ? 0 : Header.PAIRED),
                ParametersSerialization.fingerprint(p),
                p.maxLevel(),
                0,
                prefix + qpBytes(p, p.maxLevel()));
        if (pairId != null) b.put(pairId.toBytes());
        PolyQP s = sk.material(access);
        Envelope.writeLimbs(b, s.q());
        Envelope.writeLimbs(b, s.p());
        return Envelope.finish(b);
    }

    /** A secret key from its file ({@code access}: the caller takes the secret material it reads). */
    public static SecretKey readSecretKey(byte[] data, CkksContext ctx, SecretKeyAccess access) {
        Objects.requireNonNull(access, "access is null");
        CkksParameters p = ctx.params();
        Header h = Envelope.header(data);
        if (h.kind() == ObjectKind.SECRET_KEY && h.level() != p.maxLevel())
            throw new MalformedDataException("secret key at level " + h.level() + ", expected " + p.maxLevel());
        ByteBuffer b = Envelope.open(
                data, h, ObjectKind.SECRET_KEY, p, (h.paired() ? KeyPairId.BYTES : 0) + qpBytes(p, p.maxLevel()));
        if (h.paired()) b.position(KeyPairId.BYTES);
        return new SecretKey(p, readQP(b, ctx, p.maxLevel(), "secret key"), access);
    }

    /**
     * The key-pair id a secret-key file carries, if any. Reads the header and the id only; call
     * {@link #readSecretKey} for the checked key.
     */
    public static Optional<KeyPairId> secretKeyPairId(byte[] data) {
        Header h = Envelope.header(data);
        if (h.kind() != ObjectKind.SECRET_KEY)
            throw new MalformedDataException(
                    "expected a secret key, found a " + h.kind().label());
        if (!h.paired()) return Optional.empty();
        if (data.length < Header.SIZE + KeyPairId.BYTES)
            throw new MalformedDataException("truncated: " + data.length + " bytes");
        return Optional.of(KeyPairId.of(Arrays.copyOfRange(data, Header.SIZE, Header.SIZE + KeyPairId.BYTES)));
    }

    // ---------------------------------------------------------------- public key

    public static byte[] write(PublicKey pk) {
        CkksParameters p = pk.params();
        int level = pk.b(RawAccess.get()).level();
        ByteBuffer b = Envelope.start(
                ObjectKind.PUBLIC_KEY,
                Header.NTT,
                ParametersSerialization.fingerprint(p),
                level,
                0,
                2 * qBytes(p, level));
        Envelope.writeLimbs(b, pk.b(RawAccess.get()));
        Envelope.writeLimbs(b, pk.a(RawAccess.get()));
        return Envelope.finish(b);
    }

    public static PublicKey readPublicKey(byte[] data, CkksContext ctx) {
        CkksParameters p = ctx.params();
        Header h = Envelope.header(data);
        if (h.kind() == ObjectKind.PUBLIC_KEY) Envelope.checkLevel(h, p, 0);
        ByteBuffer b = Envelope.open(data, h, ObjectKind.PUBLIC_KEY, p, 2 * qBytes(p, h.level()));
        RnsPoly pb = readQ(b, ctx, h.level(), "public key"), pa = readQ(b, ctx, h.level(), "public key");
        return new PublicKey(p, pb, pa);
    }

    // ---------------------------------------------------------------- switching keys

    public static byte[] write(RelinearizationKey rlk, boolean seeded) {
        return writeSwitching(ObjectKind.RELINEARIZATION_KEY, rlk.key(), 0, seeded);
    }

    public static RelinearizationKey readRelinearizationKey(byte[] data, CkksContext ctx) {
        return new RelinearizationKey(
                readSwitching(data, ctx, ObjectKind.RELINEARIZATION_KEY).key());
    }

    public static byte[] write(GaloisKey gk, boolean seeded) {
        return writeSwitching(ObjectKind.GALOIS_KEY, gk.key(), gk.galoisElement(), seeded);
    }

    public static GaloisKey readGaloisKey(byte[] data, CkksContext ctx) {
        return readSwitching(data, ctx, ObjectKind.GALOIS_KEY).galoisKey();
    }

    /** A switching key's body as read: its Galois element (0 for a relinearization key) and the key. */
    record Body(long galoisElement, SwitchingKey key) {
        GaloisKey galoisKey() {
            return new GaloisKey(galoisElement, key);
        }
    }

    private static byte[] writeSwitching(ObjectKind kind, SwitchingKey k, long galois, boolean seeded) {
        CkksParameters p = k.params();
        int flags = Header.NTT | (seeded ? Header.SEEDED | Header.LIMB_STREAMS : 0);
        ByteBuffer b = Envelope.start(
                kind,
                flags,
                ParametersSerialization.fingerprint(p),
                k.level(),
                0,
                switchingBytes(p, k.level(), kind, seeded));
        writeSwitchingBody(b, kind, k, galois, seeded);
        return Envelope.finish(b);
    }

    static void writeSwitchingBody(ByteBuffer b, ObjectKind kind, SwitchingKey k, long galois, boolean seeded) {
        if (seeded && k.seed() == null)
            throw new WrongOperandException(
                    "this key has no seed (it was read from a full or an old seeded file); write it in full");
        if (seeded) k.withStorage(KeyStorage.SEEDED); // refuses a key whose a parts are not its seed's
        if (kind == ObjectKind.GALOIS_KEY) b.putLong(galois);
        for (int t = 0; t < k.beta(); t++) {
            Envelope.writeLimbs(b, k.b(t, RawAccess.get()).q());
            Envelope.writeLimbs(b, k.b(t, RawAccess.get()).p());
        }
        if (seeded) {
            b.put(k.seed());
        } else {
            for (int t = 0; t < k.beta(); t++) {
                PolyQP a = k.storage() == KeyStorage.FULL ? k.a(t, RawAccess.get()) : k.a(t); // seeded: made again
                Envelope.writeLimbs(b, a.q());
                Envelope.writeLimbs(b, a.p());
            }
        }
    }

    private static Body readSwitching(byte[] data, CkksContext ctx, ObjectKind kind) {
        CkksParameters p = ctx.params();
        Header h = Envelope.header(data);
        if (h.kind() == kind) Envelope.checkLevel(h, p, 0);
        ByteBuffer b = Envelope.open(data, h, kind, p, switchingBytes(p, h.level(), kind, h.seeded()));
        return readSwitchingBody(b, ctx, kind, h.level(), h, KeyStorage.FULL);
    }

    /**
     * A switching key's body at {@code level}, length already checked, held as {@code storage} (SEEDED
     * only from a seeded file with limb streams: the caller checks). A seeded file without limb streams
     * (written before them) expands the old way and gives a key without a seed.
     */
    static Body readSwitchingBody(
            ByteBuffer b, CkksContext ctx, ObjectKind kind, int level, Header h, KeyStorage storage) {
        boolean seeded = h.seeded();
        CkksParameters p = ctx.params();
        long g = 0;
        if (kind == ObjectKind.GALOIS_KEY) {
            g = b.getLong();
            long twoN = 2L * p.n();
            if (g <= 1 || g >= twoN || (g & 1) == 0)
                throw new MalformedDataException("Galois element " + g + " is not an odd number in (1, 2N)");
        }
        int beta = p.beta(level);
        PolyQP[] bs = new PolyQP[beta], as;
        for (int t = 0; t < beta; t++) bs[t] = readQP(b, ctx, level, "switching key");
        byte[] seed = null;
        if (seeded) {
            seed = new byte[Prng.SEED_BYTES];
            b.get(seed);
            if (!h.limbStreams())
                return new Body(
                        g,
                        SwitchingKey.wrap(
                                RawAccess.get(), p, bs, SwitchingKey.legacyUniformParts(ctx, seed, level), null));
            if (storage == KeyStorage.SEEDED) return new Body(g, SwitchingKey.seeded(RawAccess.get(), p, bs, seed));
            as = SwitchingKey.uniformParts(ctx, seed, level);
        } else {
            as = new PolyQP[beta];
            for (int t = 0; t < beta; t++) as[t] = readQP(b, ctx, level, "switching key");
        }
        return new Body(g, SwitchingKey.wrap(RawAccess.get(), p, bs, as, seed));
    }

    /** Body bytes of a switching key of {@code kind} at {@code level}. */
    public static long switchingBytes(CkksParameters p, int level, ObjectKind kind, boolean seeded) {
        long digits = p.beta(level);
        long part = digits * qpBytes(p, level);
        return (kind == ObjectKind.GALOIS_KEY ? 8 : 0) + part + (seeded ? Prng.SEED_BYTES : part);
    }

    // ---------------------------------------------------------------- helpers

    static long qBytes(CkksParameters p, int level) {
        return 8L * (level + 1) * p.n();
    }

    static long qpBytes(CkksParameters p, int level) {
        return 8L * (level + 1 + p.alpha()) * p.n();
    }

    static RnsPoly readQ(ByteBuffer b, CkksContext ctx, int level, String what) {
        return ctx.ringQ()
                .wrap(
                        Envelope.readLimbs(b, level + 1, ctx.n(), Envelope.qPrimes(ctx.params(), level), what),
                        Domain.NTT);
    }

    static PolyQP readQP(ByteBuffer b, CkksContext ctx, int level, String what) {
        RnsPoly q = readQ(b, ctx, level, what);
        RnsPoly pp = ctx.ringP()
                .wrap(Envelope.readLimbs(b, ctx.alpha(), ctx.n(), ctx.params().pPrimes(), what), Domain.NTT);
        return PolyQP.of(q, pp);
    }
}
