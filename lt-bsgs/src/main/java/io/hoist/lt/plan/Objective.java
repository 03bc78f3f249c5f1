package io.hoist.lt.plan;

/** What an automatic plan minimizes. */
public enum Objective {
    /** Fewest rotation keys (ties: fewest modular multiplications). */
    FEWEST_KEYS,
    /** Fewest modular multiplications by the §6.2 model (ties: fewest keys). */
    FEWEST_MULTS,
    /** Fewest modular multiplications among splits within a key budget. */
    FEWEST_MULTS_UNDER_KEY_BUDGET
}
