package io.hoist.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.KeySwitcher;
import io.hoist.ckks.PolyQP;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The pool never lets two borrowers share an array: a second return, or a foreign array, throws and changes nothing. */
class LimbPoolTest {
    @Test
    void aSecondReleaseOfTheSameArrayThrowsAndTheCountStaysPut() {
        LimbPool pool = new LimbPool(16);
        long[] a = pool.get(), b = pool.get();
        pool.put(a);
        assertEquals(1, pool.outstanding());
        assertThrows(IllegalStateException.class, () -> pool.put(a));
        assertEquals(1, pool.outstanding(), "a refused return leaves the count alone");
        assertEquals(1, pool.idle(), "and does not add the array twice");
        long[] c = pool.get(), d = pool.get();
        assertNotSame(c, d, "two live borrowers never share an array");
        pool.put(b);
        pool.put(c);
        pool.put(d);
        assertEquals(0, pool.outstanding());
        assertThrows(IllegalStateException.class, () -> pool.put(d));
        assertEquals(0, pool.outstanding(), "never negative");
    }

    @Test
    void reserveGrowsToTheCountWithoutShrinkingAndTheReservedArraysAreLentFirst() {
        LimbPool pool = new LimbPool(8);
        long[] out = pool.get();
        pool.reserve(5);
        assertEquals(5, pool.created(), "one lent and four idle make five");
        assertEquals(4, pool.idle());
        pool.reserve(3);
        assertEquals(5, pool.created(), "a smaller reservation frees nothing");
        long[][] four = pool.get(4);
        assertEquals(5, pool.created(), "the reserved arrays are lent before any new one");
        pool.put(four);
        pool.put(out);
        assertEquals(40L * 8, pool.retainedBytes());
        assertThrows(IllegalArgumentException.class, () -> pool.reserve(-1));
        pool.trim();
        assertEquals(0, pool.idle());
    }

    @Test
    void aDetachedArrayLeavesThePoolForGood() {
        LimbPool pool = new LimbPool(8);
        long[] a = pool.get(), b = pool.get();
        pool.detach(a);
        assertEquals(1, pool.outstanding(), "a detached array is no longer counted out");
        assertThrows(IllegalStateException.class, () -> pool.put(a), "nor taken back");
        assertThrows(IllegalStateException.class, () -> pool.detach(a), "nor detached twice");
        assertThrows(IllegalStateException.class, () -> pool.detach(new long[8]), "nor one never lent");
        pool.put(b);
        long[] c = pool.get(), d = pool.get();
        assertNotSame(a, c, "the pool never lends it again");
        assertNotSame(a, d);
        assertEquals(3, pool.created());
    }

    @Test
    void anArrayThePoolNeverHandedOutIsRefused() {
        LimbPool pool = new LimbPool(8);
        assertThrows(IllegalStateException.class, () -> pool.put(new long[8]));
        assertThrows(IllegalArgumentException.class, () -> pool.put(new long[9]));
        assertEquals(0, pool.outstanding());
        assertEquals(0, pool.idle());
    }

    @Test
    void polynomialsAndPreparedConversionsCannotBeReleasedTwice() {
        CkksParameters p = CkksParameters.builder()
                .logN(10)
                .logQ(40, 30)
                .logP(45)
                .allowInsecure()
                .build();
        CkksContext ctx = CkksContext.create(p);
        LimbPool pool = new LimbPool(ctx.n());
        PolyQP x = PolyQP.borrow(ctx, pool, p.maxLevel(), Domain.NTT);
        x.release(pool);
        assertThrows(IllegalStateException.class, () -> x.release(pool));
        assertEquals(0, pool.outstanding());

        KeySwitcher ks = new KeySwitcher(ctx);
        PolyQP y = PolyQP.borrow(ctx, pool, p.maxLevel(), Domain.NTT);
        for (int j = 0; j < y.limbCount(); j++) Arrays.fill(y.limb(j), 1);
        KeySwitcher.Prepared prep = ks.modDownPrepare(y, pool, new OpCounters());
        ks.release(new KeySwitcher.Prepared[] {prep}, pool);
        assertThrows(IllegalStateException.class, () -> ks.release(new KeySwitcher.Prepared[] {prep}, pool));
        y.release(pool);
        assertEquals(0, pool.outstanding());
    }
}
