package io.hoist.ckks;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/** The shipped parameter presets of {@link CkksParameters#preset} (spec parameters.md). */
final class Presets {
    private Presets() {}

    static CkksParameters of(String name) {
        Objects.requireNonNull(name, "the preset name is null");
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "n13" ->
                CkksParameters.builder()
                        .name("n13")
                        .logN(13)
                        .logQ(50, 40, 40)
                        .logP(60)
                        .scale(0x1p40)
                        .build();
            case "n14" ->
                CkksParameters.builder()
                        .name("n14")
                        .logN(14)
                        .logQ(55, 45, 45, 45, 45, 45)
                        .logP(60, 60)
                        .scale(0x1p45)
                        .build();
            case "n15" ->
                CkksParameters.builder()
                        .name("n15")
                        .logN(15)
                        .logQ(repeat(60, 1, 50, 9))
                        .logP(60, 60, 60)
                        .scale(0x1p50)
                        .build();
            case "n16" ->
                CkksParameters.builder()
                        .name("n16")
                        .logN(16)
                        .logQ(repeat(60, 1, 45, 24))
                        .logP(repeat(60, 8, 0, 0))
                        .scale(0x1p45)
                        .build();
            case "boot16" ->
                CkksParameters.builder()
                        .name("boot16")
                        .logN(16)
                        .logQ(concat(repeat(60, 1, 40, 9), repeat(39, 3, 60, 8), repeat(56, 4, 0, 0)))
                        .logP(repeat(61, 5, 0, 0))
                        .secret(SecretDistribution.sparseTernary(192))
                        .scale(0x1p45)
                        .build();
            case "boot14" ->
                CkksParameters.builder()
                        .name("boot14")
                        .logN(14)
                        .logQ(50, 36, 36, 45, 45, 45)
                        .logP(55, 55)
                        .secret(SecretDistribution.sparseTernary(192))
                        .scale(0x1p40)
                        .build();
            default ->
                throw new InvalidParametersException(
                        "unknown preset '" + name + "'; known: " + String.join(", ", CkksParameters.presetNames()));
        };
    }

    private static int[] concat(int[]... parts) {
        return Arrays.stream(parts).flatMapToInt(Arrays::stream).toArray();
    }

    private static int[] repeat(int first, int firstCount, int rest, int restCount) {
        int[] out = new int[firstCount + restCount];
        Arrays.fill(out, 0, firstCount, first);
        Arrays.fill(out, firstCount, out.length, rest);
        return out;
    }
}
