package io.hoist.bfv.seal;

import io.hoist.HoistException;
import io.hoist.SecretKeyAccess;
import io.hoist.bfv.BfvCiphertext;
import io.hoist.bfv.BfvContext;
import io.hoist.bfv.BfvParameters;
import io.hoist.bfv.BfvPlaintext;
import io.hoist.bfv.BfvPublicKey;
import io.hoist.bfv.BfvSecretKey;
import io.hoist.bfv.PrngType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import org.bouncycastle.crypto.digests.Blake2bDigest;

/**
 * Microsoft SEAL 4.x's wire format for BFV, uncompressed: {@code EncryptionParameters},
 * {@code Plaintext}, {@code Ciphertext} (full, and seeded: c0, then the PRNG type and the 64-byte
 * seed), {@code SecretKey} and {@code PublicKey}, every object and nested array behind its 16-byte
 * SEALHeader, all integers little-endian. Writes version 4.4 headers, as SEAL 4.4 does, so a saved
 * object matches SEAL's bytes. Reads check every length against the context before allocating,
 * refuse versions other than 4.0–4.4 and 3.4+, compressed objects, other parameters' parms_ids and
 * residues out of range, each with a typed {@link SealFormatException}.
 */
public final class SealFormat {
    private SealFormat() {}

    public static final int MAGIC = 0xA15E;
    public static final int HEADER_BYTES = 16;
    public static final int VERSION_MAJOR = 4;
    public static final int VERSION_MINOR = 4;
    public static final int SCHEME_BFV = 1;
    private static final int SEED_BYTES = 64;
    private static final int PRNG_INFO_BYTES = HEADER_BYTES + 1 + SEED_BYTES;

    // ---- parms_id

    /**
     * SEAL's parms_id of {@code p} at the data level ({@code keyLevel} false) or the key level: BLAKE2b-256
     * over the u64 words [scheme, N, q_0 … q_(k−1), t] of that level's primes.
     */
    public static byte[] parmsId(BfvParameters p, boolean keyLevel) {
        long[] q = keyLevel ? p.keyPrimes() : p.dataPrimes();
        ByteBuffer b = le(8 * (q.length + 3));
        b.putLong(SCHEME_BFV).putLong(p.n());
        for (long x : q) b.putLong(x);
        b.putLong(p.t());
        Blake2bDigest d = new Blake2bDigest(256);
        d.update(b.array(), 0, b.capacity());
        byte[] out = new byte[32];
        d.doFinal(out, 0);
        return out;
    }

    // ---- EncryptionParameters

    public static byte[] write(BfvParameters p) {
        long[] q = p.keyPrimes();
        int size = HEADER_BYTES + 17 + 24 * (q.length + 1);
        ByteBuffer b = le(size);
        header(b, size);
        b.put((byte) SCHEME_BFV).putLong(p.n()).putLong(q.length);
        for (long x : q) modulus(b, x);
        modulus(b, p.t());
        return b.array();
    }

    public static BfvParameters readParameters(byte[] bytes) {
        Reader r = new Reader(bytes, "EncryptionParameters");
        r.header(bytes.length);
        int scheme = r.u8("scheme");
        if (scheme != SCHEME_BFV)
            throw new SealFormatException("scheme byte " + scheme + ": this reader takes BFV (1) parameters only");
        long n = r.u64("poly_modulus_degree");
        long k = r.u64("coeff_modulus_size");
        if (k < 2 || k > 64) throw new SealFormatException("coeff_modulus_size " + k + " is not in [2, 64]");
        r.need(24 * (k + 1), "the moduli");
        long[] q = new long[(int) k];
        for (int j = 0; j < k; j++) q[j] = r.modulus("q_" + j);
        long t = r.modulus("plain_modulus");
        r.end();
        if (n < 16 || n > 1 << 17) throw new SealFormatException("poly_modulus_degree " + n + " is out of range");
        try {
            return BfvParameters.insecure((int) n, t, q);
        } catch (HoistException e) {
            throw new SealFormatException("EncryptionParameters this client does not take: " + e.getMessage());
        }
    }

