package io.hoist;

/**
 * The token that reaches secret-key material (Tink's {@code SecretKeyAccess} idea): code that reads
 * or makes a secret key's residues must hold one, so every such place is visible in a search for
 * {@link InsecureSecretKeyAccess#get()}: the key generators, the decryptors, the encryptors' secret-key
 * modes and the serializers, of every scheme. Holding it is a statement, not a protection.
 */
public final class SecretKeyAccess {
    static final SecretKeyAccess INSTANCE = new SecretKeyAccess();

    private SecretKeyAccess() {}
}
