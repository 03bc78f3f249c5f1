package io.hoist.random;

import com.google.errorprone.annotations.MustBeClosed;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * A deterministic cryptographic stream: AES-256 in CTR mode keyed by a 256-bit seed, with a 64-bit
 * nonce separating independent streams of one seed. Seeds come from {@link SecureRandom}; the
 * same (seed, nonce) always expands to the same stream, which is what seeded keys and seeded
 * ciphertexts need. Not thread-safe: one instance per sampling task.
 */
public final class Prng {
    public static final int SEED_BYTES = 32;
    private static final SecureRandom SECURE = new SecureRandom();
    /** Key stream per AES-CTR call: with AVX-512 VAES the JDK's AES-CTR ran 12 GB/s in 4 KB calls, 15 in 64 KB. */
    private static final int BLOCK = 16384;

    /** Words per lane vector of the bulk fill; 0 runs the scalar twin alone. */
    private static final int LANES = lanes();

    private static final boolean VECTOR = LANES > 0;

    /**
     * Set by the kernel warm-up while it runs (io.hoist.ring's KernelWarmup): the lanes wait for it, as the
     * kernels' vector forms do, instead of running boxed until C2 has compiled them (n13 keygen, which runs
     * beside the warm-up, took 1.3–2× as long with them).
     */
    private static volatile boolean lanesHeld;

    private final Cipher cipher;
    private final ByteBuffer buf = ByteBuffer.allocate(BLOCK).order(ByteOrder.LITTLE_ENDIAN);
    private final LongBuffer words =
            buf.duplicate().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
    private final byte[] bytes = buf.array();
    private final byte[] zeros = new byte[BLOCK];
    private final byte[] iv = new byte[16];

    private Prng(byte[] seed, long nonce) {
        try {
            cipher = Cipher.getInstance("AES/CTR/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR unavailable in this JVM", e);
        }
        reset(seed, nonce);
    }

