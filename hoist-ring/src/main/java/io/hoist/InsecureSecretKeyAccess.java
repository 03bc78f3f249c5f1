package io.hoist;

/**
 * Hands out the {@link SecretKeyAccess} token. The name says what calling it means: the caller
 * takes responsibility for the secret material it reaches (keep it in memory you control, write it
 * only to a secret-key file).
 */
public final class InsecureSecretKeyAccess {
    private InsecureSecretKeyAccess() {}

    public static SecretKeyAccess get() {
        return SecretKeyAccess.INSTANCE;
    }
}
