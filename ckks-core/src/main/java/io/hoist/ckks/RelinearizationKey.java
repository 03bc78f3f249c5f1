package io.hoist.ckks;

/** The switching key from s² to s. */
public record RelinearizationKey(SwitchingKey key) {}
