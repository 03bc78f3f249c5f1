package io.hoist.ckks;

/**
 * The engine's zero-copy access to the residues inside immutable values ({@link Ciphertext},
 * {@link Plaintext}, {@link SwitchingKey}, {@link PublicKey}, {@link CiphertextQP}): their plain
 * accessors and constructors copy, the ones taking this token share arrays. Code that holds the
 * token promises never to write through what it reads and to hand over (never reuse) what it
 * wraps. Like Tink's access tokens it makes every such use explicit and easy to find; it does not
 * make it impossible.
 */
public final class RawAccess {
    private static final RawAccess INSTANCE = new RawAccess();

    private RawAccess() {}

    public static RawAccess get() {
        return INSTANCE;
    }
}
