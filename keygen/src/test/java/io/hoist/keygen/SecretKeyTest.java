package io.hoist.keygen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.InsecureSecretKeyAccess;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.PolyQP;
import io.hoist.ckks.SecretKey;
import io.hoist.ring.Domain;
import org.junit.jupiter.api.Test;

/** The secret key holds its residues privately: copies out behind the token, no equals over them. */
class SecretKeyTest {
    final CkksContext ctx = CkksContext.create(CkksFixture.small(10, new int[] {40, 30}, new int[] {45}));
    final KeyGenerator kg = new KeyGenerator(ctx);

    @Test
    void materialIsACopyAndTheKeyHasNoValueEquality() throws Exception {
        SecretKey sk = kg.genSecretKey();
        PolyQP a = sk.material(InsecureSecretKeyAccess.get());
        long before = a.limb(0)[0];
        a.limb(0)[0] ^= 1; // a stray write into the copy
        assertEquals(before, sk.material(InsecureSecretKeyAccess.get()).limb(0)[0], "the key is unchanged");
        SecretKey same =
                new SecretKey(ctx.params(), sk.material(InsecureSecretKeyAccess.get()), InsecureSecretKeyAccess.get());
        assertTrue(sk.equalsKey(same));
        assertNotEquals(sk, same, "equals is identity: no comparison over secret residues");
        assertEquals(
                Object.class, SecretKey.class.getMethod("equals", Object.class).getDeclaringClass());
        assertEquals(Object.class, SecretKey.class.getMethod("hashCode").getDeclaringClass());
        assertFalse(sk.equalsKey(kg.genSecretKey()));
        assertFalse(sk.toString().contains(Long.toString(before)));
        assertThrows(NullPointerException.class, () -> sk.material(null));
        assertThrows(
                IllegalArgumentException.class,
                () -> new SecretKey(ctx.params(), PolyQP.zero(ctx, 0, Domain.NTT), InsecureSecretKeyAccess.get()));
    }
}
