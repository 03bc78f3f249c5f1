package io.hoist.bfv;

import org.bouncycastle.crypto.digests.Blake2bDigest;
import org.bouncycastle.crypto.digests.SHAKEDigest;

/**
 * SEAL's public-seed stream: 4096-byte blocks c = 0, 1, 2, … of BLAKE2Xb or SHAKE256 keyed by the
 * 64-byte seed, read as little-endian u64 words. Both hashes come from Bouncy Castle; BLAKE2Xb is the
 * thin layer of its parameter blocks on top of Bouncy Castle's BLAKE2b (the XOF length in the node
 * offset word, then one output node per 64 bytes). Not thread-safe.
 */
final class SeedStream {
    static final int SEED_BYTES = 64;
    static final int BLOCK = 4096;

    private final PrngType type;
    private final byte[] seed;
    private final byte[] block = new byte[BLOCK];
    private long counter;
    private int pos = BLOCK;

    /** The stream from block {@code firstBlock} on. */
    SeedStream(PrngType type, byte[] seed, long firstBlock) {
        if (type == null) throw new BfvOperandException("no PRNG type");
        if (seed.length != SEED_BYTES)
            throw new BfvOperandException("a SEAL seed is " + SEED_BYTES + " bytes, got " + seed.length);
        this.type = type;
        this.seed = seed.clone();
        this.counter = firstBlock;
    }

    long nextLong() {
        if (pos == BLOCK) refill();
        long x = 0;
        for (int k = 7; k >= 0; k--) x = (x << 8) | (block[pos + k] & 0xFFL);
        pos += 8;
        return x;
    }

    private void refill() {
        byte[] ctr = new byte[8];
        for (int k = 0; k < 8; k++) ctr[k] = (byte) (counter >>> (8 * k));
        counter++;
        switch (type) {
            case SHAKE256 -> {
                SHAKEDigest d = new SHAKEDigest(256);
                d.update(seed, 0, SEED_BYTES);
                d.update(ctr, 0, 8);
                d.doFinal(block, 0, BLOCK);
            }
            case BLAKE2XB -> blake2xb(seed, ctr, block);
        }
        pos = 0;
    }

    /** BLAKE2Xb with a 64-byte key and a 4096-byte output (the BLAKE2X paper, §2). */
    static void blake2xb(byte[] key, byte[] message, byte[] out) {
        int xofLength = out.length;
        byte[] root = new byte[64];
        Blake2bDigest h0 = new Blake2bDigest(key, param(64, key.length, 1, 1, 0, 0, xofLength, 0));
        h0.update(message, 0, message.length);
        h0.doFinal(root, 0);
        byte[] node = new byte[64];
        for (int i = 0, off = 0; off < xofLength; i++, off += 64) {
            int len = Math.min(64, xofLength - off);
            Blake2bDigest b = new Blake2bDigest(null, param(len, 0, 0, 0, 64, i, xofLength, 64));
            b.update(root, 0, 64);
            b.doFinal(node, 0);
            System.arraycopy(node, 0, out, off, len);
        }
    }

    /** A BLAKE2b parameter block: the node offset word holds the node index and the XOF length. */
    private static byte[] param(
            int digest, int keyLen, int fanout, int depth, int leaf, int nodeOffset, int xofLength, int inner) {
        byte[] p = new byte[64];
        p[0] = (byte) digest;
        p[1] = (byte) keyLen;
        p[2] = (byte) fanout;
        p[3] = (byte) depth;
        for (int k = 0; k < 4; k++) {
            p[4 + k] = (byte) (leaf >>> (8 * k));
            p[8 + k] = (byte) (nodeOffset >>> (8 * k));
            p[12 + k] = (byte) (xofLength >>> (8 * k));
        }
        p[17] = (byte) inner;
        return p;
    }
}
