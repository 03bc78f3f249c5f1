package io.hoist.ckks.io;

import com.google.common.hash.Hashing;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.SecretDistribution;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@link CkksParameters} in the Hoist binary format, and their fingerprint (SHA-256 of the
 * canonical encoding, without the cosmetic name), which every other object carries in its header.
 * Body: u8 logN, u8 logSlots, u16 |Q|, u16 |P|, the primes (u64), f64 default scale, u32 Hamming
 * weight (0: uniform ternary), f64 σ, u8 name length, the name (UTF-8, ≤ 64 bytes).
 */
public final class ParametersSerialization {
    private static final int MAX_PRIMES = 1024;
    /** The longest parameters body: two prime counts and chains of MAX_PRIMES, the scale, σ, the secret and a name. */
    static final long MAX_BODY_BYTES = 6 + 8L * 2 * MAX_PRIMES + 20 + 1 + 64;

    private ParametersSerialization() {}

    static byte[] canonical(CkksParameters p) {
        ByteBuffer b =
                ByteBuffer.allocate(6 + 8 * (p.qCount() + p.alpha()) + 20).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) p.logN())
                .put((byte) p.logSlots())
                .putShort((short) p.qCount())
                .putShort((short) p.alpha());
        for (long q : p.qPrimes()) b.putLong(q);
        for (long q : p.pPrimes()) b.putLong(q);
        b.putDouble(p.defaultScale()).putInt(p.secret().hammingWeight()).putDouble(p.sigma());
        return b.array();
    }

    /** SHA-256 of the canonical encoding: equal parameters have equal fingerprints. */
    public static byte[] fingerprint(CkksParameters p) {
        return Hashing.sha256().hashBytes(canonical(p)).asBytes();
    }

    public static byte[] write(CkksParameters p) {
        byte[] canon = canonical(p);
        String n = p.name() == null ? "" : p.name();
        while (n.getBytes(StandardCharsets.UTF_8).length > 64)
            n = n.substring(0, n.offsetByCodePoints(0, n.codePointCount(0, n.length()) - 1)); // whole characters only
        byte[] name = n.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = Envelope.start(ObjectKind.PARAMETERS, 0, fingerprint(p), -1, 0, canon.length + 1 + name.length);
        b.put(canon).put((byte) name.length).put(name);
        return Envelope.finish(b);
    }

    /** Reads parameters; insecure sets are accepted (and flagged by {@link CkksParameters#secure()}). */
    public static CkksParameters read(byte[] data) {
        Header h = Envelope.header(data);
        if (h.kind() != ObjectKind.PARAMETERS)
            throw new MalformedDataException(
                    "expected parameters, found a " + h.kind().label());
        if (h.bodyLength() < 6 || h.bodyLength() > MAX_BODY_BYTES)
            throw new MalformedDataException("parameters body of " + h.bodyLength() + " bytes");
        if (data.length < Header.SIZE + 6) throw new MalformedDataException("truncated parameters");
        ByteBuffer peek = ByteBuffer.wrap(data, Header.SIZE, 6).order(ByteOrder.LITTLE_ENDIAN);
        peek.get();
        peek.get();
        int nq = Short.toUnsignedInt(peek.getShort()), np = Short.toUnsignedInt(peek.getShort());
        if (nq == 0 || np == 0 || nq > MAX_PRIMES || np > MAX_PRIMES)
            throw new MalformedDataException("parameters with " + nq + " Q and " + np + " P primes");
        long canonLen = 6 + 8L * (nq + np) + 20;
        if (h.bodyLength() < canonLen + 1)
            throw new MalformedDataException(
                    "parameters body of " + h.bodyLength() + " bytes, needs at least " + (canonLen + 1));
        if (data.length < Header.SIZE + canonLen + 1) throw new MalformedDataException("truncated parameters");
        int nameLen = Byte.toUnsignedInt(data[(int) (Header.SIZE + canonLen)]);
        if (nameLen > 64) throw new MalformedDataException("parameter name of " + nameLen + " bytes (at most 64)");
        ByteBuffer b = Envelope.open(data, h, ObjectKind.PARAMETERS, null, canonLen + 1 + nameLen);
        int logN = Byte.toUnsignedInt(b.get()), logSlots = Byte.toUnsignedInt(b.get());
        b.getShort();
        b.getShort();
        long[] q = new long[nq], p = new long[np];
        for (int i = 0; i < nq; i++) q[i] = b.getLong();
        for (int i = 0; i < np; i++) p[i] = b.getLong();
        double scale = b.getDouble();
        int h8 = b.getInt();
        double sigma = b.getDouble();
        b.get();
        byte[] name = new byte[nameLen];
        b.get(name);
        CkksParameters params;
        try {
            if (logN < 2 || logN > 17 || logSlots < 0 || logSlots >= logN)
                throw new IllegalArgumentException("logN " + logN + ", logSlots " + logSlots);
            if (h8 < 0) throw new IllegalArgumentException("Hamming weight " + h8);
            CkksParameters.Builder pb = CkksParameters.builder()
                    .logN(logN)
                    .logSlots(logSlots)
                    .qPrimes(q)
                    .pPrimes(p)
                    .scale(scale)
                    .secret(h8 == 0 ? SecretDistribution.uniformTernary() : SecretDistribution.sparseTernary(h8))
                    .sigma(sigma)
                    .allowInsecure();
            if (nameLen > 0) {
                try {
                    pb.name(StandardCharsets.UTF_8
                            .newDecoder()
                            .decode(ByteBuffer.wrap(name))
                            .toString());
                } catch (CharacterCodingException e) {
                    throw new IllegalArgumentException("the name is not UTF-8");
                }
            }
            params = pb.build();
        } catch (RuntimeException e) {
            throw new MalformedDataException("invalid parameters in the data: " + e.getMessage());
        }
        if (!Arrays.equals(h.fingerprint(), fingerprint(params)))
            throw new MalformedDataException("parameters fingerprint does not match their content");
        return params;
    }
}
