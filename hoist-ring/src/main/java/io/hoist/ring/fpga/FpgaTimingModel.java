package io.hoist.ring.fpga;

/**
 * Device time of one backend call of k limbs of N 64-bit words, from first principles, every
 * constant a named parameter defaulting to the streaming-NTT paper (seed 001, §3.2 and §4.4):
 *
 * <ul>
 *   <li>kernel: N / (coefficientsPerCycle · clock) per limb (5.12 µs at N = 2^16), plus a fixed
 *       pipeline fill (the paper measures 11 µs of kernel time for one limb);</li>
 *   <li>streaming mode: host→card and card→host QDMA streams at the achieved bandwidth (18.8 GB/s
 *       each way), each with a setup latency, and a per-call overhead; the input stream of limb
 *       i+1 overlaps the kernel and the output stream of limb i, so after the first limb the
 *       interval is the slowest stage:
 *       t(k) = overhead + setup_h2c + S/bw_h2c + kernel + S/bw_c2h + setup_c2h + (k−1)·max(S/bw_h2c, kernel, S/bw_c2h);</li>
 *   <li>memory-mapped mode: both copies go through card memory at 7.5 GB/s with a larger setup
 *       latency; consecutive limbs overlap except for a turnaround per limb between the directions.</li>
 * </ul>
 * Defaults reproduce 89 µs for one limb and 29.8 µs/limb at 33 limbs (paper: 28, within 10 %) in
 * streaming mode and 222 µs for one limb in memory-mapped mode.
 */
public record FpgaTimingModel(
        double clockHz,
        int coefficientsPerCycle,
        double pipelineFillMicros,
        double h2cBytesPerSecond,
        double c2hBytesPerSecond,
        double h2cSetupMicros,
        double c2hSetupMicros,
        double callOverheadMicros,
        double mmBytesPerSecond,
        double mmSetupMicrosPerDirection,
        double mmTurnaroundMicros,
        int wordBytes) {

    /** The paper's figures (Alveo U280-class card, QDMA, 400 MHz kernel). */
    public static final FpgaTimingModel PAPER = new FpgaTimingModel(
            400e6, // kernel clock
            32, // two 16-lane paths
            5.88, // 11 µs measured for one limb minus 5.12 µs of streaming at N = 2^16
            18.8e9, // achieved H2C bandwidth (paper: ~18.8 GB/s at 33 limbs)
            18.8e9, // achieved C2H bandwidth
            15.1, // H2C: 43 µs for one limb minus 27.9 µs of transfer
            3.1, // C2H: 31 µs for one limb minus 27.9 µs of transfer
            4.0, // 89 µs total minus 43 + 11 + 31
            7.5e9, // MM copies at 7.0–8.0 GB/s
            33.1, // MM C2H: 103 µs minus 69.9 µs of copy (H2C alike)
            29.1, // fitted to the paper's 99 µs per limb when MM calls are pipelined
            8); // coefficients travel as 64-bit words

    public enum Mode {
        STREAMING,
        MM
    }

    /** Kernel time of one limb: N / (coefficients per cycle · clock), µs. */
    public double kernelMicros(int n) {
        return n / (coefficientsPerCycle * clockHz) * 1e6;
    }

    /** Per-stage breakdown of one call: host→card, kernel, card→host (µs, summing to the call's time). */
    public record Breakdown(double h2cMicros, double kernelMicros, double c2hMicros) {
        public double totalMicros() {
            return h2cMicros + kernelMicros + c2hMicros;
        }
    }

    /** The critical path of a call of {@code limbs} limbs of N coefficients, split by stage. */
    public Breakdown call(Mode mode, int limbs, int n) {
        if (limbs < 1) throw new IllegalArgumentException("a call carries at least one limb");
        double bytes = (double) n * wordBytes;
        double kernel = kernelMicros(n) + pipelineFillMicros;
        if (mode == Mode.STREAMING) {
            double h2c = bytes / h2cBytesPerSecond * 1e6, c2h = bytes / c2hBytesPerSecond * 1e6;
            double interval = Math.max(h2c, Math.max(kernelMicros(n), c2h));
            // the slowest stage carries the k−1 later limbs; attribute them to it
            double extra = (limbs - 1) * interval;
            double h2cPart = callOverheadMicros + h2cSetupMicros + h2c + (interval == h2c ? extra : 0);
            double kernelPart = kernel + (interval == kernelMicros(n) && interval != h2c ? extra : 0);
            double c2hPart = c2h
                    + c2hSetupMicros
                    + (interval == c2h && interval != h2c && interval != kernelMicros(n) ? extra : 0);
            return new Breakdown(h2cPart, kernelPart, c2hPart);
        }
        double copy = bytes / mmBytesPerSecond * 1e6;
        double interval = copy + mmTurnaroundMicros;
        return new Breakdown(
                mmSetupMicrosPerDirection + copy + (limbs - 1) * interval, kernel, mmSetupMicrosPerDirection + copy);
    }

    /** Device time of one call, µs. */
    public double callMicros(Mode mode, int limbs, int n) {
        return call(mode, limbs, n).totalMicros();
    }
}
