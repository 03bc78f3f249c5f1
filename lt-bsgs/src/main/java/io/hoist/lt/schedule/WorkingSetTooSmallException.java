package io.hoist.lt.schedule;

import io.hoist.ckks.CkksException;

/** A working-set budget below what a schedule needs; names both numbers. */
public final class WorkingSetTooSmallException extends CkksException {
    private final long budgetBytes;
    private final long requiredBytes;

    public WorkingSetTooSmallException(String message, long budgetBytes, long requiredBytes) {
        super(message);
        this.budgetBytes = budgetBytes;
        this.requiredBytes = requiredBytes;
    }

    public long budgetBytes() {
        return budgetBytes;
    }

    public long requiredBytes() {
        return requiredBytes;
    }
}
