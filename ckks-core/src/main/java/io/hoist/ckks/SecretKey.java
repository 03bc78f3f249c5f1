package io.hoist.ckks;

/** The secret s over QP at the top level, NTT domain. Never leaves the client. */
public record SecretKey(CkksParameters params, PolyQP s) {}