    // ---- Plaintext and SecretKey (a Plaintext at the key level in NTT form)

    public static byte[] write(BfvPlaintext m) {
        long[] c = m.coefficients();
        return plaintext(new byte[32], c.length, c);
    }

    public static BfvPlaintext readPlaintext(BfvContext ctx, byte[] bytes) {
        Reader r = new Reader(bytes, "Plaintext");
        r.header(bytes.length);
        byte[] id = r.bytes(32);
        if (!Arrays.equals(id, new byte[32]))
            throw new ParmsIdMismatchException("plaintext parms_id " + hex(id)
                    + " is not zero: an NTT-form (CKKS or BGV) plaintext, not a BFV one");
        long count = r.u64("coeff_count");
        if (count > ctx.n()) throw new SealFormatException("coeff_count " + count + " exceeds N = " + ctx.n());
        r.scale();
        long[] c = r.dynArray(count, "plaintext data");
        r.end();
        long t = ctx.params().t();
        for (int i = 0; i < c.length; i++)
            if (c[i] < 0 || c[i] >= t)
                throw new SealFormatException(
                        "plaintext coefficient " + i + " = " + Long.toUnsignedString(c[i]) + " is not below t = " + t);
        return BfvPlaintext.of(ctx, c);
    }

    public static byte[] write(BfvSecretKey sk, SecretKeyAccess access) {
        BfvContext ctx = sk.context();
        int n = ctx.n(), k = ctx.keyLevelSize();
        long[] words = new long[n * k];
        for (int j = 0; j < k; j++) {
            long[] limb = sk.nttLimb(j, access);
            System.arraycopy(limb, 0, words, j * n, n);
            Arrays.fill(limb, 0);
        }
        byte[] out = plaintext(parmsId(ctx.params(), true), words.length, words);
        Arrays.fill(words, 0);
        return out;
    }

    public static BfvSecretKey readSecretKey(BfvContext ctx, byte[] bytes, SecretKeyAccess access) {
        Reader r = new Reader(bytes, "SecretKey");
        r.header(bytes.length);
        r.parmsId(parmsId(ctx.params(), true), "secret key (key level)");
        int n = ctx.n(), k = ctx.keyLevelSize();
        long count = r.u64("coeff_count");
        if (count != (long) n * k)
            throw new SealFormatException("secret key coeff_count " + count + " is not N·k = " + (long) n * k);
        r.scale();
        long[] w = r.dynArray(count, "secret key data");
        r.end();
        long[][] limbs = new long[k][];
        for (int j = 0; j < k; j++) limbs[j] = Arrays.copyOfRange(w, j * n, (j + 1) * n);
        Arrays.fill(w, 0);
        try {
            return BfvSecretKey.fromNtt(ctx, limbs, access);
        } catch (HoistException e) {
            throw new SealFormatException("SecretKey: " + e.getMessage());
        } finally {
            for (long[] l : limbs) Arrays.fill(l, 0);
        }
    }

    private static byte[] plaintext(byte[] parmsId, int count, long[] words) {
        int size = HEADER_BYTES + 32 + 8 + 8 + HEADER_BYTES + 8 + 8 * count;
        ByteBuffer b = le(size);
        header(b, size);
        b.put(parmsId).putLong(count).putDouble(1.0);
        dynArray(b, words, count);
        return b.array();
    }

    // ---- Ciphertext and PublicKey (a Ciphertext at the key level in NTT form)

    /** A ciphertext in SEAL's bytes: a seeded one as c0 plus its PRNG type and seed. */
    public static byte[] write(BfvCiphertext ct) {
        BfvContext ctx = ct.context();
        int n = ctx.n(), k = ctx.dataLevelSize();
        boolean seeded = ct.isSeeded();
        int polys = seeded ? 1 : 2;
        int size = ciphertextBytes(n, k, seeded);
        ByteBuffer b = le(size);
        ciphertextHead(b, size, parmsId(ctx.params(), false), false, n, k);
        header(b, HEADER_BYTES + 8 + 8L * polys * n * k);
        b.putLong((long) polys * n * k);
        for (int p = 0; p < polys; p++)
            for (int j = 0; j < k; j++) {
                b.asLongBuffer().put(ct.limb(p, j));
                b.position(b.position() + 8 * n);
            }
        if (seeded) {
            header(b, PRNG_INFO_BYTES);
            b.put((byte) ct.seedType().code()).put(ct.seed());
        }
        return b.array();
    }

