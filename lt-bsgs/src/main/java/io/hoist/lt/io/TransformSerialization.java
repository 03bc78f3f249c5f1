package io.hoist.lt.io;

import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.io.Formats;
import io.hoist.ckks.io.Header;
import io.hoist.ckks.io.MalformedDataException;
import io.hoist.ckks.io.ObjectKind;
import io.hoist.lt.BlockRowPartial;
import io.hoist.lt.EncodedTransform;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LimbLayout;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import io.hoist.ring.Domain;
import io.hoist.ring.RnsPoly;
import it.unimi.dsi.fastutil.ints.IntAVLTreeSet;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Plans and compact encoded transforms in the Hoist binary format (see {@link Header}).
 * Plan body: u8 algorithm (1 diagonal, 2 BSGS, 3 DH-BSGS, 4 TH-BSGS), u32 n, u8 number of split
 * factors, the factors (u32), u32 number of diagonals, the diagonal indices (u32, strictly
 * increasing, below n). Compact transform body (level and Δ_pt in the header): u32 plan length, the
 * plan body, u32 diagonal count, then per diagonal in index order N signed words (i64, |w| &lt; 2^62).
 * Precomputed transforms are not stored: they are D times larger and re-made from these in one pass.
 */
public final class TransformSerialization {
    private static final int MAX_N = 1 << 16;
    /** The longest plan body: algorithm, dimension, three split factors, the count and MAX_N diagonal indices. */
    private static final long MAX_PLAN_BODY = 1 + 4 + 1 + 4L * 3 + 4 + 4L * MAX_N;

    private TransformSerialization() {}

    public static byte[] write(Plan plan) {
        byte[] body = planBody(plan);
        ByteBuffer b = Formats.start(ObjectKind.PLAN, 0, new byte[32], -1, 0, body.length);
        b.put(body);
        return Formats.finish(b);
    }

    public static Plan readPlan(byte[] data) {
        Header h = Formats.header(data);
        if (h.kind() != ObjectKind.PLAN)
            throw new MalformedDataException(
                    "expected a plan, found a " + h.kind().label());
        if (h.bodyLength() > MAX_PLAN_BODY)
            throw new MalformedDataException("plan body of " + h.bodyLength() + " bytes");
        ByteBuffer b = Formats.open(data, h, ObjectKind.PLAN, null, h.bodyLength());
        Plan p = parsePlan(b, (int) h.bodyLength());
        if (b.hasRemaining()) throw new MalformedDataException("trailing bytes in the plan");
        return p;
    }

