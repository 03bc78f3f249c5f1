package io.hoist.bfv;

/**
 * SEAL's {@code sample_poly_uniform} on a seed stream: the first 8·N·k words, word j·N + i for
 * coefficient i modulo prime j, a word accepted below (2^64 − 1) − ((2^64 − 1) mod q) − 1 and then
 * reduced; each rejected word replaced by the next unused word after the bulk, primes in order. One
 * sampler per polynomial; call {@link #next} for primes 0, 1, … in turn. Works on public data only.
 */
final class UniformSampler {
    private final BfvContext ctx;
    private final int k;
    private final PrngType type;
    private final byte[] seed;
    private final SeedStream bulk;
    private SeedStream extra;
    private int nextPrime;

    UniformSampler(BfvContext ctx, int k, PrngType type, byte[] seed) {
        this.ctx = ctx;
        this.k = k;
        this.type = type;
        this.seed = seed;
        this.bulk = new SeedStream(type, seed, 0);
    }

    /** Coefficients of the next prime into {@code dst[0..N)}. */
    void next(long[] dst) {
        int j = nextPrime++;
        if (j >= k) throw new IllegalStateException("all " + k + " primes sampled");
        long q = ctx.prime(j), one = ctx.oneShoupQ[j];
        long max = -1L - Long.remainderUnsigned(-1L, q) - 1;
        int n = ctx.n();
        for (int i = 0; i < n; i++) {
            long x = bulk.nextLong();
            while (Long.compareUnsigned(x, max) >= 0) x = extra().nextLong();
            dst[i] = Ct.mulShoup(x, 1, one, q);
        }
    }

    private SeedStream extra() {
        if (extra == null) {
            // the words right after the bulk: from its last block on, skipping the part the bulk used
            long bytes = 8L * ctx.n() * k;
            extra = new SeedStream(type, seed, bytes / SeedStream.BLOCK);
            for (long w = (bytes % SeedStream.BLOCK) / 8; w > 0; w--) extra.nextLong();
        }
        return extra;
    }
}
