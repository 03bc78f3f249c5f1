package io.hoist.ckks;

/**
 * The token that reaches secret-key material (Tink's {@code SecretKeyAccess} idea): code that reads
 * or makes a secret key's residues must hold one, so every such place is visible in a search for
 * {@link InsecureSecretKeyAccess#get()}: the key generator, the decryptor, the encryptor's secret-key
 * mode and the serializer. Holding it is a statement, not a protection.
 */
public final class SecretKeyAccess {
    static final SecretKeyAccess INSTANCE = new SecretKeyAccess();

    private SecretKeyAccess() {}
}