    static byte[] planBody(Plan plan) {
        int[] split = plan.split();
        ByteBuffer b = ByteBuffer.allocate(
                        1 + 4 + 1 + 4 * split.length + 4 + 4 * plan.indices().size())
                .order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) (plan.algorithm().ordinal() + 1)).putInt(plan.dimension()).put((byte) split.length);
        for (int f : split) b.putInt(f);
        b.putInt(plan.indices().size());
        for (int r : plan.indices()) b.putInt(r);
        return b.array();
    }

    /** Parses a plan body of at most {@code max} bytes from {@code b}. */
    static Plan parsePlan(ByteBuffer b, int max) {
        try {
            if (max < 10) throw new MalformedDataException("truncated plan");
            int algo = Byte.toUnsignedInt(b.get());
            if (algo < 1 || algo > Algorithm.values().length)
                throw new MalformedDataException("unknown algorithm code " + algo);
            Algorithm a = Algorithm.values()[algo - 1];
            int n = b.getInt();
            if (n < 1 || n > MAX_N || Integer.bitCount(n) != 1)
                throw new MalformedDataException("plan dimension " + n + " (a power of two up to " + MAX_N + ")");
            int parts = Byte.toUnsignedInt(b.get());
            if (parts != a.splitParts())
                throw new MalformedDataException(
                        a.cliName() + " takes " + a.splitParts() + " split factors, the plan has " + parts);
            if (max < 10 + 4 * parts) throw new MalformedDataException("truncated plan");
            int[] split = new int[parts];
            for (int i = 0; i < parts; i++) split[i] = b.getInt();
            // one object, one encoding: a diagonal plan's one factor is its dimension
            if (a == Algorithm.DIAGONAL && split[0] != n)
                throw new MalformedDataException(
                        "a diagonal plan of dimension " + n + " stores the factor " + split[0]);
            int count = b.getInt();
            if (count < 1 || count > n || max != 10 + 4 * parts + 4L * count)
                throw new MalformedDataException("plan with " + count + " diagonals in " + max + " bytes");
            IntAVLTreeSet idx = new IntAVLTreeSet();
            int prev = -1;
            for (int i = 0; i < count; i++) {
                int r = b.getInt();
                if (r <= prev || r >= n)
                    throw new MalformedDataException(
                            "diagonal indices must increase and lie below " + n + ": " + r + " after " + prev);
                idx.add(r);
                prev = r;
            }
            return Plan.forIndices(n, idx, a, a == Algorithm.DIAGONAL ? new int[0] : split);
        } catch (BufferUnderflowException e) {
            throw new MalformedDataException("truncated plan");
        } catch (IllegalArgumentException e) {
            if (e instanceof MalformedDataException m) throw m;
            throw new MalformedDataException("invalid plan: " + e.getMessage());
        }
    }

    /** A compact transform (one signed word per coefficient) with its plan. */
    public static byte[] write(EncodedTransform et) {
        if (et.storage() != Storage.COMPACT)
            throw new InvalidTransformException(
                    "only compact transforms are stored (precomputed ones are D times larger; encode them from the compact form)");
        if (!et.rescales())
            throw new InvalidTransformException(
                    "format version 1 stores rescaling transforms only (plaintext scale q_ℓ); this one shares its level");
        CkksParameters p = et.params();
        byte[] plan = planBody(et.plan());
        int count = et.plan().indices().size();
        long body = 4 + plan.length + 4 + (long) count * p.n() * 8;
        ByteBuffer b =
                Formats.start(ObjectKind.ENCODED_TRANSFORM, 0, Formats.fingerprint(p), et.level(), et.scale(), body);
        b.putInt(plan.length).put(plan).putInt(count);
        var lb = b.slice().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer(); // does not move b
        for (int r : et.plan().indices()) et.compactWordsInto(r, lb);
        b.position(b.position() + count * p.n() * 8);
        return Formats.finish(b);
    }

    public static EncodedTransform readEncodedTransform(byte[] data, CkksContext ctx) {
        CkksParameters p = ctx.params();
        Header h = Formats.header(data);
        if (h.kind() != ObjectKind.ENCODED_TRANSFORM)
            throw new MalformedDataException(
                    "expected an encoded transform, found a " + h.kind().label());
        if (h.level() < 1 || h.level() > p.maxLevel())
            throw new MalformedDataException("transform level " + h.level() + " outside [1, " + p.maxLevel() + "]");
        if (h.scale() != p.q(h.level()))
            throw new MalformedDataException(
                    "transform scale " + h.scale() + " is not q_" + h.level() + " = " + p.q(h.level()));
        if (data.length < Header.SIZE + 4) throw new MalformedDataException("truncated encoded transform");
        int planLen = ByteBuffer.wrap(data, Header.SIZE, 4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .getInt();
        if (planLen < 10 || planLen > MAX_PLAN_BODY || data.length < Header.SIZE + 4L + planLen + 4)
            throw new MalformedDataException("encoded transform with a plan of " + planLen + " bytes");
        int count = ByteBuffer.wrap(data, Header.SIZE + 4 + planLen, 4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .getInt();
        if (count < 1 || count > p.slots())
            throw new MalformedDataException("encoded transform with " + count + " diagonals");
        ByteBuffer b =
                Formats.open(data, h, ObjectKind.ENCODED_TRANSFORM, p, 4L + planLen + 4 + (long) count * p.n() * 8);
        b.getInt();
        ByteBuffer pb = b.slice().order(ByteOrder.LITTLE_ENDIAN);
        pb.limit(planLen);
        Plan plan = parsePlan(pb, planLen);
        b.position(b.position() + planLen);
        b.getInt();
        if (plan.indices().size() != count)
            throw new MalformedDataException("the plan has " + plan.indices().size() + " diagonals, the data " + count);
        if (p.slots() % plan.dimension() != 0)
            throw new MalformedDataException(
                    "plan dimension " + plan.dimension() + " does not divide the " + p.slots() + " slots");
        try {
            return EncodedTransform.fromCompactWords(
                    p, plan, h.level(), b.slice().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer());
        } catch (IllegalArgumentException e) {
            throw new MalformedDataException("invalid encoded transform: " + e.getMessage());
        }
    }

    /**
     * A block row's partial sums. Body (level and output scale in the header): u32 plan length, the
     * plan body, u32 block row, u32 column count, the columns (u32, increasing), u32 polynomial
     * count, then per polynomial u8 parts (1: Q only, 2: Q and P), u8 domain (0 coefficient, 1 NTT)
     * and its residues (u64, Q limbs 0 … ℓ, then P limbs), each below its prime.
     */
    public static byte[] write(BlockRowPartial part) {
        CkksParameters p = part.params();
        byte[] plan = planBody(part.plan());
        long body = 4 + plan.length + 4 + 4 + 4L * part.columns().size() + 4;
        for (int i = 0; i < part.polynomialCount(); i++) body += 2 + (long) limbs(part.sum(i)) * p.n() * 8;
        ByteBuffer b = Formats.start(
                ObjectKind.BLOCK_ROW_PARTIAL, 0, Formats.fingerprint(p), part.level(), part.scale(), body);
        b.putInt(plan.length)
                .put(plan)
                .putInt(part.blockRow())
                .putInt(part.columns().size());
        for (int c : part.columns()) b.putInt(c);
        b.putInt(part.polynomialCount());
        for (int i = 0; i < part.polynomialCount(); i++) {
            PolyQP u = part.sum(i);
            b.put((byte) (u.isQOnly() ? 1 : 2)).put((byte) (u.domain() == Domain.NTT ? 1 : 0));
            var lb = b.slice().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
            for (int j = 0; j < u.q().limbCount(); j++) lb.put(u.q().limb(j));
            if (!u.isQOnly()) for (int j = 0; j < u.p().limbCount(); j++) lb.put(u.p().limb(j));
            b.position(b.position() + limbs(u) * p.n() * 8);
        }
        return Formats.finish(b);
    }

    public static BlockRowPartial readBlockRowPartial(byte[] data, CkksContext ctx) {
        CkksParameters p = ctx.params();
        Header h = Formats.header(data);
        if (h.kind() != ObjectKind.BLOCK_ROW_PARTIAL)
            throw new MalformedDataException(
                    "expected a block row partial, found a " + h.kind().label());
        if (h.level() < 1 || h.level() > p.maxLevel())
            throw new MalformedDataException("partial at level " + h.level() + " outside [1, " + p.maxLevel() + "]");
        if (!(h.scale() > 0) || Double.isInfinite(h.scale()))
            throw new MalformedDataException("partial with scale " + h.scale());
        ByteBuffer b = Formats.open(data, h, ObjectKind.BLOCK_ROW_PARTIAL, p, h.bodyLength());
        try {
            int planLen = b.getInt();
            if (planLen < 10 || planLen > MAX_PLAN_BODY || planLen > b.remaining())
                throw new MalformedDataException("partial with a plan of " + planLen + " bytes");
            ByteBuffer pb = b.slice().order(ByteOrder.LITTLE_ENDIAN);
            pb.limit(planLen);
            Plan plan = parsePlan(pb, planLen);
            b.position(b.position() + planLen);
            if (plan.algorithm() == Algorithm.BSGS)
                throw new MalformedDataException("block products have no bsgs partials");
            if (p.slots() % plan.dimension() != 0)
                throw new MalformedDataException(
                        "plan dimension " + plan.dimension() + " does not divide the " + p.slots() + " slots");
            int row = b.getInt(), count = b.getInt();
            if (row < 0 || count < 1 || count > b.remaining() / 4)
                throw new MalformedDataException("partial of block row " + row + " over " + count + " columns");
            ImmutableSortedSet.Builder<Integer> cols = ImmutableSortedSet.naturalOrder();
            int prev = -1;
            for (int i = 0; i < count; i++) {
                int c = b.getInt();
                if (c <= prev)
                    throw new MalformedDataException("partial columns must increase: " + c + " after " + prev);
                cols.add(c);
                prev = c;
            }
            LtProgram prog = LtProgram.compile(plan, LimbLayout.of(p, h.level()));
            List<Integer> ids = prog.sumBuffers();
            int polys = b.getInt();
            if (polys != ids.size())
                throw new MalformedDataException(
                        "partial with " + polys + " polynomials, its plan sums into " + ids.size());
            List<PolyQP> u = new ArrayList<>(polys);
            for (int i = 0; i < polys; i++) {
                int parts = b.get(), dom = b.get();
                int want = prog.buffer(ids.get(i)).qOnly()
                        ? 1
                        : 2; // the diagonal sums are in the NTT domain, over QP unless the program keeps Q only
                if (parts != want || dom != 1)
                    throw new MalformedDataException("partial polynomial " + i + " with parts " + parts + " and domain "
                            + dom + " (the program's sums have " + want + " and 1)");
                Domain domain = Domain.NTT;
                RnsPoly q = ctx.ringQ().newPoly(h.level(), domain);
                RnsPoly pp = parts == 2 ? ctx.ringP().newPoly(ctx.alpha() - 1, domain) : null;
                var lb = b.slice().order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
                int limbs = q.limbCount() + (pp == null ? 0 : pp.limbCount());
                if (lb.remaining() < (long) limbs * p.n()) throw new MalformedDataException("truncated partial");
                for (int j = 0; j < limbs; j++) {
                    long[] l = j < q.limbCount() ? q.limb(j) : pp.limb(j - q.limbCount());
                    lb.get(l);
                    long prime = ctx.primeQP(h.level(), j);
                    for (long x : l)
                        if (x < 0 || x >= prime)
                            throw new MalformedDataException("partial polynomial " + i + ": residue " + x + " of limb "
                                    + j + " is not below its prime " + prime);
                }
                b.position(b.position() + limbs * p.n() * 8);
                u.add(pp == null ? PolyQP.qOnly(q) : PolyQP.of(q, pp));
            }
            if (b.hasRemaining()) throw new MalformedDataException("trailing bytes in the partial");
            return BlockRowPartial.of(p, plan, h.level(), row, h.scale(), cols.build(), u);
        } catch (BufferUnderflowException e) {
            throw new MalformedDataException("truncated partial");
        }
    }

    private static int limbs(PolyQP u) {
        return u.q().limbCount() + (u.isQOnly() ? 0 : u.p().limbCount());
    }
}
