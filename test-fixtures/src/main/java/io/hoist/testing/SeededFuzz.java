package io.hoist.testing;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * Mutation fuzzing for the binary readers, from one seed: {@link #run} draws {@link #tries} mutations
 * (bit flips, byte writes, truncation, extension, header fields, body words, byte runs — half with
 * the trailing checksum recomputed, so that the checks behind it are reached) and names the seed and
 * the index of a failing one, so that a failure reproduces with {@code -Dhoist.fuzz.seed=S}.
 * Tries and seed come from the system properties {@code hoist.fuzz.tries} (the CI default is the
 * caller's; a nightly run sets 100000) and {@code hoist.fuzz.seed}.
 */
public final class SeededFuzz {
    private SeededFuzz() {}

    /** The seed of a run: {@code -Dhoist.fuzz.seed}, else a fixed one (CI is reproducible). */
    public static long seed() {
        return Long.decode(System.getProperty("hoist.fuzz.seed", "0x5eed"));
    }

    /** Mutations per format: {@code -Dhoist.fuzz.tries}, else {@code ciDefault}. */
    public static int tries(int ciDefault) {
        return Integer.parseInt(System.getProperty("hoist.fuzz.tries", Integer.toString(ciDefault)));
    }

    /** One mutation: which kind ({@code op}), where, with which value, and whether the checksum is fixed afterwards. */
    public record Mutation(int op, long position, long value, boolean fixCrc) {}

    /** Kinds of mutation {@link #mutate} knows: 0 bit, 1 byte, 2 truncate, 3 word, 4 extend, 5 header field, 6 body word, 7 byte run. */
    public static final int KINDS = 8;

    /**
     * Runs {@code body} on {@code tries} mutations drawn from the seed, kinds in [0, kinds); a
     * failure is rethrown naming the seed, the index and the mutation.
     */
    public static void run(String what, int tries, int kinds, Consumer<Mutation> body) {
        long seed = seed();
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < tries; i++) {
            Mutation m = new Mutation(r.nextInt(kinds), r.nextLong(), r.nextLong(), r.nextBoolean());
            try {
                body.accept(m);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(
                        what + ": seed " + seed + ", index " + i + ", " + m + ": " + e.getMessage(), e);
            }
        }
    }

    /** A mutated copy of {@code good} (at least one byte long). */
    public static byte[] mutate(byte[] good, Mutation m) {
        byte[] b = good.clone();
        int pos = (int) Math.floorMod(m.position(), (long) b.length);
        ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        switch (m.op()) {
            case 0 -> b[pos] ^= (byte) (1 << Math.floorMod(m.value(), 8));
            case 1 -> b[pos] = (byte) m.value();
            case 2 -> b = Arrays.copyOf(b, pos);
            case 3 -> {
                if (pos + 4 <= b.length) le.putInt(pos, (int) m.value());
            }
            case 4 -> b = Arrays.copyOf(b, b.length + 1 + (int) Math.floorMod(m.value(), 64));
            case 5 -> { // a field of the 68-byte Hoist header: version, kind, flags, level, scale, body length
                int[] fields = {8, 10, 12, 48, 52, 60};
                int at = fields[(int) Math.floorMod(m.value(), fields.length)];
                if (at + 4 <= b.length) le.putInt(at, (int) (m.position() >>> 7));
            }
            case 6 -> {
                if (b.length > 80) le.putLong(68 + (int) Math.floorMod(m.position(), (long) b.length - 80), m.value());
            }
            default -> {
                for (int i = 0; i < 16 && pos + i < b.length; i++) b[pos + i] = (byte) (m.value() >>> (4 * i));
            }
        }
        if (m.fixCrc()) fixTrailingCrc(b);
        return b;
    }

    /** Rewrites the last four bytes as the CRC32C of the rest (the trailer of every Hoist object). */
    public static void fixTrailingCrc(byte[] b) {
        if (b.length < 4) return;
        CRC32C c = new CRC32C();
        c.update(b, 0, b.length - 4);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length - 4, (int) c.getValue());
    }

    /** Bytes this thread has allocated so far (HotSpot's counter). */
    public static long allocatedBytes() {
        return ((ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
