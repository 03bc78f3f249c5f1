package io.hoist.lt.planning;

import io.hoist.lt.plan.Cost;
import io.hoist.lt.plan.CountingInterpreter;
import io.hoist.lt.plan.InvalidTransformException;
import io.hoist.lt.plan.LimbLayout;
import java.util.List;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.MatrixUtils;
import org.apache.commons.math3.linear.QRDecomposition;
import org.apache.commons.math3.linear.SingularMatrixException;

/**
 * A linear time model of one evaluation: t = a·(pointwise modular multiplications: BConv, KS-IP,
 * plaintext products) + b·(key bytes streamed, one key per KS-IP) + c·(NTT butterflies, (N/2)·log2 N
 * per limb transform). Together a and c price the §6.2 count, split where the hardware differs.
 * {@link #MULTS_ONLY} ranks plans by the §6.2 count alone; {@link #fit} takes the constants from
 * measured runs by non-negative least squares (no intercept).
 */
public record CostModel(double nanosPerModMul, double nanosPerKeyByte, double nanosPerButterfly) {
    /** One nanosecond per §6.2 multiplication, NTT or pointwise: the §6.2 model as a ranking. */
    public static final CostModel MULTS_ONLY = new CostModel(1, 0, 1);

    /**
     * The model's features of a cost at {@code lay}: pointwise multiplications (§6.2 total less the
     * transforms it prices, β·D per Decompose and D per ModDown), key bytes streamed, and the
     * butterflies of every limb transform counted (compact diagonals included).
     */
    public static double[] features(Cost c, LimbLayout lay) {
        double perTransform = CountingInterpreter.transformMults(lay);
        double priced = ((double) c.decompose() * lay.beta() * lay.d() + (double) c.modDown() * lay.d()) * perTransform;
        double keyBytesStreamed =
                c.rotationKeys() == 0 ? 0 : (double) c.keySwitchInnerProducts() * c.keyBytes() / c.rotationKeys();
        return new double[] {c.modMuls() - priced, keyBytesStreamed, c.ntt() * perTransform};
    }

    public double predictNanos(Cost c, LimbLayout lay) {
        double[] f = features(c, lay);
        return nanosPerModMul * f[0] + nanosPerKeyByte * f[1] + nanosPerButterfly * f[2];
    }

    /**
     * Non-negative least-squares constants from measured runs (cost, its layout, nanoseconds); needs at
     * least three runs. No part of a time is negative, and plain least squares on noisy sub-millisecond
     * runs, whose features are nearly collinear, once gave a negative constant and so a negative
     * predicted time. With three constants the bounded problem is solved exactly: the least-squares fit
     * on every subset of the features, keeping the closest one whose constants are all ≥ 0 (the bounded
     * optimum is the plain fit on its own nonzero constants).
     */
    public static CostModel fit(List<Cost> costs, List<LimbLayout> layouts, List<Double> nanos) {
        InvalidTransformException.check(
                costs.size() == nanos.size() && costs.size() == layouts.size(),
                "%s costs, %s layouts, %s times",
                costs.size(),
                layouts.size(),
                nanos.size());
        InvalidTransformException.check(
                costs.size() >= 3, "fitting three constants needs at least three measured runs, got %s", costs.size());
        double[][] x = new double[costs.size()][];
        double[] y = new double[costs.size()];
        for (int i = 0; i < y.length; i++) {
            x[i] = features(costs.get(i), layouts.get(i));
            y[i] = nanos.get(i);
        }
        double[] best = null;
        double bestResidual = Double.POSITIVE_INFINITY;
        for (int subset = 1; subset < 1 << FEATURES; subset++) {
            double[] b = fitOn(subset, x, y);
            if (b == null) continue;
            double residual = 0;
            for (int i = 0; i < y.length; i++) {
                double e = y[i];
                for (int f = 0; f < FEATURES; f++) e -= b[f] * x[i][f];
                residual += e * e;
            }
            if (residual < bestResidual) {
                bestResidual = residual;
                best = b;
            }
        }
        InvalidTransformException.check(
                best != null,
                "no non-negative time model fits these %s runs (times not positive, or not numbers?)",
                y.length);
        return new CostModel(best[0], best[1], best[2]);
    }

    private static final int FEATURES = 3;

    /**
     * The least-squares constants (no intercept) on the features in {@code subset} (bit f: feature f),
     * zero elsewhere, by a QR decomposition (exact with as many runs as features); null when one is
     * negative or not a number, or the subset's features are dependent on these runs.
     */
    private static double[] fitOn(int subset, double[][] x, double[] y) {
        int k = Integer.bitCount(subset);
        if (k > y.length) return null;
        double[][] xs = new double[y.length][k];
        for (int i = 0; i < y.length; i++)
            for (int f = 0, c = 0; f < FEATURES; f++) if ((subset >> f & 1) != 0) xs[i][c++] = x[i][f];
        double[] b;
        try {
            b = new QRDecomposition(MatrixUtils.createRealMatrix(xs))
                    .getSolver()
                    .solve(new ArrayRealVector(y, false))
                    .toArray();
        } catch (SingularMatrixException e) {
            return null; // a feature constant zero, or features collinear, on these runs
        }
        double[] out = new double[FEATURES];
        for (int f = 0, c = 0; f < FEATURES; f++) {
            if ((subset >> f & 1) == 0) continue;
            if (!(b[c] >= 0)) return null;
            out[f] = b[c++];
        }
        return out;
    }
}
