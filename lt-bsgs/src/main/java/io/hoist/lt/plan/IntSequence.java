package io.hoist.lt.plan;

import com.google.errorprone.annotations.Immutable;
import java.util.Arrays;
import java.util.Collection;
import java.util.stream.IntStream;

/** An immutable sequence of ints (buffer ids, diagonal indices, baby steps of a program step). */
@Immutable
public final class IntSequence {
    private static final IntSequence EMPTY = new IntSequence(new int[0]);

    @SuppressWarnings("Immutable") // written only by the constructor, never handed out (toArray copies)
    private final int[] values;

    private IntSequence(int[] values) {
        this.values = values;
    }

    public static IntSequence of() {
        return EMPTY;
    }

    /** A sequence of copies of {@code values}. */
    public static IntSequence copyOf(int... values) {
        return values.length == 0 ? EMPTY : new IntSequence(values.clone());
    }

    /** A sequence of {@code values}, in order. */
    public static IntSequence copyOf(Collection<Integer> values) {
        return copyOf(values.stream().mapToInt(Integer::intValue).toArray());
    }

    public int get(int i) {
        if (i < 0 || i >= values.length)
            throw new IndexOutOfBoundsException("no element " + i + " of " + values.length);
        return values[i];
    }

    public int length() {
        return values.length;
    }

    public IntStream stream() {
        return Arrays.stream(values);
    }

    /** A copy of the values. */
    public int[] toArray() {
        return values.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IntSequence s && Arrays.equals(s.values, values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return Arrays.toString(values);
    }
}
