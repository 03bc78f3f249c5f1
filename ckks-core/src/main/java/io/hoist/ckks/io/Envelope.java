package io.hoist.ckks.io;

import io.hoist.ckks.CkksParameters;
import io.hoist.ring.RnsPoly;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Framing shared by the serializers: header, body, CRC32C trailer; bounded reads that check every
 * length before anything is allocated and every residue against its prime.
 */
final class Envelope {
    private Envelope() {}

    /** A buffer for header + body + trailer, header written, positioned at the body. */
    static ByteBuffer start(ObjectKind kind, int flags, byte[] fingerprint, int level, double scale, long bodyLength) {
        long total = Header.SIZE + bodyLength + 4;
        if (total > Integer.MAX_VALUE - 64)
            throw new IllegalArgumentException(
                    kind.label() + " of " + total + " bytes is too large for one array; use the key store");
        ByteBuffer b = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
        new Header(Header.VERSION, kind, flags, fingerprint, level, scale, bodyLength).write(b);
        return b;
    }

    /** Appends the CRC32C of everything written so far and returns the array. */
    static byte[] finish(ByteBuffer b) {
        if (b.remaining() != 4)
            throw new IllegalStateException("body length mismatch: " + (b.remaining() - 4) + " bytes unwritten");
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, b.position());
        b.putInt((int) crc.getValue());
        return b.array();
    }

    /**
     * Opens {@code data}: header checks, then the kind, the parameters' fingerprint and the exact body
     * length {@code expectedBody} (computed by the caller from the header and the parameters), then
     * the checksum. Returns a buffer positioned at the body.
     */
    static ByteBuffer open(byte[] data, Header h, ObjectKind want, CkksParameters params, long expectedBody) {
        if (h.kind() != want)
            throw new MalformedDataException(
                    "expected a " + want.label() + ", found a " + h.kind().label());
        checkCanonical(h);
        if (params != null && !Arrays.equals(h.fingerprint(), ParametersSerialization.fingerprint(params))) {
            throw new MalformedDataException(
                    "this " + want.label() + " was made under other parameters (fingerprint differs)");
        }
        if (h.bodyLength() != expectedBody) {
            throw new MalformedDataException("body length " + h.bodyLength() + " does not match the " + expectedBody
                    + " bytes a " + want.label() + " at level " + h.level() + " has under these parameters");
        }
        if (data.length != Header.SIZE + expectedBody + 4) {
            throw new MalformedDataException(
                    (data.length < Header.SIZE + expectedBody + 4 ? "truncated: " : "trailing bytes: ") + data.length
                            + " bytes, expected " + (Header.SIZE + expectedBody + 4));
        }
        checkCrc(data, 0, (int) (Header.SIZE + expectedBody), "");
        return ByteBuffer.wrap(data, Header.SIZE, (int) expectedBody)
                .order(ByteOrder.LITTLE_ENDIAN)
                .slice()
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The header fields a kind does not use hold exactly what the writer puts there (flags, level −1,
     * scale 0), so that every accepted file is the one its object writes back: one object, one encoding.
     */
    static void checkCanonical(Header h) {
        int f = h.flags();
        boolean ok = switch (h.kind()) {
            case PARAMETERS -> f == 0 && h.level() == -1 && noScale(h);
            case SECRET_KEY -> (f == Header.NTT || f == (Header.NTT | Header.PAIRED)) && noScale(h);
            case PUBLIC_KEY -> f == Header.NTT && noScale(h);
            case RELINEARIZATION_KEY, GALOIS_KEY -> Header.keyFlagsValid(f, 0) && noScale(h);
            case CIPHERTEXT -> f == Header.NTT && h.scale() > 0 && Double.isFinite(h.scale());
            case SEEDED_CIPHERTEXT -> f == (Header.NTT | Header.SEEDED) && h.scale() > 0 && Double.isFinite(h.scale());
            case PLAINTEXT -> (f & ~Header.NTT) == 0 && h.scale() > 0 && Double.isFinite(h.scale());
            case PLAN ->
                f == 0
                        && h.level() == -1
                        && noScale(h)
                        && Arrays.equals(h.fingerprint(), new byte[32]); // a plan is independent of parameters
            case ENCODED_TRANSFORM, BLOCK_ROW_PARTIAL -> f == 0; // level and scale are checked by their serializer
            default -> true; // key stores are checked by KeyStore
        };
        if (!ok) {
            throw new MalformedDataException(
                    "a " + h.kind().label() + " with flags 0x" + Integer.toHexString(f) + ", level " + h.level()
                            + " and scale " + h.scale() + " in its header: not what any writer produces");
        }
    }

    /** Scale 0 bit for bit (−0.0 is another encoding). */
    private static boolean noScale(Header h) {
        return Double.doubleToRawLongBits(h.scale()) == 0;
    }

    static Header header(byte[] data) {
        Objects.requireNonNull(data, "the data is null");
        return Header.read(ByteBuffer.wrap(data));
    }

    static void checkCrc(byte[] data, int from, int to, String what) {
        CRC32C crc = new CRC32C();
        crc.update(data, from, to - from);
        int stored = ByteBuffer.wrap(data, to, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (stored != (int) crc.getValue())
            throw new MalformedDataException("checksum mismatch" + what + ": the data is damaged");
    }

    static int crc(ByteBuffer b, int from, int to) {
        CRC32C crc = new CRC32C();
        ByteBuffer d = b.duplicate();
        d.position(from).limit(to);
        crc.update(d);
        return (int) crc.getValue();
    }

    /** Writes the limbs of {@code p} as little-endian words. */
    static void writeLimbs(ByteBuffer b, RnsPoly p) {
        LongBuffer lb = b.slice().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
        for (int i = 0; i < p.limbCount(); i++) lb.put(p.limb(i));
        b.position(b.position() + 8 * p.limbCount() * p.n());
    }

    /** Reads {@code count} limbs of n words, each word checked below its prime {@code primes[i]}. */
    static long[][] readLimbs(ByteBuffer b, int count, int n, long[] primes, String what) {
        long need = 8L * count * n;
        if (b.remaining() < need) throw new MalformedDataException("truncated " + what);
        LongBuffer lb = b.slice().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
        long[][] out = new long[count][n];
        for (int i = 0; i < count; i++) {
            lb.get(out[i]);
            long q = primes[i];
            long[] l = out[i];
            for (int k = 0; k < n; k++) {
                if (Long.compareUnsigned(l[k], q) >= 0)
                    throw new MalformedDataException(what + ": residue " + Long.toUnsignedString(l[k]) + " in limb " + i
                            + " is not below its prime " + q);
            }
        }
        b.position(b.position() + (int) need);
        return out;
    }

    /** The primes of Q limbs 0 … level. */
    static long[] qPrimes(CkksParameters p, int level) {
        return Arrays.copyOf(p.qPrimes(), level + 1);
    }

    static void checkLevel(Header h, CkksParameters p, int min) {
        if (h.level() < min || h.level() > p.maxLevel()) {
            throw new MalformedDataException(
                    "level " + h.level() + " outside [" + min + ", " + p.maxLevel() + "] of these parameters");
        }
    }
}
