package io.hoist.bootstrap;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.KeySizes;
import io.hoist.ckks.KeyStorage;
import io.hoist.ckks.ParameterMismatchException;
import io.hoist.ckks.Progress;
import io.hoist.ckks.RelinearizationKey;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.SecretDistribution;
import io.hoist.ckks.SecretKey;
import io.hoist.ckks.SwitchingKey;
import io.hoist.keygen.KeyGenerator;
import java.util.Objects;

/**
 * Every evaluation key one bootstrapping needs, and nothing else: the Galois keys of both DFTs
 * (conjugation included), each at the highest level it is used at ({@link BootstrapPlan#galoisKeyLevels()}), the
 * relinearization key at EvalMod's level, and with the
 * encapsulation the switching keys s → s' at level 0 and s' → s at the top (s' the ephemeral sparse
 * secret, discarded after generation). Immutable.
 *
 * @param toSparse null without encapsulation
 * @param toDense  null without encapsulation
 */
public record BootstrappingKeys(
        RotationKeySet rotations, RelinearizationKey relinearization, SwitchingKey toSparse, SwitchingKey toDense) {
    public BootstrappingKeys {
        Objects.requireNonNull(rotations, "rotations is null");
        Objects.requireNonNull(relinearization, "relinearization is null");
        if ((toSparse == null) != (toDense == null))
            throw new ParameterMismatchException("the encapsulation needs both switching keys or neither");
    }

    /** Generates exactly the keys of {@code plan} from the secret, reporting each Galois key to {@code progress}. */
    public static BootstrappingKeys generate(CkksContext ctx, SecretKey sk, BootstrapPlan plan, Progress progress) {
        return generate(ctx, sk, plan, progress, KeyStorage.FULL);
    }

    /**
     * {@link #generate(CkksContext, SecretKey, BootstrapPlan, Progress)} with every key held as
     * {@code storage}: SEEDED keeps b parts and seeds only (about half the memory), the Galois keys
     * made so from the start, each a limb regenerated inside the key inner products.
     */
    public static BootstrappingKeys generate(
            CkksContext ctx, SecretKey sk, BootstrapPlan plan, Progress progress, KeyStorage storage) {
        Objects.requireNonNull(storage, "storage is null");
        Objects.requireNonNull(ctx, "ctx is null");
        Objects.requireNonNull(sk, "sk is null");
        Objects.requireNonNull(plan, "plan is null");
        if (!ctx.params().equals(plan.ckks()))
            throw new ParameterMismatchException("context and plan differ in parameters");
        KeyGenerator kg = new KeyGenerator(ctx);
        RotationKeySet rot = kg.genRotationKeys(sk, plan.galoisKeyLevels(), progress, storage);
        RelinearizationKey rlk = new RelinearizationKey(
                kg.genRelinearizationKey(sk, plan.relinearizationLevel()).key().withStorage(storage));
        SwitchingKey toSparse = null, toDense = null;
        if (plan.parameters().encapsulation()) {
            SecretKey eph = kg.genSecretKey(
                    SecretDistribution.sparseTernary(plan.parameters().ephemeralWeight()));
            toSparse = kg.genSwitchingKey(sk, eph, 0).withStorage(storage);
            toDense = kg.genSwitchingKey(eph, sk, plan.ctsLevel()).withStorage(storage);
        }
        return new BootstrappingKeys(rot, rlk, toSparse, toDense);
    }

    /** Bytes the keys hold in memory under their storage. */
    public long memoryBytes() {
        long b = rotations.memoryBytes() + relinearization.key().memoryBytes();
        if (toSparse != null) b += toSparse.memoryBytes() + toDense.memoryBytes();
        return b;
    }

    /** Bytes of the keys, full and seeded, whatever their storage. */
    public KeySizes sizes() {
        KeySizes s = rotations.sizes().plus(relinearization.key().sizes());
        if (toSparse != null) s = s.plus(toSparse.sizes()).plus(toDense.sizes());
        return s;
    }
}
