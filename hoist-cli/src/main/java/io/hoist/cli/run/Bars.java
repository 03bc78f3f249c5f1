package io.hoist.cli.run;

import com.google.errorprone.annotations.MustBeClosed;
import io.hoist.ckks.Progress;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress bars on a terminal for the CLI's long jobs (keygen, encoding, sweeps); silent with
 * {@code --json} or when the output is not a terminal. Close after the job.
 */
public final class Bars implements Progress, AutoCloseable {
    private final String task;
    private final boolean on;
    private ProgressBar bar;

    private Bars(String task, boolean on) {
        this.task = task;
        this.on = on;
    }

    /** A bar for {@code task}, shown only on a terminal and without {@code json}. */
    @MustBeClosed
    public static Bars of(String task, boolean json) {
        return new Bars(task, !json && System.console() != null);
    }

    @Override
    public void step(long done, long total) {
        if (!on) return;
        if (bar == null) {
            bar = new ProgressBarBuilder()
                    .setTaskName(task)
                    .setInitialMax(total)
                    .setStyle(ProgressBarStyle.ASCII)
                    .setUpdateIntervalMillis(250)
                    .continuousUpdate()
                    .clearDisplayOnFinish()
                    .build();
        }
        bar.stepTo(done);
    }

    @Override
    public void close() {
        if (bar != null) bar.close();
    }
}
