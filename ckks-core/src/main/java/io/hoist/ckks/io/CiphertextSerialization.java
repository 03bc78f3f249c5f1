package io.hoist.ckks.io;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.Plaintext;
import io.hoist.ckks.RawAccess;
import io.hoist.ckks.SeededCiphertext;
import io.hoist.random.Prng;
import io.hoist.ring.Domain;
import io.hoist.ring.RnsPoly;
import java.nio.ByteBuffer;

/**
 * Ciphertexts, seeded symmetric ciphertexts and plaintexts in the Hoist binary format. The level
 * and scale are in the header. Bodies: ciphertext — u8 degree (1 or 2), then degree + 1 polynomials
 * over Q at the level; seeded ciphertext — c_0, then the 32-byte seed of c_1; plaintext — its
 * polynomial (domain in the header flags).
 */
public final class CiphertextSerialization {
    private CiphertextSerialization() {}

    public static byte[] write(Ciphertext ct) {
        CkksParameters p = ct.params();
        ByteBuffer b = Envelope.start(
                ObjectKind.CIPHERTEXT,
                Header.NTT,
                ParametersSerialization.fingerprint(p),
                ct.level(),
                ct.scale(),
                1 + (ct.degree() + 1) * KeySerialization.qBytes(p, ct.level()));
        b.put((byte) ct.degree());
        for (int i = 0; i <= ct.degree(); i++) Envelope.writeLimbs(b, ct.poly(i, RawAccess.get()));
        return Envelope.finish(b);
    }

    public static Ciphertext readCiphertext(byte[] data, CkksContext ctx) {
        CkksParameters p = ctx.params();
        Header h = leveledHeader(data, ObjectKind.CIPHERTEXT, p);
        if (data.length < Header.SIZE + 1) throw new MalformedDataException("truncated ciphertext");
        int degree = Byte.toUnsignedInt(data[Header.SIZE]);
        if (degree != 1 && degree != 2) throw new MalformedDataException("ciphertext degree " + degree + " (1 or 2)");
        ByteBuffer b = Envelope.open(
                data, h, ObjectKind.CIPHERTEXT, p, 1 + (degree + 1) * KeySerialization.qBytes(p, h.level()));
        b.get();
        RnsPoly[] polys = new RnsPoly[degree + 1];
        for (int i = 0; i <= degree; i++) polys[i] = KeySerialization.readQ(b, ctx, h.level(), "ciphertext");
        return Ciphertext.wrap(RawAccess.get(), p, h.scale(), polys);
    }

    public static byte[] write(SeededCiphertext ct) {
        CkksParameters p = ct.params();
        ByteBuffer b = Envelope.start(
                ObjectKind.SEEDED_CIPHERTEXT,
                Header.NTT | Header.SEEDED,
                ParametersSerialization.fingerprint(p),
                ct.level(),
                ct.scale(),
                KeySerialization.qBytes(p, ct.level()) + Prng.SEED_BYTES);
        Envelope.writeLimbs(b, ct.c0(RawAccess.get()));
        b.put(ct.seed());
        return Envelope.finish(b);
    }

    public static SeededCiphertext readSeededCiphertext(byte[] data, CkksContext ctx) {
        CkksParameters p = ctx.params();
        Header h = leveledHeader(data, ObjectKind.SEEDED_CIPHERTEXT, p);
        ByteBuffer b = Envelope.open(
                data, h, ObjectKind.SEEDED_CIPHERTEXT, p, KeySerialization.qBytes(p, h.level()) + Prng.SEED_BYTES);
        RnsPoly c0 = KeySerialization.readQ(b, ctx, h.level(), "seeded ciphertext");
        byte[] seed = new byte[Prng.SEED_BYTES];
        b.get(seed);
        return SeededCiphertext.wrap(RawAccess.get(), p, c0, seed, h.scale());
    }

    public static byte[] write(Plaintext pt) {
        CkksParameters p = pt.params();
        int flags = pt.poly(RawAccess.get()).domain() == Domain.NTT ? Header.NTT : 0;
        ByteBuffer b = Envelope.start(
                ObjectKind.PLAINTEXT,
                flags,
                ParametersSerialization.fingerprint(p),
                pt.level(),
                pt.scale(),
                KeySerialization.qBytes(p, pt.level()));
        Envelope.writeLimbs(b, pt.poly(RawAccess.get()));
        return Envelope.finish(b);
    }

    public static Plaintext readPlaintext(byte[] data, CkksContext ctx) {
        CkksParameters p = ctx.params();
        Header h = leveledHeader(data, ObjectKind.PLAINTEXT, p);
        ByteBuffer b = Envelope.open(data, h, ObjectKind.PLAINTEXT, p, KeySerialization.qBytes(p, h.level()));
        RnsPoly poly = ctx.ringQ()
                .wrap(
                        Envelope.readLimbs(b, h.level() + 1, ctx.n(), Envelope.qPrimes(p, h.level()), "plaintext"),
                        (h.flags() & Header.NTT) != 0 ? Domain.NTT : Domain.COEFFICIENT);
        return Plaintext.wrap(RawAccess.get(), p, poly, h.scale());
    }

    /** The header of a {@code kind} object, its level and scale checked against {@code p} before the body is read. */
    private static Header leveledHeader(byte[] data, ObjectKind kind, CkksParameters p) {
        Header h = Envelope.header(data);
        if (h.kind() != kind)
            throw new MalformedDataException(
                    "expected a " + kind.label() + ", found a " + h.kind().label());
        Envelope.checkLevel(h, p, 0);
        checkScale(h, p);
        return h;
    }

    static void checkScale(Header h, CkksParameters p) {
        if (!(h.scale() > 0) || Double.isInfinite(h.scale()))
            throw new MalformedDataException("scale " + h.scale() + " is not a finite positive number");
    }
}
