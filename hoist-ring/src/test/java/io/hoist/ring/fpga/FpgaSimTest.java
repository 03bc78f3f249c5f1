package io.hoist.ring.fpga;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.math.ModArith;
import io.hoist.math.Primes;
import io.hoist.ring.NttBackend;
import io.hoist.ring.NttBackends;
import io.hoist.ring.NttEngine;
import io.hoist.ring.NttTables;
import io.hoist.ring.Op;
import io.hoist.ring.OpCounters;
import io.hoist.ring.UnsupportedPrimeException;
import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FpgaSimTest {
    private final SplittableRandom r = new SplittableRandom(81);

    /** Primes the kernel accepts: ≡ 1 mod 2^17 (generated for N = 2^16, valid for every smaller N). */
    static long prime(int bits, int index) {
        return Primes.nttPrimes(16, bits, index + 1).get(index);
    }

    @Test
    void wlmMatchesBigIntegerIncludingEdges() {
        BigInteger rInv;
        for (int bits : new int[] {30, 45, 54, 60, 61, 62}) {
            long q = prime(bits, 0);
            BigInteger bq = BigInteger.valueOf(q);
            rInv = BigInteger.ONE.shiftLeft(Wlm.LOG_R).modInverse(bq);
            long[] edges = {0, 1, 2, q - 1, q - 2, q >>> 1, (1L << 17) - 1, 1L << 17};
            for (long a : edges) for (long b : edges) check(a, b, q, bq, rInv);
            for (int i = 0; i < 20000; i++) check(r.nextLong(q), r.nextLong(q), q, bq, rInv);
        }
    }

    private static void check(long a, long b, long q, BigInteger bq, BigInteger rInv) {
        long want = BigInteger.valueOf(a)
                .multiply(BigInteger.valueOf(b))
                .multiply(rInv)
                .mod(bq)
                .longValue();
        assertEquals(want, Wlm.mul(a, b, q), a + "·" + b + "·2^-68 mod " + q);
    }

    @Test
    void twiddlesFromRootTablesEqualDirectPowers() {
        for (int logN : new int[] {10, 13, 16}) {
            long q = prime(58, 1);
            NttTables t = NttTables.of(logN, q);
            RootTables rt = new RootTables(t);
            long rModQ = BigInteger.ONE
                    .shiftLeft(Wlm.LOG_R)
                    .mod(BigInteger.valueOf(q))
                    .longValue();
            long half = ModArith.invMod(2, q), psiInv = ModArith.invMod(t.psi(), q);
            for (int e = 0; e < t.n(); e += (logN == 16 ? 37 : 1)) {
                assertEquals(
                        ModArith.mulModSlow(ModArith.powMod(t.psi(), e, q), rModQ, q),
                        rt.forwardTwiddle(e),
                        "ψ^e·R, e=" + e);
                long inv = ModArith.mulModSlow(ModArith.mulModSlow(ModArith.powMod(psiInv, e, q), half, q), rModQ, q);
                assertEquals(inv, rt.inverseTwiddle(e), "ψ^-e·2^-1·R, e=" + e);
            }
            assertEquals(2 * (1 << ((logN + 1) / 2)), rt.fwdLo.length * 2, "√N-sized tables");
        }
    }

    @Test
    void bitExactAgainstCpuScalarForEveryDegree() {
        NttBackend sim = new FpgaSimBackend();
        NttBackend scalar = NttBackends.scalar();
        for (int logN = 10; logN <= 16; logN++) {
            for (int bits : new int[] {36, 50, 59, 62}) {
                if (logN >= 15 && bits != 62 && bits != 50) continue; // keep the biggest rings to two primes
                NttTables t = NttTables.of(logN, prime(bits, logN % 3));
                long[] a = new long[t.n()];
                for (int k = 0; k < a.length; k++) a[k] = r.nextLong(t.q());
                a[0] = t.q() - 1;
                long[] b = a.clone(), c = a.clone(), d = a.clone();
                sim.forward(new long[][] {a}, new NttTables[] {t}, 1);
                scalar.forward(new long[][] {b}, new NttTables[] {t}, 1);
                assertArrayEquals(b, a, "forward N=2^" + logN + ", " + bits + " bits");
                sim.inverse(new long[][] {c}, new NttTables[] {t}, 1);
                scalar.inverse(new long[][] {d}, new NttTables[] {t}, 1);
                assertArrayEquals(d, c, "inverse N=2^" + logN + ", " + bits + " bits");
                sim.inverse(new long[][] {a}, new NttTables[] {t}, 1);
            }
        }
    }

    @Test
    void refusedPrimesNameTheConstraintAndTheEngineFallsBack() {
        FpgaSimBackend sim = new FpgaSimBackend();
        long notWlm = Primes.nttPrimes(10, 50, 1).get(0); // ≡ 1 mod 2^11 only
        NttTables bad = NttTables.of(
                10, notWlm % (1L << 17) == 1 ? Primes.nttPrimes(10, 49, 1).get(0) : notWlm);
        assertFalse(sim.accepts(bad));
        var e = assertThrows(
                UnsupportedPrimeException.class,
                () -> sim.forward(new long[][] {new long[1024]}, new NttTables[] {bad}, 1));
        assertTrue(e.getMessage().contains("2^17"), e.getMessage());
        NttTables good = NttTables.of(10, prime(50, 0));
        OpCounters counters = new OpCounters();
        NttEngine engine = new NttEngine(sim, counters);
        long[][] limbs = {new long[1024], new long[1024]};
        limbs[0][1] = 1;
        limbs[1][1] = 1;
        long[][] ref = {limbs[0].clone(), limbs[1].clone()};
        engine.forward(limbs, new NttTables[] {good, bad}, 2);
        NttBackends.scalar().forward(ref, new NttTables[] {good, bad}, 2);
        assertArrayEquals(ref, limbs);
        assertEquals(1, counters.get(Op.NTT_FALLBACK_LIMBS));
        assertEquals(1, sim.offloadStats().limbs(), "only the accepted limb went to the device");
    }

    @Test
    void timingModelReproducesThePaper() {
        FpgaTimingModel m = FpgaTimingModel.PAPER;
        int n = 1 << 16;
        assertEquals(5.12, m.kernelMicros(n), 1e-9);
        double one = m.callMicros(FpgaTimingModel.Mode.STREAMING, 1, n);
        double per33 = m.callMicros(FpgaTimingModel.Mode.STREAMING, 33, n) / 33;
        double mm = m.callMicros(FpgaTimingModel.Mode.MM, 1, n);
        assertTrue(Math.abs(one / 89 - 1) <= 0.10, "1 limb streaming: " + one + " µs vs 89");
        assertTrue(Math.abs(per33 / 28 - 1) <= 0.10, "33 limbs streaming: " + per33 + " µs/limb vs 28");
        assertTrue(Math.abs(mm / 222 - 1) <= 0.10, "1 limb MM: " + mm + " µs vs 222");
        double mmPipelined = (m.callMicros(FpgaTimingModel.Mode.MM, 33, n) - mm) / 32;
        assertTrue(Math.abs(mmPipelined / 99 - 1) <= 0.10, "MM pipelined: " + mmPipelined + " µs/limb vs 99");
        // per-limb time falls with the batch size, and the host→card stream dominates from 3 limbs on
        double prev = Double.MAX_VALUE;
        for (int k = 1; k <= 33; k++) {
            var b = m.call(FpgaTimingModel.Mode.STREAMING, k, n);
            assertTrue(b.totalMicros() / k < prev);
            prev = b.totalMicros() / k;
            if (k >= 3) assertTrue(b.h2cMicros() / b.totalMicros() > 0.65, "H2C share at " + k + " limbs");
        }
    }

    @Test
    void statisticsCountCallsLimbsBytesAndShadowTime() {
        FpgaSimBackend sim = FpgaSimBackend.withShadow(FpgaTimingModel.Mode.STREAMING, NttBackends.scalar());
        NttTables t = NttTables.of(12, prime(50, 0)), u = NttTables.of(12, prime(50, 1));
        long[][] three = {new long[4096], new long[4096], new long[4096]};
        sim.forward(three, new NttTables[] {t, u, t}, 3);
        sim.inverse(three, new NttTables[] {t, u, t}, 1);
        var s = sim.offloadStats();
        assertEquals(2, s.calls());
        assertEquals(4, s.limbs());
        assertEquals(4L * 4096 * 8, s.bytesIn());
        assertEquals(1L, s.limbsPerCallHistogram().get(3));
        assertEquals(1L, s.limbsPerCallHistogram().get(1));
        double want = sim.model().callMicros(FpgaTimingModel.Mode.STREAMING, 3, 4096)
                + sim.model().callMicros(FpgaTimingModel.Mode.STREAMING, 1, 4096);
        assertEquals(want, s.deviceMicros(), 1e-6);
        assertTrue(s.shadowCpuNanos() > 0);
    }
}
