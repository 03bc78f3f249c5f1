package io.hoist.ring;

/**
 * The NTT-domain permutation of one automorphism φ_g at one ring degree: out[t] = in[at(t)].
 * Immutable and shared (one per (N, g) in the JVM, {@link Automorphism#nttPermutation}); its table
 * never leaves this package, so no stray write can corrupt every rotation of the process.
 */
public final class NttPermutation {
    final int[] table;

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
}
