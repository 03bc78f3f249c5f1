package io.hoist.cli;

import io.hoist.ring.NttBackends;
import picocli.CommandLine.Option;

/** Options every engine-running command shares: the NTT backend and JSON output. */
public final class EngineOptions {
    @Option(names = "--backend", description = "NTT backend: ${COMPLETION-CANDIDATES}; default: the fastest correct one here",
            completionCandidates = BackendNames.class)
    String backend;

    @Option(names = "--json", description = "print one JSON object")
    boolean json;

    @Option(names = "--threads", defaultValue = "1", description = "threads over which each batch of limb NTTs is spread (bit-identical results) (default ${DEFAULT-VALUE})")
    int threads;

    static final class BackendNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return NttBackends.names().iterator();
        }
    }
}
