package io.hoist.cli.options;

import io.hoist.ring.NttBackends;
import java.util.Iterator;
import picocli.CommandLine.Option;

/** Options every engine-running command shares: the NTT backend and JSON output. */
public final class EngineOptions {
    @Option(
            names = "--backend",
            description = "NTT backend: ${COMPLETION-CANDIDATES}; default: the fastest correct one here",
            completionCandidates = BackendNames.class)
    public String backend;

    @Option(names = "--json", description = "print one JSON object")
    public boolean json;

    @Option(
            names = "--threads",
            description =
                    "threads for limb transforms, key switches, diagonal sums and encoding (bit-identical results for every count; default: the available processors)")
    Integer threads;

    /** The NTT backend asked for, or null for the default. */
    public String backend() {
        return backend;
    }

    /** Whether one JSON object is to be printed instead of tables (and progress bars kept off). */
    public boolean json() {
        return json;
    }

    /** The thread count asked for, or the available processors. */
    public int threads() {
        int t = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        if (t < 1 || t > 1024) throw new IllegalArgumentException("--threads must be in [1, 1024], got " + t);
        return t;
    }

    static final class BackendNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return NttBackends.names().iterator();
        }
    }
}
