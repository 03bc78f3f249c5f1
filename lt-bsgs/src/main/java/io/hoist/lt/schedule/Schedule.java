package io.hoist.lt.schedule;

import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LtProgram;
import java.util.Objects;

/**
 * How an {@link LtProgram} is executed: {@link #direct()} (step by step on whole polynomials) or
 * {@link #phased} (the six-phase memory-aware schedule under a working-set budget, with an explicit
 * {@link Grouping} or the least-traffic one the {@link ScheduleCompiler} finds for the budget).
 */
public sealed interface Schedule {

    /** Step by step, whole polynomials: the order of Algorithm 2's listing. */
    static Schedule direct() {
        return Direct.INSTANCE;
    }

    /** The six-phase schedule with the least-traffic grouping that fits {@code budgetBytes}. */
    static Schedule phased(long budgetBytes) {
        return new Phased(null, budgetBytes);
    }

    /** The six-phase schedule with {@code grouping}; refused if it needs more than {@code budgetBytes}. */
    static Schedule phased(Grouping grouping, long budgetBytes) {
        return new Phased(Objects.requireNonNull(grouping, "grouping"), budgetBytes);
    }

    /** The direct executor. */
    enum Direct implements Schedule {
        INSTANCE
    }

    /** The phased executor; a null grouping means "search for the budget". */
    record Phased(Grouping grouping, long budgetBytes) implements Schedule {
        public Phased {
            InvalidTransformException.check(budgetBytes > 0, "working-set budget must be positive: %s", budgetBytes);
        }
    }
}