    /** Bytes of a data-level ciphertext in SEAL's format: 113 + 16·N·k full, 194 + 8·N·k seeded. */
    public static int ciphertextBytes(int n, int k, boolean seeded) {
        return seeded ? 113 + 8 * n * k + PRNG_INFO_BYTES : 113 + 16 * n * k;
    }

    public static BfvCiphertext readCiphertext(BfvContext ctx, byte[] bytes) {
        Reader r = new Reader(bytes, "Ciphertext");
        boolean v4 = r.header(bytes.length);
        int n = ctx.n(), k = ctx.dataLevelSize();
        r.parmsId(parmsId(ctx.params(), false), "ciphertext (data level)");
        int ntt = r.u8("is_ntt_form");
        if (ntt != 0)
            throw new SealFormatException("is_ntt_form = " + ntt + ": BFV ciphertexts are in coefficient form");
        long size = r.u64("size");
        if (size != 2)
            throw new SealFormatException("ciphertext size " + size + ": this client reads size-2 ciphertexts");
        r.shape(n, k);
        r.scale();
        if (v4) r.correctionFactor();
        long count = r.peekDynCount();
        boolean seeded = count == (long) n * k;
        long[] w = r.dynArray(seeded ? (long) n * k : 2L * n * k, "ciphertext data");
        long[][] c0 = limbs(w, 0, k, n), c1 = seeded ? null : limbs(w, 1, k, n);
        if (!seeded) {
            r.end();
            return checkedCt(() -> BfvCiphertext.of(ctx, c0, c1));
        }
        int infoSize = r.nestedHeader("PRNG info");
        if (infoSize != PRNG_INFO_BYTES)
            throw new SealFormatException("PRNG info of " + infoSize + " bytes, expected " + PRNG_INFO_BYTES);
        int type = r.u8("prng_type");
        PrngType pt;
        try {
            pt = PrngType.ofCode(type);
        } catch (RuntimeException e) {
            throw new SealFormatException(e.getMessage());
        }
        byte[] seed = r.bytes(SEED_BYTES);
        r.end();
        return checkedCt(() -> BfvCiphertext.seeded(ctx, c0, pt, seed));
    }

    public static byte[] write(BfvPublicKey pk) {
        BfvContext ctx = pk.context();
        int n = ctx.n(), k = ctx.keyLevelSize();
        long[] words = new long[2 * n * k];
        for (int p = 0; p < 2; p++)
            for (int j = 0; j < k; j++) System.arraycopy(pk.limb(p, j), 0, words, (p * k + j) * n, n);
        int size = 113 + 16 * n * k;
        ByteBuffer b = le(size);
        ciphertextHead(b, size, parmsId(ctx.params(), true), true, n, k);
        dynArray(b, words, words.length);
        return b.array();
    }

    public static BfvPublicKey readPublicKey(BfvContext ctx, byte[] bytes) {
        Reader r = new Reader(bytes, "PublicKey");
        boolean v4 = r.header(bytes.length);
        int n = ctx.n(), k = ctx.keyLevelSize();
        r.parmsId(parmsId(ctx.params(), true), "public key (key level)");
        if (r.u8("is_ntt_form") != 1) throw new SealFormatException("a public key is saved in NTT form");
        long size = r.u64("size");
        if (size != 2) throw new SealFormatException("public key size " + size + ", expected 2");
        r.shape(n, k);
        r.scale();
        if (v4) r.correctionFactor();
        if (r.peekDynCount() == (long) n * k)
            throw new SealFormatException("PublicKey: a seeded public key (KeyGenerator::create_public_key() saved"
                    + " directly); save it from a PublicKey object, or load and re-save it in SEAL");
        long[] w = r.dynArray(2L * n * k, "public key data");
        r.end();
        long[][] p0 = limbs(w, 0, k, n), p1 = limbs(w, 1, k, n);
        try {
            return BfvPublicKey.fromNtt(ctx, p0, p1);
        } catch (RuntimeException e) {
            throw new SealFormatException(e.getMessage());
        }
    }

