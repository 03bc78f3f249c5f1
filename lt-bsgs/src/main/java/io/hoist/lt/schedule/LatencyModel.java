package io.hoist.lt.schedule;

import io.hoist.lt.plan.CountingInterpreter;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Storage;

/**
 * The latency model of spec §7.3: per phase, max(off-chip bytes / bandwidth, cycles · clock period),
 * summed over the phases; the non-optimised baseline pays compute plus memory without overlap.
 * Cycles are the phase's modular multiplications (the §6.2 model, per step) divided by the number of
 * processing elements, each doing one multiplication per cycle. Defaults: the U280's 480 GB/s HBM
 * and 43 MB on chip (spec §7.3); the clock and the PE count of the TH-BSGS design are not in the
 * available text [X], so 300 MHz and 512 PEs are assumptions of ours, named here so they can be set.
 */
public record LatencyModel(double bandwidthBytesPerSecond, double clockHz, int processingElements, long onChipBytes) {
    public static final LatencyModel U280 = new LatencyModel(480e9, 300e6, 512, 43_000_000L);

    public LatencyModel {
        InvalidTransformException.check(
                bandwidthBytesPerSecond > 0 && clockHz > 0 && processingElements > 0 && onChipBytes > 0,
                "bandwidth, clock, processing elements and on-chip bytes must be positive");
    }

    public LatencyModel withBandwidth(double bytesPerSecond) {
        return new LatencyModel(bytesPerSecond, clockHz, processingElements, onChipBytes);
    }

    public LatencyModel withOnChip(long bytes) {
        return new LatencyModel(bandwidthBytesPerSecond, clockHz, processingElements, bytes);
    }

    /** Microseconds of a phase that moves {@code bytes} and does {@code mults} multiplications, overlapped. */
    public double phaseMicros(long bytes, double mults) {
        return Math.max(memoryMicros(bytes), computeMicros(mults));
    }

    /** Microseconds without overlap (the baseline). */
    public double serialMicros(long bytes, double mults) {
        return memoryMicros(bytes) + computeMicros(mults);
    }

    public double memoryMicros(long bytes) {
        return bytes / bandwidthBytesPerSecond * 1e6;
    }

    public double computeMicros(double mults) {
        return Math.ceil(mults / processingElements) / clockHz * 1e6;
    }

    /** §6.2 multiplications of each phase 1 … 6 of {@code program} (index 0 unused). */
    public static double[] phaseMults(LtProgram program, Storage storage) {
        LimbLayout lay = program.layout();
        double ct = CountingInterpreter.transformMults(lay);
        double[] m = new double[7];
        for (LtProgram.Step s : program.steps()) {
            double x = switch (s.kind()) {
                case DECOMPOSE -> CountingInterpreter.decomposeMults(lay);
                case KEY_SWITCH -> CountingInterpreter.keySwitchMults(lay);
                case INTT -> lay.d() * ct;
                case MOD_DOWN ->
                    CountingInterpreter.modDownMults(lay) - lay.d() * ct; // its transforms are the INTT step's
                case MOD_DOWN_RESCALE, MOD_DOWN_KEEP_LEVEL -> CountingInterpreter.modDownMults(lay);
                case DIAGONAL_SUM ->
                    s.diagonals().length()
                            * (2.0 * lay.d() * lay.n() + (storage == Storage.COMPACT ? lay.d() * ct : 0));
                case TIMES_P -> (double) lay.lq() * lay.n();
                case MOVE -> 0;
            };
            m[s.phase()] += x;
        }
        return m;
    }
}
