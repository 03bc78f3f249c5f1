package io.hoist.ckks;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ring.Domain;
import io.hoist.ring.Ring;
import io.hoist.ring.RnsPoly;
import java.util.Objects;

/** Decrypts: m = c_0 + c_1·s (+ c_2·s²). Thread-safe. */
public final class Decryptor {
    private final CkksContext ctx;
    /** This decryptor's own copy of s (one per decryptor, not one per decryption). */
    private final PolyQP s;

    public Decryptor(CkksContext ctx, SecretKey sk) {
        Objects.requireNonNull(ctx, "ctx is null");
        Objects.requireNonNull(sk, "sk is null");
        if (!sk.params().equals(ctx.params()))
            throw new ParameterMismatchException("secret key made under other parameters");
        this.ctx = ctx;
        this.s = sk.material(InsecureSecretKeyAccess.get());
    }

    public Plaintext decrypt(Ciphertext ct) {
        Objects.requireNonNull(ct, "ct is null");
        if (!ct.params().equals(ctx.params()))
            throw new ParameterMismatchException("ciphertext made under other parameters");
        Ring rq = ctx.ringQ();
        int level = ct.level();
        RnsPoly s = this.s.q().atLevel(level);
        RnsPoly m = ct.poly(0, RawAccess.get()).copy();
        RnsPoly t = rq.newPoly(level, Domain.NTT);
        rq.mulCoeffs(ct.poly(1, RawAccess.get()), s, t);
        rq.add(m, t, m);
        if (ct.degree() == 2) {
            RnsPoly s2 = rq.newPoly(level, Domain.NTT);
            rq.mulCoeffs(s, s, s2);
            rq.mulCoeffs(ct.poly(2, RawAccess.get()), s2, t);
            rq.add(m, t, m);
        }
        return Plaintext.wrap(RawAccess.get(), ctx.params(), m, ct.scale());
    }

    public ComplexVector decryptAndDecode(Ciphertext ct, Encoder encoder) {
        Objects.requireNonNull(ct, "ct is null");
        Objects.requireNonNull(encoder, "encoder is null");
        return encoder.decode(decrypt(ct));
    }
}