    /**
     * Reads one whole object from a stream. The header is checked first (magic, version, compression)
     * and its size against {@code maxBytes}; the body is then read as it arrives, so a header that
     * lies about its size costs no more memory than the bytes that are really there.
     */
    public static byte[] readObject(InputStream in, long maxBytes) throws IOException {
        long max = Math.min(maxBytes, Integer.MAX_VALUE - 64);
        byte[] h = in.readNBytes(HEADER_BYTES);
        if (h.length < HEADER_BYTES) throw new SealFormatException("truncated SEAL header: " + h.length + " bytes");
        new Reader(h, "SEAL object").rawHeader("SEAL object");
        long size = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN).getLong(8);
        if (size < HEADER_BYTES || size > max)
            throw new SealFormatException(
                    "object size " + Long.toUnsignedString(size) + " is not in [16, " + max + "]");
        byte[] body = in.readNBytes((int) size - HEADER_BYTES);
        if (body.length != size - HEADER_BYTES)
            throw new SealFormatException(
                    "truncated object: " + (HEADER_BYTES + body.length) + " of " + size + " bytes");
        byte[] all = Arrays.copyOf(h, (int) size);
        System.arraycopy(body, 0, all, HEADER_BYTES, body.length);
        return all;
    }

    // ---- pieces

    private interface Make {
        BfvCiphertext make();
    }

    private static BfvCiphertext checkedCt(Make m) {
        try {
            return m.make();
        } catch (SealFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SealFormatException(e.getMessage());
        }
    }

    private static long[][] limbs(long[] w, int p, int k, int n) {
        long[][] l = new long[k][];
        for (int j = 0; j < k; j++) l[j] = Arrays.copyOfRange(w, (p * k + j) * n, (p * k + j + 1) * n);
        return l;
    }

    private static void ciphertextHead(ByteBuffer b, int size, byte[] parmsId, boolean ntt, int n, int k) {
        header(b, size);
        b.put(parmsId)
                .put((byte) (ntt ? 1 : 0))
                .putLong(2)
                .putLong(n)
                .putLong(k)
                .putDouble(1.0)
                .putLong(1);
    }

    private static void header(ByteBuffer b, long size) {
        b.putShort((short) MAGIC)
                .put((byte) HEADER_BYTES)
                .put((byte) VERSION_MAJOR)
                .put((byte) VERSION_MINOR)
                .put((byte) 0)
                .putShort((short) 0)
                .putLong(size);
    }

    private static void modulus(ByteBuffer b, long q) {
        header(b, 24);
        b.putLong(q);
    }

    private static void dynArray(ByteBuffer b, long[] words, int count) {
        header(b, HEADER_BYTES + 8 + 8L * count);
        b.putLong(count);
        b.asLongBuffer().put(words, 0, count);
        b.position(b.position() + 8 * count);
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    /** A bounds-checked little-endian cursor over one object. */
    private static final class Reader {
        private final ByteBuffer b;
        private final String what;

        Reader(byte[] bytes, String what) {
            this.b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            this.what = what;
        }

        void need(long bytes, String part) {
            if (bytes < 0 || bytes > b.remaining())
                throw new SealFormatException(
                        what + ": " + part + " needs " + bytes + " bytes, " + b.remaining() + " left");
        }

        /** The outer header; true for a 4.x object (which carries correction_factor). */
        boolean header(long total) {
            long[] h = rawHeader(what);
            if (h[1] != total)
                throw new SealFormatException(
                        what + ": the header says " + Long.toUnsignedString(h[1]) + " bytes, got " + total);
            return h[0] == VERSION_MAJOR;
        }

        int nestedHeader(String part) {
            long[] h = rawHeader(what + " " + part);
            long body = h[1] - HEADER_BYTES;
            need(body, part);
            return (int) h[1];
        }

        private long[] rawHeader(String where) {
            need(HEADER_BYTES, "a SEAL header");
            int magic = b.getShort() & 0xFFFF;
            if (magic != MAGIC)
                throw new SealFormatException(where + ": magic 0x" + Integer.toHexString(magic) + ", not 0xa15e");
            int hs = b.get() & 0xFF;
            if (hs != HEADER_BYTES) throw new SealFormatException(where + ": header size " + hs + ", not 16");
            int major = b.get() & 0xFF, minor = b.get() & 0xFF;
            boolean ok = (major == 4 && minor <= VERSION_MINOR) || (major == 3 && minor >= 4);
            if (!ok)
                throw new UnsupportedSealVersionException(where + ": SEAL version " + major + "." + minor
                        + "; this reader takes 4.0–4.4 and 3.4 or later");
            int compr = b.get() & 0xFF;
            if (compr != 0)
                throw new UnsupportedCompressionException(where + ": compression mode " + compr + " ("
                        + (compr == 1 ? "zlib" : compr == 2 ? "zstd" : "unknown")
                        + "); save with compr_mode_type::none");
            b.getShort();
            long size = b.getLong();
            if (size < HEADER_BYTES) throw new SealFormatException(where + ": object size " + size + " below 16");
            return new long[] {major, size};
        }

        int u8(String f) {
            need(1, f);
            return b.get() & 0xFF;
        }

        long u64(String f) {
            need(8, f);
            long x = b.getLong();
            if (x < 0)
                throw new SealFormatException(what + ": " + f + " = " + Long.toUnsignedString(x) + " is too large");
            return x;
        }

        byte[] bytes(int len) {
            need(len, len + " bytes");
            byte[] out = new byte[len];
            b.get(out);
            return out;
        }

        long modulus(String f) {
            int size = nestedHeader(f);
            if (size != 24) throw new SealFormatException(what + ": Modulus " + f + " of " + size + " bytes, not 24");
            return u64(f);
        }

        void parmsId(byte[] expected, String level) {
            byte[] id = bytes(32);
            if (!Arrays.equals(id, expected))
                throw new ParmsIdMismatchException(what + ": parms_id " + hex(id) + " is not this context's " + level
                        + " parms_id " + hex(expected));
        }

        void shape(int n, int k) {
            long fn = u64("poly_modulus_degree"), fk = u64("coeff_modulus_size");
            if (fn != n || fk != k)
                throw new SealFormatException(
                        what + ": N = " + fn + ", k = " + fk + "; the context has N = " + n + ", k = " + k);
        }

        void scale() {
            need(8, "scale");
            double s = b.getDouble();
            if (s != 1.0) throw new SealFormatException(what + ": scale " + s + "; BFV objects have scale 1");
        }

        void correctionFactor() {
            long c = u64("correction_factor");
            if (c != 1) throw new SealFormatException(what + ": correction_factor " + c + "; BFV objects have 1");
        }

        long peekDynCount() {
            need(HEADER_BYTES + 8, "the data array");
            return b.getLong(b.position() + HEADER_BYTES);
        }

        long[] dynArray(long count, String part) {
            int size = nestedHeader(part);
            long c = u64(part + " count");
            if (c != count)
                throw new SealFormatException(what + ": " + part + " holds " + c + " words, expected " + count);
            if (size != HEADER_BYTES + 8 + 8 * c)
                throw new SealFormatException(
                        what + ": " + part + " header says " + size + " bytes for " + c + " words");
            need(8 * c, part);
            long[] w = new long[(int) c];
            b.asLongBuffer().get(w);
            b.position(b.position() + 8 * (int) c);
            return w;
        }

        void end() {
            if (b.remaining() != 0)
                throw new SealFormatException(what + ": " + b.remaining() + " bytes after the object");
        }
    }
}
