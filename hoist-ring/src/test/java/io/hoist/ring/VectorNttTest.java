package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import io.hoist.math.Primes;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** cpu-vector is the scalar twin's bit-identical copy; where it refuses a prime, the engine falls back per limb. */
class VectorNttTest {
    private final NttBackend scalar = NttBackends.scalar();
    private final NttBackend vector = NttBackends.get(VectorNttBackend.NAME);

    @Test
    void bitIdenticalToScalarForEveryDegreeAndAcceptedPrimeSize() {
        SplittableRandom r = new SplittableRandom(11);
        for (int logN = 10; logN <= 16; logN++) {
            int n = 1 << logN;
            // every size up to the largest accepted one (its largest prime puts 4q closest to 2^63)
            for (int bits = logN == 10 ? 16 : 30;
                    bits <= VectorNttBackend.MAX_PRIME_BITS;
                    bits = bits == VectorNttBackend.MAX_PRIME_BITS
                            ? bits + 1
                            : Math.min(bits + (logN == 10 ? 1 : 5), VectorNttBackend.MAX_PRIME_BITS)) {
                NttTables t = NttTables.of(logN, Primes.nttPrimes(logN, bits, 1).get(0));
                assertTrue(vector.accepts(t), "cpu-vector accepts " + bits + "-bit primes");
                long[] a = NttTest.random(r, n, t.q());
                // the lazy butterflies' largest operands: q − 1 everywhere in half the vector
                Arrays.fill(a, 0, n / 2, t.q() - 1);
                long[] b = a.clone();
                vector.forward(new long[][] {a}, new NttTables[] {t}, 1);
                scalar.forward(new long[][] {b}, new NttTables[] {t}, 1);
                assertArrayEquals(b, a, "forward, N=2^" + logN + ", " + bits + "-bit prime");
                long[] c = NttTest.random(r, n, t.q());
                Arrays.fill(c, n / 2, n, t.q() - 1);
                long[] d = c.clone();
                vector.inverse(new long[][] {c}, new NttTables[] {t}, 1);
                scalar.inverse(new long[][] {d}, new NttTables[] {t}, 1);
                assertArrayEquals(d, c, "inverse, N=2^" + logN + ", " + bits + "-bit prime");
            }
        }
    }

    @Test
    void engineFallsBackPerLimbForRefusedPrimes() {
        int logN = 12, n = 1 << logN;
        long q61 = Primes.nttPrimes(logN, 61, 1).get(0),
                q62 = Primes.nttPrimes(logN, 62, 1).get(0),
                q45 = Primes.nttPrimes(logN, 45, 1).get(0);
        NttTables[] ts = {NttTables.of(logN, q61), NttTables.of(logN, q62), NttTables.of(logN, q45)};
        assertFalse(vector.accepts(ts[1]), "62-bit primes are beyond cpu-vector's lazy bound");
        SplittableRandom r = new SplittableRandom(12);
        long[][] a = new long[3][], b = new long[3][];
        for (int i = 0; i < 3; i++) {
            a[i] = NttTest.random(r, n, ts[i].q());
            b[i] = a[i].clone();
        }
        OpCounters counters = new OpCounters();
        NttEngine engine = new NttEngine(vector, counters);
        engine.forward(a, ts, 3);
        for (int i = 0; i < 3; i++) scalar.forward(new long[][] {b[i]}, new NttTables[] {ts[i]}, 1);
        assertArrayEquals(b, a);
        assertEquals(1, counters.get(Op.NTT_FALLBACK_LIMBS));
        assertEquals(3, counters.get(Op.NTT_LIMBS));
        assertEquals(2, counters.get(Op.NTT_CALLS), "accepted limbs in one call, refused ones in another");
        engine.inverse(a, ts, 3);
        for (int i = 0; i < 3; i++) scalar.inverse(new long[][] {b[i]}, new NttTables[] {ts[i]}, 1);
        assertArrayEquals(b, a);
        assertEquals(2, counters.get(Op.NTT_FALLBACK_LIMBS));
    }

    /**
     * A vector kernel that lost its inlining boxes every vector: ~1 MB per transform instead of ~0.
     * Timing is unreliable on shared machines; allocated bytes are not. Warm up until C2 has
     * compiled the kernel (bounded), then measure.
     */
    @Test
    void kernelAllocatesNothingPerTransformAfterWarmup() {
        var mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        int logN = 14, n = 1 << logN;
        NttTables t = NttTables.of(logN, Primes.nttPrimes(logN, 55, 1).get(0));
        long[][] a = {NttTest.random(new SplittableRandom(1), n, t.q())};
        NttTables[] ts = {t};
        long id = Thread.currentThread().threadId();
        long perTransform = Long.MAX_VALUE;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 200; i++) {
                vector.forward(a, ts, 1);
                vector.inverse(a, ts, 1);
            }
            long before = mx.getThreadAllocatedBytes(id);
            for (int i = 0; i < 100; i++) {
                vector.forward(a, ts, 1);
                vector.inverse(a, ts, 1);
            }
            perTransform = (mx.getThreadAllocatedBytes(id) - before) / 200;
            if (perTransform < 1024) break;
        }
        assertTrue(
                perTransform < 1024,
                "cpu-vector allocates " + perTransform
                        + " bytes per transform after warm-up (vectors are being boxed)");
    }
}
