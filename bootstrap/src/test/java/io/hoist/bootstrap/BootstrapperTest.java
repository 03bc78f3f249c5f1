package io.hoist.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hoist.ckks.Ciphertext;
import io.hoist.ckks.ComplexVector;
import io.hoist.ckks.PrecisionStats;
import org.junit.jupiter.api.Test;

class BootstrapperTest {
    @Test
    void denseWithEncapsulation() {
        BootstrapParameters bp = BootstrapFixture.small(12, 11, 3, 2, EvalModParameters.lattigoDefault(), 32);
        BootstrapFixture f = new BootstrapFixture(bp, BootstrapPlan.fewestKeys(bp));
        ComplexVector z = f.message(1);
        Ciphertext in = f.encryptAtLevel0(z);
        Bootstrapper.Result r = f.boot.bootstrap(in);
        PrecisionStats p = f.precision(z, r.output());
        System.out.println(f.plan + " " + r.millis() + " " + p);
        assertEquals(f.plan.outputLevel(), r.output().level());
        assertTrue(p.minBits() > 15, p.toString());
    }
}
