package io.hoist.lt.plan;

import java.util.Locale;

/** The linear-transform algorithms of spec lt-algorithms §4–§5. */
public enum Algorithm {
    /** Hoisted diagonal method (§4.1): one Decompose, every rotation lazy in QP. */
    DIAGONAL("diagonal"),
    /** Baby-step giant-step with full rotations and products over Q (§4.2, Halevi–Shoup). */
    BSGS("bsgs"),
    /** Double-hoisted BSGS (§4.3, Algorithm 1; Lattigo's). */
    DH_BSGS("dh-bsgs"),
    /** Triple-hoisted BSGS (§5, Algorithm 2): n = n1'·n2'·n3'. */
    TH_BSGS("th-bsgs");

    private final String cliName;

    Algorithm(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** Number of split factors the algorithm takes. */
    public int splitParts() {
        return switch (this) {
            case DIAGONAL -> 1;
            case BSGS, DH_BSGS -> 2;
            case TH_BSGS -> 3;
        };
    }

    public static Algorithm parse(String s) {
        String k = s.toLowerCase(Locale.ROOT).replace('_', '-');
        for (Algorithm a : values()) if (a.cliName.equals(k)) return a;
        throw new InvalidTransformException("unknown algorithm '" + s + "'; known: diagonal, bsgs, dh-bsgs, th-bsgs");
    }
}
