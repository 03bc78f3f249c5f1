package io.hoist.ckks.io;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The fixed 68-byte header every Hoist file starts with (little-endian):
 * <pre>
 *  0  magic        8 bytes  0x89 'H' 'O' 'I' 'S' 'T' '\r' '\n'
 *  8  version      u16      format version (1); others are refused
 * 10  kind         u16      {@link ObjectKind} code; unknown codes are refused
 * 12  flags        u32      bit 0: seeded (uniform parts stored as seeds), bit 1: NTT domain,
 *                           bit 2: paired (the body starts with a 16-byte {@link KeyPairId}),
 *                           bit 3: limb streams (a seeded key's uniform parts expand one AES-CTR
 *                           stream per digit and prime; without it, one stream per digit, as
 *                           files written before 2026-12-02)
 * 16  fingerprint  32 bytes SHA-256 of the parameters' canonical encoding
 * 48  level        i32      the object's level, −1 if none
 * 52  scale        f64      the object's scale, 0 if none
 * 60  bodyLength   u64      bytes of the body that follows
 * </pre>
 * then the body and a CRC32C of header and body (for a key store: of header and index; each key
 * has its own CRC32C in the index, so keys can be read one at a time).
 */
public record Header(
        int version, ObjectKind kind, int flags, byte[] fingerprint, int level, double scale, long bodyLength) {
    public static final int SIZE = 68;
    public static final int VERSION = 1;
    public static final int SEEDED = 1, NTT = 2, PAIRED = 4, LIMB_STREAMS = 8;
    static final byte[] MAGIC = {(byte) 0x89, 'H', 'O', 'I', 'S', 'T', '\r', '\n'};

    public Header {
        fingerprint = fingerprint.clone();
    }

    @Override
    public byte[] fingerprint() {
        return fingerprint.clone();
    }

    public boolean seeded() {
        return (flags & SEEDED) != 0;
    }

    /** Whether a seeded key's uniform parts expand one stream per limb (what every writer now produces). */
    public boolean limbStreams() {
        return (flags & LIMB_STREAMS) != 0;
    }

    /** Whether the body starts with a {@link KeyPairId} (secret keys and key stores written as a pair). */
    public boolean paired() {
        return (flags & PAIRED) != 0;
    }

    /**
     * Flags a key or key store may carry: NTT, optionally {@code extra} (PAIRED for stores), seeded or
     * not, limb streams only with seeded (old seeded files have no limb-stream bit).
     */
    static boolean keyFlagsValid(int f, int extra) {
        int rest = f & ~(SEEDED | LIMB_STREAMS | extra);
        return rest == NTT && ((f & LIMB_STREAMS) == 0 || (f & SEEDED) != 0);
    }

    void write(ByteBuffer b) {
        b.order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC)
                .putShort((short) version)
                .putShort((short) kind.code())
                .putInt(flags)
                .put(fingerprint)
                .putInt(level)
                .putDouble(scale)
                .putLong(bodyLength);
    }

    /** Parses and checks the magic, the version and the kind; nothing is allocated from its fields. */
    static Header read(ByteBuffer b) {
        if (b.remaining() < SIZE)
            throw new MalformedDataException(
                    "truncated: " + b.remaining() + " bytes, a Hoist file starts with a " + SIZE + "-byte header");
        b.order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[8];
        b.get(magic);
        if (!Arrays.equals(magic, MAGIC)) throw new MalformedDataException("not a Hoist file (bad magic)");
        int version = Short.toUnsignedInt(b.getShort());
        if (version != VERSION)
            throw new MalformedDataException(
                    "format version " + version + " is not supported (this reader reads version " + VERSION + ")");
        ObjectKind kind = ObjectKind.ofCode(Short.toUnsignedInt(b.getShort()));
        int flags = b.getInt();
        if ((flags & PAIRED) != 0 && kind != ObjectKind.SECRET_KEY && kind != ObjectKind.KEY_STORE) {
            throw new MalformedDataException(
                    "a " + kind.label() + " carries no key-pair id (flags 0x" + Integer.toHexString(flags) + ")");
        }
        if ((flags & ~(SEEDED | NTT | PAIRED | LIMB_STREAMS)) != 0)
            throw new MalformedDataException("unknown header flags 0x" + Integer.toHexString(flags));
        byte[] fp = new byte[32];
        b.get(fp);
        int level = b.getInt();
        double scale = b.getDouble();
        long len = b.getLong();
        if (len < 0) throw new MalformedDataException("negative body length");
        return new Header(version, kind, flags, fp, level, scale, len);
    }
}
