package io.hoist.lt;

import io.hoist.ckks.CkksParameters;
import io.hoist.lt.exec.EncodedDiagonals;
import io.hoist.lt.plan.Algorithm;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LtProgram;
import io.hoist.lt.plan.Plan;
import io.hoist.lt.plan.Storage;
import java.nio.LongBuffer;
import java.util.Objects;

/**
 * A transform's diagonals encoded for one plan at one level, made by {@link LinearTransformEvaluator#encode}
 * (or read back from the stored compact form): F̃_r = Enc(Rot_{−k(r)}(f_r)) at scale Δ_pt = q_ℓ,
 * replicated over the slots, precomputed (QP limbs in NTT and Montgomery form) or compact (one word
 * per coefficient, expanded during evaluation). It holds the engine's data and compiles nothing.
 * Immutable.
 */
public final class EncodedTransform {
    private final EncodedDiagonals data;

    EncodedTransform(EncodedDiagonals data) {
        this.data = data;
    }

    /**
     * A compact transform from its words: for each diagonal of {@code plan} in index order, N signed
     * integers (|w| &lt; 2^62) read from {@code words}, at plaintext scale q_ℓ.
     *
     * @throws io.hoist.lt.plan.InvalidTransformException if the words do not match the plan
     * @throws io.hoist.ckks.LevelMismatchException if {@code level} is outside [1, L]
     */
    public static EncodedTransform fromCompactWords(CkksParameters params, Plan plan, int level, LongBuffer words) {
        Objects.requireNonNull(params, "params is null");
        Objects.requireNonNull(plan, "plan is null");
        Objects.requireNonNull(words, "words is null");
        return new EncodedTransform(EncodedDiagonals.ofCompact(params, plan, level, params.q(level), words));
    }

    /** The engine's data (the executors read it); not for users. */
    EncodedDiagonals data() {
        return data;
    }

    public CkksParameters params() {
        return data.params();
    }

    public Plan plan() {
        return data.plan();
    }

    /** The ciphertext level the diagonals were encoded for. */
    public int level() {
        return data.level();
    }

    /** Δ_pt: q_ℓ, or a share of it when several transforms share level ℓ. */
    public double scale() {
        return data.scale();
    }

    /** Whether the evaluation rescales by q_ℓ (the output one level down); false for all but the last transform of a shared level. */
    public boolean rescales() {
        return data.rescales();
    }

    public Storage storage() {
        return data.storage();
    }

    /** The compiled program (null for BSGS, which runs full rotations instead). */
    public LtProgram program() {
        return data.program();
    }

    /** Compact diagonal r's N words appended to {@code out} (compact storage only). */
    public void compactWordsInto(int r, LongBuffer out) {
        if (data.storage() != Storage.COMPACT || !data.contains(r))
            throw new InvalidTransformException("no compact diagonal " + r + " in " + this);
        data.compactInto(r, out);
    }

    /**
     * Words one diagonal of a plan with {@code algorithm} takes at {@code level} with {@code storage},
     * before anything is encoded (an upper bound: diagonals of baby step 0 keep their Q limbs only): N
     * when compact; precomputed, N per Q limb for BSGS, and for the hoisted algorithms N per QP limb and
     * N/2 per limb of a prime below 2^31, kept two residues to a word.
     */
    public static long wordsPerDiagonal(CkksParameters params, int level, Storage storage, Algorithm algorithm) {
        return EncodedDiagonals.wordsPerDiagonal(params, level, storage, algorithm);
    }

    /** Bytes held by the encoded diagonals (8 per stored word). */
    public long memoryBytes() {
        return data.memoryBytes();
    }

    @Override
    public String toString() {
        return "EncodedTransform[" + plan() + ", level " + level() + ", " + storage() + "]";
    }
}