    /**
     * Restarts this instance as the stream of (seed, nonce), reusing its cipher: what a kernel that
     * expands many short streams (one per key limb) does instead of creating one instance each.
     */
    public void reset(byte[] seed, long nonce) {
        if (seed.length != SEED_BYTES)
            throw new IllegalArgumentException("seed must be " + SEED_BYTES + " bytes, got " + seed.length);
        ByteBuffer.wrap(iv).putLong(nonce).putLong(0);
        try {
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(seed, "AES"), new IvParameterSpec(iv));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR unavailable in this JVM", e);
        }
        buf.position(BLOCK);
    }

    /** The stream of (seed, nonce). */
    public static Prng of(byte[] seed, long nonce) {
        return new Prng(seed.clone(), nonce);
    }

    /** A fresh stream seeded from {@link SecureRandom}. */
    public static Prng fresh() {
        return new Prng(newSeed(), 0);
    }

    /** 32 bytes from {@link SecureRandom} (from the deterministic test stream while one is installed). */
    public static byte[] newSeed() {
        byte[] s = new byte[SEED_BYTES];
        Prng test = testSeeds;
        if (test == null) {
            SECURE.nextBytes(s);
            return s;
        }
        synchronized (test) {
            for (int i = 0; i < SEED_BYTES; i += 8) {
                long x = test.nextLong();
                for (int k = 0; k < 8; k++) s[i + k] = (byte) (x >>> (8 * k));
            }
        }
        return s;
    }

    private static volatile Prng testSeeds;

    /** The system property that lets {@link #insecureDeterministicSeedsForTesting} install its seeds. */
    public static final String TEST_SEEDS_PROPERTY = "hoist.insecure.testSeeds";

    /**
     * For tests that freeze the wire format (golden digests) only: until the returned handle is
     * closed, every seed this JVM draws — secret keys, noise, uniform parts, seeded ciphertexts —
     * comes from the AES-CTR stream of {@code seed}, so the same calls give the same bytes. Keys
     * made meanwhile are known to anyone who knows the seed: never use them. One at a time. Refused unless the JVM
     * runs with {@code -D}{@value #TEST_SEEDS_PROPERTY}{@code =true} (the test runs set it): no other code in a
     * production JVM can make its keys predictable.
     */
    @MustBeClosed
    public static AutoCloseable insecureDeterministicSeedsForTesting(long seed) {
        if (!Boolean.getBoolean(TEST_SEEDS_PROPERTY))
            throw new IllegalStateException("deterministic test seeds are refused: tests start their JVM with -D"
                    + TEST_SEEDS_PROPERTY + "=true");
        byte[] key = ByteBuffer.allocate(SEED_BYTES).putLong(seed).array();
        synchronized (Prng.class) {
            if (testSeeds != null) throw new IllegalStateException("deterministic test seeds are installed already");
            testSeeds = new Prng(key, 0x7e57L);
        }
        return () -> testSeeds = null;
    }

    public long nextLong() {
        if (buf.remaining() < 8) refill();
        return buf.getLong();
    }

    /** Uniform in [0, q) by rejection sampling on the bit length of q (unbiased). */
    public long uniform(long q) {
        if (q <= 0) throw new IllegalArgumentException("uniform bound must be positive: " + q);
        if (q == 1) return 0;
        long mask = -1L >>> Long.numberOfLeadingZeros(q - 1);
        while (true) {
            long x = nextLong() & mask;
            if (Long.compareUnsigned(x, q) < 0) return x;
        }
    }

    /**
     * out[from, to) ← the next {@code to − from} values of {@link #uniform(long)}, the same values in the
     * same order (the stream is consumed identically), in bulk: whole vectors of accepted words are copied
     * on lanes, and a vector with a word to reject goes through the scalar twin, which squeezes it out
     * without a branch.
     *
     * @throws IndexOutOfBoundsException if [from, to) is not a range of out
     */
    public void fillUniform(long q, long[] out, int from, int to) {
        if (q <= 0) throw new IllegalArgumentException("uniform bound must be positive: " + q);
        Objects.checkFromToIndex(from, to, out.length);
        if (q == 1) {
            Arrays.fill(out, from, to, 0L);
            return;
        }
        long mask = -1L >>> Long.numberOfLeadingZeros(q - 1);
        int i = from;
        while (i < to) {
            if (buf.remaining() < 8) refill();
            int pos = buf.position(), count = Math.min(to - i, (buf.limit() - pos) >>> 3);
            int r = 0, w = i;
            boolean lanes = VECTOR && !lanesHeld;
            while (r < count) {
                if (lanes) {
                    int run = Lanes.acceptedRun(bytes, q, mask, pos + 8 * r, out, w, count - r);
                    r += run;
                    w += run;
                }
                // the scalar twin: a vector with a rejected word, or the words after the last whole vector
                for (int end = lanes ? Math.min(count, r + LANES) : count; r < end; r++) {
                    long x = words.get((pos >>> 3) + r) & mask;
                    out[w] = x;
                    w += Long.compareUnsigned(x, q) < 0 ? 1 : 0;
                }
            }
            buf.position(pos + 8 * count);
            i = w;
        }
    }

    /**
     * Calls of {@link #warmCipher}: C2 puts in the AES-CTR intrinsic where a compiled caller calls the loop, and
     * compiles a caller without a loop of its own after about 5000 calls (HotSpot's Tier4InvocationThreshold).
     */
    static final int WARM_CIPHER_CALLS = 20000;

    /** Bytes per call of {@link #warmCipher}: one AES block. */
    static final int WARM_CIPHER_BYTES = 16;

    /**
     * Runs a throwaway key stream (an all-zero key: its bytes are discarded) in short calls, so that the JDK's
     * AES-CTR loop reaches C2, and with it the AES-CTR intrinsic, before the kernels' compilations fill the
     * queues: the kernel warm-up's first step. Left to keygen, that loop ran interpreted, one AES block per turn,
     * for the first 3 s of a boot14 keygen (about a third of its processor time). Returns how many bytes it ran.
     */
    public static long warmCipher() {
        Prng p = new Prng(new byte[SEED_BYTES], 0);
        byte[] in = new byte[WARM_CIPHER_BYTES], out = new byte[WARM_CIPHER_BYTES];
        long bytes = 0;
        try {
            for (int i = 0; i < WARM_CIPHER_CALLS; i++) bytes += p.cipher.update(in, 0, in.length, out, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return bytes;
    }

    /** Holds the lanes (every thread fills on the scalar twin) or lets them run again: for the kernel warm-up. */
    public static void holdLanes(boolean held) {
        lanesHeld = held;
    }

    /**
     * The kernel warm-up's call, so that C2 compiles the lanes while they are held: copies the masked
     * words of {@code block} (whole vectors, while every lane is below q) into {@code out}; returns how
     * many. Not a stream: {@code block} is any bytes. Does nothing without lanes.
     *
     * @throws IllegalArgumentException if q &lt; 2, or out is shorter than block's words
     */
    public static int warmLanes(byte[] block, long q, long[] out) {
        if (q < 2) throw new IllegalArgumentException("uniform bound below 2: " + q);
        if (out.length < block.length / 8)
            throw new IllegalArgumentException(out.length + " words for a block of " + block.length + " bytes");
        if (!VECTOR) return 0;
        return Lanes.acceptedRun(block, q, -1L >>> Long.numberOfLeadingZeros(q - 1), 0, out, 0, block.length / 8);
    }

    /**
     * {@link Lanes#count} where the Vector API module is present and the bytes are in the stream's order;
     * 0 otherwise, and if loading the lanes fails (checked here, outside the class being loaded).
     */
    private static int lanes() {
        try {
            if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()
                    || ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) return 0;
            return Lanes.count();
        } catch (LinkageError | RuntimeException e) {
            return 0;
        }
    }

    /**
     * The lanes of the bulk fill, in a class of their own: loaded only where the Vector API module is
     * present ({@code --add-modules jdk.incubator.vector}), so that without it this class still loads and
     * fills on its scalar twin, as the kernels fall back to theirs.
     */
    private static final class Lanes {
        private static final VectorSpecies<Byte> B = ByteVector.SPECIES_PREFERRED;

        /** Words per vector where lanes help (at least 4: AVX2 and up), else 0. */
        static int count() {
            int lanes = B.length() / 8;
            return lanes >= 4 ? lanes : 0;
        }

        /**
         * Copies whole vectors of masked words from byte {@code pos} of {@code bytes} into out[i…) while
         * every lane is below q, stopping before the first vector with a word to reject (the presets'
         * primes lie just below a power of 2: about one word in 10^5 or fewer); returns the words copied, a
         * multiple of the lane count and at most {@code count}.
         */
        static int acceptedRun(byte[] bytes, long q, long mask, int pos, long[] out, int i, int count) {
            int r = 0;
            for (; r <= count - LANES; r += LANES) {
                // bytes reinterpreted as lanes, little-endian as lanes() requires (LongVector.fromMemorySegment
                // on a heap segment ran 20× slower here: it was not intrinsified)
                LongVector v = ByteVector.fromArray(B, bytes, pos + 8 * r)
                        .reinterpretAsLongs()
                        .and(mask);
                if (!v.compare(VectorOperators.ULT, q).allTrue()) break;
                v.intoArray(out, i + r);
            }
            return r;
        }
    }

    /** Uniform double in [0, 1) with 53 random bits. */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    private void refill() {
        try {
            buf.clear();
            int n = cipher.update(zeros, 0, BLOCK, buf.array(), 0);
            if (n != BLOCK) throw new IllegalStateException("short AES-CTR block: " + n);
            buf.position(0).limit(BLOCK);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
