package io.hoist.ring;

/**
 * The NTT-domain permutation of one automorphism φ_g at one ring degree: out[t] = in[at(t)].
 * Immutable and shared (one per (N, g) in the JVM, {@link Automorphism#nttPermutation}); its table
 * never leaves this package, so no stray write can corrupt every rotation of the process.
 */
public final class NttPermutation {
    final int[] table;
    /** Bit L set (L = 1, 2, … 16) when every aligned block of L outputs reads one aligned block of L inputs. */
    private final int blockLanes;

    NttPermutation(int[] table) {
        this.table = table;
        int lanes = 0;
        for (int l = 1; l <= 16; l <<= 1) if (mapsBlocks(table, l)) lanes |= l;
        this.blockLanes = lanes;
    }

    /** N, the entries. */
    public int size() {
        return table.length;
    }

    /** The source slot of output slot t. */
    public int at(int t) {
        return table[t];
    }

    /** A copy of the table. */
    public int[] toArray() {
        return table.clone();
    }

    /**
     * Whether every aligned block of {@code lanes} outputs (a power of two up to 16) reads one aligned
     * block of as many inputs, in some order: an automorphism's permutation always does (docs/ring.md,
     * "Automorphisms"), so a vector kernel moves whole blocks and reorders their lanes.
     */
    boolean permutesBlocks(int lanes) {
        return lanes > 0 && lanes <= 16 && Integer.bitCount(lanes) == 1 && (blockLanes & lanes) != 0;
    }

    private static boolean mapsBlocks(int[] table, int lanes) {
        if (table.length % lanes != 0) return false;
        for (int t = 0; t < table.length; t++) if ((table[t] & -lanes) != (table[t & -lanes] & -lanes)) return false;
        return true;
    }
}
