package io.hoist.lt.plan;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.ImmutableSortedSet;
import io.hoist.ckks.CkksParameters;
import it.unimi.dsi.fastutil.ints.Int2ObjectAVLTreeMap;
import it.unimi.dsi.fastutil.ints.Int2ObjectSortedMap;
import it.unimi.dsi.fastutil.ints.IntAVLTreeSet;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntList;
import it.unimi.dsi.fastutil.ints.IntSortedSet;
import it.unimi.dsi.fastutil.ints.IntSortedSets;
import it.unimi.dsi.fastutil.longs.LongAVLTreeSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * How a transform is evaluated: the algorithm, its split, and everything that follows from them
 * before anything is encoded — the rotations of each layer, the exact rotation keys, and the
 * closed-form {@link Cost}.
 *
 * <p>Every diagonal index r is split with block sizes b1 | b2 (spec §5.5): inner i = r mod b1,
 * middle j = (r mod b2) − i, outer k = r − (r mod b2). TH-BSGS(n1', n2', n3') has b1 = n1',
 * b2 = n1'·n2'; DH-BSGS(n1, n2) and BSGS(n1, n2) have b1 = b2 = n1 (Lattigo's BSGSIndex);
 * the hoisted diagonal method is b1 = b2 = n. For a dense matrix this reproduces the counts of
 * §4.3/§5.3 exactly. One refinement for sparse sets: a Decompose (and the ModDown before it) is
 * planned only for the inner rotations that some middle rotation actually uses, and the first
 * Decompose only if any rotation follows it — for dense sets this changes nothing.
 */
public final class Plan {
    /** The largest dimension: the slots of N = 2^17, the largest ring. */
    public static final int MAX_DIMENSION = 1 << 16;

    private final Algorithm algorithm;
    private final int n;
    private final int[] split;
    private final int b1, b2;
    private final IntSortedSet indices;
    private final IntSortedSet inner, middle, outer;
    /** Middle rotation j → the inner indices i it is applied to (pairs with j ≠ 0). */
    private final Int2ObjectSortedMap<IntSortedSet> middlePairs;

    private final IntSortedSet middleSources;
    /** Outer k → its diagonal indices r. */
    private final Int2ObjectSortedMap<IntList> groups;

    private final ImmutableSortedSet<Integer> indicesView, innerView, middleView, outerView, sourcesView;
    private final ImmutableSortedMap<Integer, ImmutableSortedSet<Integer>> pairsView;
    private final ImmutableSortedMap<Integer, ImmutableList<Integer>> groupsView;

    private Plan(Algorithm algorithm, int n, int[] split, IntSortedSet indices) {
        this.algorithm = algorithm;
        this.n = n;
        this.split = split.clone();
        switch (algorithm) {
            case DIAGONAL -> {
                b1 = n;
                b2 = n;
            }
            case BSGS, DH_BSGS -> {
                b1 = split[0];
                b2 = split[0];
            }
            default -> {
                b1 = split[0];
                b2 = split[0] * split[1];
            }
        }
        this.indices = IntSortedSets.unmodifiable(new IntAVLTreeSet(indices));
        IntAVLTreeSet in = new IntAVLTreeSet(),
                mid = new IntAVLTreeSet(),
                out = new IntAVLTreeSet(),
                src = new IntAVLTreeSet();
        Int2ObjectAVLTreeMap<IntSortedSet> pairs = new Int2ObjectAVLTreeMap<>();
        Int2ObjectAVLTreeMap<IntList> grp = new Int2ObjectAVLTreeMap<>();
        for (int r : indices) {
            int i = inner(r), j = middle(r), k = outer(r);
            in.add(i);
            mid.add(j);
            out.add(k);
            if (j != 0) {
                pairs.computeIfAbsent(j, x -> new IntAVLTreeSet()).add(i);
                if (i != 0) src.add(i);
            }
            grp.computeIfAbsent(k, x -> new IntArrayList()).add(r);
        }
        this.inner = IntSortedSets.unmodifiable(in);
        this.middle = IntSortedSets.unmodifiable(mid);
        this.outer = IntSortedSets.unmodifiable(out);
        this.middlePairs = pairs;
        this.middleSources = IntSortedSets.unmodifiable(src);
        this.groups = grp;
        this.indicesView = ImmutableSortedSet.copyOf(this.indices);
        this.innerView = ImmutableSortedSet.copyOf(inner);
        this.middleView = ImmutableSortedSet.copyOf(middle);
        this.outerView = ImmutableSortedSet.copyOf(outer);
        this.sourcesView = ImmutableSortedSet.copyOf(middleSources);
        ImmutableSortedMap.Builder<Integer, ImmutableSortedSet<Integer>> pb = ImmutableSortedMap.naturalOrder();
        for (var e : pairs.int2ObjectEntrySet()) pb.put(e.getIntKey(), ImmutableSortedSet.copyOf(e.getValue()));
        this.pairsView = pb.build();
        ImmutableSortedMap.Builder<Integer, ImmutableList<Integer>> gb = ImmutableSortedMap.naturalOrder();
        for (var e : grp.int2ObjectEntrySet()) gb.put(e.getIntKey(), ImmutableList.copyOf(e.getValue()));
        this.groupsView = gb.build();
    }

    /** A plan for {@code transform} with an explicit split (none for DIAGONAL). */
    public static Plan of(Diagonals transform, Algorithm algorithm, int... split) {
        Objects.requireNonNull(transform, "transform is null");
        return forIndices(transform.dimension(), transform.diagonalIndices(), algorithm, split);
    }

    /** A plan for a dense n×n matrix (all n diagonals), e.g. for count studies without a matrix. */
    public static Plan dense(int n, Algorithm algorithm, int... split) {
        // checked before the n indices are made: a huge n would be an allocation, not an error
        if (n < 1 || Integer.bitCount(n) != 1 || n > MAX_DIMENSION)
            throw new InvalidTransformException(
                    "transform dimension must be a power of two up to " + MAX_DIMENSION + ": " + n);
        IntAVLTreeSet all = new IntAVLTreeSet();
        for (int r = 0; r < n; r++) all.add(r);
        return forIndices(n, all, algorithm, split);
    }

    /** A plan for the diagonal index set {@code indices} (each in [0, n)) of an n-dimensional transform. */
    public static Plan forIndices(int n, Collection<Integer> indexSet, Algorithm algorithm, int... split) {
        Objects.requireNonNull(indexSet, "indexSet is null");
        IntSortedSet indices = new IntAVLTreeSet(indexSet);
        if (Integer.bitCount(n) != 1)
            throw new InvalidTransformException("transform dimension must be a power of two after padding: " + n);
        if (indices.isEmpty()) throw new InvalidTransformException("no diagonals");
        if (indices.firstInt() < 0 || indices.lastInt() >= n)
            throw new InvalidTransformException("diagonal indices must lie in [0, " + n + ")");
        int[] s = algorithm == Algorithm.DIAGONAL && split.length == 0 ? new int[] {n} : split;
        if (s.length != algorithm.splitParts()) {
            throw new InvalidTransformException(algorithm.cliName() + " takes a split of " + algorithm.splitParts()
                    + " factors, got " + Arrays.toString(split));
        }
        long prod = 1;
        for (int f : s) {
            if (f < 1) throw new InvalidTransformException("split factors must be ≥ 1: " + Arrays.toString(s));
            prod *= f;
            // the running product of factors ≥ 1 only grows: past n it cannot come back, and it never overflows
            if (prod > n)
                throw new InvalidTransformException(
                        "split " + Arrays.toString(s) + " multiplies past the dimension " + n);
        }
        if (prod != n)
            throw new InvalidTransformException(
                    "split " + Arrays.toString(s) + " multiplies to " + prod + ", not the dimension " + n);
        return new Plan(algorithm, n, s, indices);
    }

    /**
     * The best plan of {@code algorithm} (or of every algorithm, if null) under {@code objective},
     * searching the power-of-two splits ({@link PlanSearch}); costs are evaluated at {@code level}.
     */
    public static Plan auto(
            Diagonals t, CkksParameters params, int level, Algorithm algorithm, Objective objective, int keyBudget) {
        return PlanSearch.auto(t, params, level, algorithm, objective, keyBudget);
    }

    /** {@link #auto} for an index set. */
    public static Plan autoForIndices(
            int n,
            Collection<Integer> indices,
            CkksParameters params,
            int level,
            Algorithm algorithm,
            Objective objective,
            int keyBudget) {
        return PlanSearch.autoForIndices(n, indices, params, level, algorithm, objective, keyBudget);
    }

    /** Every power-of-two split of {@code algorithm} (or of every algorithm, if null) for the index set. */
    public static List<Plan> candidates(int n, Collection<Integer> indices, Algorithm algorithm) {
        return PlanSearch.candidates(n, indices, algorithm);
    }

    public int inner(int r) {
        return r % b1;
    }

    public int middle(int r) {
        return r % b2 - r % b1;
    }

    public int outer(int r) {
        return r - r % b2;
    }
    /** The baby-step index b = r mod b2 = i + j whose (A_b, B_b) the diagonal r multiplies. */
    public int baby(int r) {
        return r % b2;
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    public int dimension() {
        return n;
    }

    public int[] split() {
        return split.clone();
    }
    /** The diagonal indices, sorted. */
    public SortedSet<Integer> indices() {
        return indicesView;
    }
    /** Inner rotations (0 among them only when some diagonal is a multiple of the first factor). */
    public SortedSet<Integer> innerRotations() {
        return innerView;
    }
    /** Middle rotations (including 0); only TH-BSGS has nonzero ones. */
    public SortedSet<Integer> middleRotations() {
        return middleView;
    }
    /** Outer (giant) rotations (0 among them only when some diagonal needs no giant step). */
    public SortedSet<Integer> outerRotations() {
        return outerView;
    }
    /** Inner indices whose B part is ModDowned and decomposed for the middle layer (Algorithm 2 lines 6–7). */
    public SortedSet<Integer> middleSources() {
        return sourcesView;
    }
    /** Middle rotation j ≠ 0 → inner indices i it applies to. */
    public SortedMap<Integer, ? extends SortedSet<Integer>> middlePairs() {
        return pairsView;
    }
    /** Outer k → diagonal indices r with outer(r) = k, ascending. */
    public SortedMap<Integer, ? extends List<Integer>> groups() {
        return groupsView;
    }

    /** Whether the first Decompose (of c_1) is needed: some inner or middle rotation starts from it. */
    public boolean needsFirstDecompose() {
        if (algorithm == Algorithm.BSGS) return false;
        return nonzero(inner) > 0 || middlePairs.values().stream().anyMatch(s -> s.contains(0));
    }

    /** The rotations of a layer that are not 0 (a layer need not hold 0: a matrix with diagonal 1 only). */
    private static int nonzero(IntSortedSet layer) {
        return layer.size() - (layer.contains(0) ? 1 : 0);
    }

    /** Nonzero rotation amounts of all layers (each needs one Galois key). */
    public SortedSet<Integer> rotations() {
        IntAVLTreeSet all = new IntAVLTreeSet();
        for (IntSortedSet s : List.of(inner, middle, outer)) all.addAll(s);
        all.remove(0);
        return ImmutableSortedSet.copyOf(all);
    }

    /** The exact Galois elements this plan needs, known before anything is encoded. */
    public SortedSet<Long> rotationKeys(CkksParameters params) {
        Objects.requireNonNull(params, "params is null");
        if (params.slots() % n != 0) {
            throw new InvalidTransformException(
                    "transform dimension " + n + " does not divide the " + params.slots() + " slots");
        }
        LongAVLTreeSet gs = new LongAVLTreeSet();
        for (int r : rotations()) gs.add(params.galoisElementForRotation(r));
        return ImmutableSortedSet.copyOf(gs);
    }

    /**
     * Closed-form counts at {@code level} of {@code params} with diagonals kept as {@code storage}: for
     * the hoisted algorithms the {@link CountingInterpreter}'s walk of the compiled {@link LtProgram}
     * (the program the executors run), for BSGS its own formula (§4.2).
     */
    public Cost cost(CkksParameters params, int level, Storage storage) {
        Objects.requireNonNull(params, "params is null");
        Objects.requireNonNull(storage, "storage is null");
        return cost(LimbLayout.of(params, level), storage);
    }

    /** {@link #cost(CkksParameters, int, Storage)} at a bare limb layout (studies of parameters that are not built). */
    public Cost cost(LimbLayout lay, Storage storage) {
        Objects.requireNonNull(lay, "lay is null");
        Objects.requireNonNull(storage, "storage is null");
        if (algorithm != Algorithm.BSGS) return CountingInterpreter.counts(LtProgram.compile(this, lay), storage);
        int lq = lay.lq(), beta = lay.beta(), d = lay.d();
        long rot = nonzero(inner) + nonzero(outer);
        long pt = indices.size();
        long ntt = rot * ((long) beta * d + 2L * d) + 2L * lq + (storage == Storage.COMPACT ? pt * lq : 0);
        int keys = rotations().size();
        double mults = rot * CountingInterpreter.decomposeMults(lay)
                + 2 * rot * CountingInterpreter.modDownMults(lay)
                + rot * CountingInterpreter.keySwitchMults(lay)
                + pt * 2.0 * lq * lay.n();
        return new Cost(rot, 2 * rot, rot, pt, ntt, keys, keys * lay.keyBytes(), keys * lay.seededKeyBytes(), mults);
    }

    /** "th-bsgs 16·16·16" and the like. */
    public String describe() {
        return algorithm.cliName()
                + (algorithm == Algorithm.DIAGONAL
                        ? ""
                        : " "
                                + String.join(
                                        "·",
                                        Arrays.stream(split)
                                                .mapToObj(Integer::toString)
                                                .toList()));
    }

    /** Plans are equal when algorithm, dimension, split and diagonal set are: everything else follows from those. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Plan p
                && p.algorithm == algorithm
                && p.n == n
                && Arrays.equals(p.split, split)
                && p.indices.equals(indices);
    }

    @Override
    public int hashCode() {
        return Objects.hash(algorithm, n, Arrays.hashCode(split), indices);
    }

    @Override
    public String toString() {
        return "Plan[" + describe() + ", n=" + n + ", " + indices.size() + " diagonals]";
    }
}
