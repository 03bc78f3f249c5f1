package io.hoist.ring;

import java.util.Locale;

/**
 * The hot kernels whose form (scalar, vector, or for the NTTs and dot2 FMA) is chosen per machine by
 * {@link KernelChoice}. Each has a scalar twin and vector forms that are bit-identical, so the choice
 * changes time, never a result.
 */
public enum Kernel {
    /** Forward negacyclic NTT of one limb. */
    NTT_FORWARD("ntt.forward"),
    /** Inverse negacyclic NTT of one limb. */
    NTT_INVERSE("ntt.inverse"),
    /** Σ x·y·2^-64 over terms, two outputs: key inner products and diagonal sums. */
    DOT2("dot2"),
    /** Σ y_i·w_i over limbs: the inner sum of BConv. */
    SUM_SHOUP("sumShoup"),
    /** x·w by a fixed operand: scalings, Montgomery conversions. */
    MUL_SHOUP("mulShoup"),
    /** (a − b)·w: the tails of ModDown and rescale. */
    SUB_MUL_SHOUP("subMulShoup"),
    /** Signed integers lifted to a limb and scaled: compact diagonal expansion, encoding. */
    LIFT_SIGNED("liftSigned"),
    /** a ⊙ b (mod q), plain residues: pointwise products. */
    MUL_MOD("mulMod"),
    /** An NTT-domain automorphism fused with the additions around it: rotations, conjugation. */
    AUTOMORPHISM("automorphism");

    private final String id;

    Kernel(String id) {
        this.id = id;
    }

    /** The stable name used in reports, caches and {@code -Dhoist.kernels}. */
    public String id() {
        return id;
    }

    /** Whether this kernel has form {@code f}: every kernel is scalar and vector, the NTTs, dot2 and mulMod also FMA. */
    public boolean has(Form f) {
        return f != Form.FMA || this == NTT_FORWARD || this == NTT_INVERSE || this == DOT2 || this == MUL_MOD;
    }

    /** The kernel of a name as {@link #id()} gives it (case-insensitive), or null. */
    static Kernel byId(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (Kernel k : values()) if (k.id.toLowerCase(Locale.ROOT).equals(n)) return k;
        return null;
    }

    /** The forms a kernel can take. */
    public enum Form {
        SCALAR,
        /** Vector lanes of 64-bit integers. */
        VECTOR,
        /**
         * Vector lanes of doubles with fused multiply-adds, for primes below 2^50 (larger primes take
         * the vector form): the NTTs ({@link FmaNtt}), dot2 ({@link FmaDotKernels}, from 2^31) and mulMod
         * ({@link MulModKernels}).
         */
        FMA;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Form byId(String name) {
            for (Form f : values()) if (f.id().equals(name.trim().toLowerCase(Locale.ROOT))) return f;
            return null;
        }
    }
}
