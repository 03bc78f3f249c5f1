package io.hoist.spark;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.util.concurrent.ExecutionError;
import com.google.common.util.concurrent.UncheckedExecutionException;
import io.hoist.ckks.CkksContext;
import io.hoist.ckks.CkksParameters;
import io.hoist.ckks.RotationKeySet;
import io.hoist.ckks.io.KeyStore;
import io.hoist.lt.BlockLinearTransform;
import io.hoist.lt.LinearTransformEvaluator;
import io.hoist.lt.plan.Plan;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;

/**
 * An executor's share of a job, made once per JVM, job and thread count and shared by its tasks:
 * the context, the rotation keys the plan needs — read from the key store when the first task of
 * the job runs here, and no others — and the evaluator with its limb pool.
 */
final class Worker {
    /** One job at a time: a new job's worker lets the previous one's keys go (at N = 2^16 they are gigabytes). */
    private static final Cache<String, Worker> WORKERS =
            CacheBuilder.newBuilder().maximumSize(1).build();

    final CkksContext ctx;
    final Plan plan;
    final RotationKeySet keys;
    final LinearTransformEvaluator evaluator;
    final BlockLinearTransform matrix;

    private Worker(BlockJob job, int threads) {
        CkksParameters params = job.params();
        this.ctx = CkksContext.create(params, job.backend(), threads);
        this.plan = job.plan();
        Path path = job.keys().resolve();
        try (KeyStore store = KeyStore.open(path, ctx, false)) {
            job.keys().check(store.fileBytes(), path);
            this.keys = store.load(plan.rotationKeys(params));
        }
        this.evaluator = new LinearTransformEvaluator(ctx, keys);
        this.matrix = job.matrix().matrix();
    }

    /** This JVM's worker for {@code job} with {@code threads} threads; Hoist's own exceptions pass through unwrapped. */
    static Worker of(BlockJob job, int threads) {
        try {
            return WORKERS.get(job.id() + "/" + threads, () -> new Worker(job, threads));
        } catch (ExecutionException | UncheckedExecutionException | ExecutionError e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) throw r;
            if (c instanceof Error err) throw err;
            throw new IllegalStateException(c);
        }
    }

    /** Forgets this JVM's workers of job {@code id}, and so their keys. */
    static void forget(String id) {
        WORKERS.asMap().keySet().removeIf(k -> k.startsWith(id + "/"));
    }

    /** How many workers this JVM holds (tests). */
    static long cached() {
        return WORKERS.size();
    }

    /** Forgets every worker of this JVM (tests; the next task reads its keys again). */
    static void clear() {
        WORKERS.invalidateAll();
    }
}
