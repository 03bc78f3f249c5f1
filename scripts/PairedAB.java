// The driver of scripts/paired-ab.sh (not part of the build; depends on the JDK only).
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.DoubleSupplier;

/**
 * PairedAB CLASSES JAR_A JAR_B OP PRESET ROUNDS: both builds in one JVM, each in its own class loader,
 * their calls alternated (A B, B A, …) so that slow drifts of a shared machine hit both alike; prints
 * the medians, ranges and quartiles of each and of the per-pair ratio B/A.
 */
public class PairedAB {
    public static void main(String[] a) throws Exception {
        URL classes = Path.of(a[0]).toUri().toURL();
        DoubleSupplier[] side = new DoubleSupplier[2];
        for (int i = 0; i < 2; i++) {
            var loader = new URLClassLoader(
                    new URL[] {classes, Path.of(a[1 + i]).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            side[i] = (DoubleSupplier) loader.loadClass("PairedOp")
                    .getConstructor(String.class, String.class)
                    .newInstance(a[3], a[4]);
        }
        int rounds = Integer.parseInt(a[5]);
        for (int w = 0; w < Math.max(10, rounds / 4); w++) {
            side[0].getAsDouble();
            side[1].getAsDouble();
        }
        double[] ta = new double[rounds], tb = new double[rounds], ratio = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            if (r % 2 == 0) {
                ta[r] = side[0].getAsDouble();
                tb[r] = side[1].getAsDouble();
            } else {
                tb[r] = side[1].getAsDouble();
                ta[r] = side[0].getAsDouble();
            }
            ratio[r] = tb[r] / ta[r];
        }
        System.out.printf("%s %s: A %s ms, B %s ms, B/A paired %s%n", a[3], a[4], q(ta), q(tb), q(ratio));
    }

    static String q(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        int n = s.length;
        return String.format("%.3f [%.3f–%.3f, quartiles %.3f–%.3f]", s[n / 2], s[0], s[n - 1], s[n / 4], s[3 * n / 4]);
    }
}
