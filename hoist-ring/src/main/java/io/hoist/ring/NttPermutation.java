package io.hoist.ring;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The NTT-domain permutation of one automorphism φ_g at one ring degree: out[t] = in[at(t)].
 * Immutable and shared (one per (N, g) in the JVM, {@link Automorphism#nttPermutation}); its table
 * never leaves this package, so no stray write can corrupt every rotation of the process.
 */
public final class NttPermutation {
    final int[] table;
    /** The block form for one lane count, built on first use ({@link #blocks}); a race builds equal copies. */
    private volatile Blocks blocks;

    NttPermutation(int[] table) {
        this.table = table;
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
     * This permutation on aligned blocks of {@code lanes} slots, or null if it does not map every such
     * block onto one (an automorphism's always does, for lanes ≤ N a power of two: docs/ring.md,
     * "Automorphisms"). For the vector kernel: one load, one lane shuffle and one store per block.
     */
    Blocks blocks(int lanes) {
        Blocks b = blocks;
        if (b == null || b.lanes != lanes) {
            b = Blocks.of(table, lanes);
            if (b == null) return null;
            blocks = b;
        }
        return b;
    }

    /**
     * Output block i (slots [i·lanes, (i+1)·lanes)) is source block {@code source[i]} (its first slot)
     * with its lanes reordered by the pattern at {@code patterns[pattern[i]]}, lane k taking source lane
     * patterns[pattern[i] + k]. An automorphism has at most {@code lanes} distinct patterns.
     */
    static final class Blocks {
        final int lanes;
        final int[] source;
        final int[] pattern;
        final long[] patterns;

        private Blocks(int lanes, int[] source, int[] pattern, long[] patterns) {
            this.lanes = lanes;
            this.source = source;
            this.pattern = pattern;
            this.patterns = patterns;
        }

        static Blocks of(int[] table, int lanes) {
            int n = table.length;
            if (lanes < 1 || lanes > 16 || Integer.bitCount(lanes) != 1 || n % lanes != 0) return null;
            int blocks = n / lanes;
            int[] source = new int[blocks], pattern = new int[blocks];
            Map<Long, Integer> ids = new HashMap<>();
            long[] patterns = new long[0];
            for (int i = 0; i < blocks; i++) {
                int base = table[i * lanes] & -lanes;
                long key = 0; // the pattern, four bits a lane
                for (int k = 0; k < lanes; k++) {
                    int lane = table[i * lanes + k] - base;
                    if (lane < 0 || lane >= lanes) return null;
                    key |= (long) lane << (4 * k);
                }
                Integer id = ids.get(key);
                if (id == null) {
                    id = patterns.length;
                    ids.put(key, id);
                    patterns = Arrays.copyOf(patterns, id + lanes);
                    for (int k = 0; k < lanes; k++) patterns[id + k] = table[i * lanes + k] - base;
                }
                source[i] = base;
                pattern[i] = id;
            }
            return new Blocks(lanes, source, pattern, patterns);
        }
    }
}
