package io.hoist.ckks.io;

import io.hoist.SecretKeyAccess;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretKey;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A key store and its secret-key file as one unit: written together under one random
 * {@link KeyPairId}, and read back only together.
 *
 * <p>{@link #writePair} checks both targets first (two distinct paths, each absent or a regular
 * file), then (1) writes the secret key to a temporary file beside its target and forces it to disk,
 * (2) does the same for the store, (3) renames the secret into place, (4) renames the store into
 * place. A failure at any step leaves the previous files exactly as they were: temporaries are
 * deleted, and a secret already renamed over an older one is put back from a hard link (a copy
 * where links are not possible) taken before step 3.
 */
public final class KeyFiles {
    private KeyFiles() {}

    /** Test hook: called before each of the four steps (1 … 4); a test makes it throw to inject a failure there. */
    interface StepHook {
        void before(int step) throws IOException;
    }

    static volatile StepHook hook = step -> {};

    /**
     * Refuses targets that would lose or misplace a key: the same file twice (equal paths, links to
     * one file), or a path that exists and is not a regular file.
     *
     * @throws FileRefusedException naming the paths and the problem
     */
    public static void checkPairTargets(Path store, Path secret) {
        Objects.requireNonNull(store, "the key store's path is null");
        Objects.requireNonNull(secret, "the secret key's path is null");
        if (FileChecks.sameFile(store, secret)) {
            throw new FileRefusedException(
                    "the key store and the secret key would be the same file (" + store + ", " + secret
                            + "): the store is meant to be shared and must never hold the secret; name two different files");
        }
        FileChecks.requireWritableTarget(secret, "the secret key");
        FileChecks.requireWritableTarget(store, "the key store");
    }

    /**
     * Writes {@code keys} to {@code store} and {@code sk} to {@code secret} as one pair (see the class
     * comment for the steps); returns the pair's id, which both files carry.
     *
     * @throws FileRefusedException if the targets are refused (nothing is written)
     * @throws UncheckedIOException if a write fails (the previous files are left as they were)
     */
    public static KeyPairId writePair(
            Path store, Path secret, RotationKeySet keys, SecretKey sk, boolean seeded, SecretKeyAccess access) {
        Objects.requireNonNull(access, "access is null");
        checkPairTargets(store, secret);
        Objects.requireNonNull(keys, "the key set is null");
        Objects.requireNonNull(sk, "the secret key is null");
        KeyPairId id = KeyPairId.random();
        byte[] secretBytes = KeySerialization.writeSecretKey(sk, id, access);
        Path secretTmp = null, storeTmp = null, backup = null;
        boolean secretPlaced = false, keepBackup = false;
        try {
            hook.before(1);
            secretTmp = Formats.writeTemporary(secret, secretBytes);
            hook.before(2);
            storeTmp = KeyStoreWriter.writeTemporary(store, keys, seeded, id);
            backup = backup(secret);
            hook.before(3);
            Formats.moveIntoPlace(secretTmp, secret);
            secretTmp = null;
            secretPlaced = true;
            Formats.syncDirectory(secret); // the secret's rename is durable before the store's
            hook.before(4);
            Formats.moveIntoPlace(storeTmp, store);
            storeTmp = null;
            Formats.syncDirectory(store);
            return id;
        } catch (Throwable e) { // errors too: a failure after step 3 must never lose the old secret
            String restored = "";
            if (secretPlaced) {
                try {
                    if (backup != null) {
                        Formats.moveIntoPlace(backup, secret);
                        backup = null;
                    } else {
                        Files.deleteIfExists(secret);
                    }
                } catch (IOException | RuntimeException r) {
                    e.addSuppressed(r);
                    restored = backup != null
                            ? "; the previous secret key could not be put back and is kept at " + backup
                            : "; the new secret key " + secret + " could not be removed";
                    keepBackup = true; // it is the only copy of the old secret
                }
            }
            String msg = "cannot write the key pair " + store + " / " + secret + ": "
                    + (e instanceof IOException io ? FileChecks.reason(io) : e.getMessage())
                    + (restored.isEmpty() ? "; the previous files are unchanged" : restored);
            if (e instanceof IOException io) throw new UncheckedIOException(msg, io);
            if (!restored.isEmpty()) e.addSuppressed(new IOException(msg));
            if (e instanceof RuntimeException re) throw re;
            if (e instanceof Error er) throw er;
            throw new IllegalStateException(msg, e); // no other checked exception is thrown above
        } finally {
            Formats.deleteQuietly(secretTmp);
            Formats.deleteQuietly(storeTmp);
            if (!keepBackup) Formats.deleteQuietly(backup);
        }
    }

    /** A hard link to the current secret-key file (a copy where links are not possible), or null when there is none. */
    private static Path backup(Path secret) throws IOException {
        if (!Files.exists(secret)) return null;
        Path b = secret.toAbsolutePath().resolveSibling("." + secret.getFileName() + "." + UUID.randomUUID() + ".bak");
        try {
            Files.createLink(b, secret);
        } catch (UnsupportedOperationException | IOException e) {
            try {
                Files.copy(secret, b, StandardCopyOption.COPY_ATTRIBUTES);
            } catch (IOException | RuntimeException c) {
                Formats.deleteQuietly(b); // no partial copy of the secret is left behind
                throw c;
            }
        }
        return b;
    }

    /**
     * The secret key of {@code secret}, read only if it was written as one pair with the open
     * {@code store} (found at {@code storePath}).
     *
     * @throws KeyPairMismatchException if the two carry different ids or either carries none
     * @throws FileRefusedException if {@code secret} is not a regular file
     * @throws MalformedDataException if the file is damaged or made under other parameters
     */
    public static SecretKey readSecretKeyFor(
            KeyStore store, Path storePath, Path secret, CkksContext ctx, SecretKeyAccess access) {
        Objects.requireNonNull(store, "the key store is null");
        Objects.requireNonNull(access, "access is null");
        Objects.requireNonNull(ctx, "the context is null");
        byte[] data = FileChecks.readObject(secret, "the secret key");
        Optional<KeyPairId> mine = KeySerialization.secretKeyPairId(data);
        Optional<KeyPairId> theirs = store.pairId();
        if (mine.isEmpty() || theirs.isEmpty() || !mine.get().equals(theirs.get())) {
            throw new KeyPairMismatchException("the key store " + storePath + " and the secret key " + secret
                    + " were not written as one pair (key-pair ids "
                    + theirs.map(KeyPairId::toString).orElse("none") + " and "
                    + mine.map(KeyPairId::toString).orElse("none")
                    + "); use the secret-key file hoist keygen wrote with this store");
        }
        return KeySerialization.readSecretKey(data, ctx, access);
    }
}
