package io.hoist.cli.report;

import io.hoist.ckks.io.FileChecks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/** Figures through XChart: SVG or PNG by the file's extension. */
public final class Plots {
    private Plots() {}

    static {
        System.setProperty("java.awt.headless", "true");
    }

    /** A bar chart, one series per name; stacked when {@code stacked}. */
    public static CategoryChart bars(
            String title,
            String xLabel,
            String yLabel,
            List<String> labels,
            double[][] series,
            String[] names,
            boolean stacked) {
        CategoryChart c = new CategoryChartBuilder()
                .width(960)
                .height(540)
                .title(title)
                .xAxisTitle(xLabel)
                .yAxisTitle(yLabel)
                .build();
        c.getStyler().setStacked(stacked);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        c.getStyler().setChartTitleFont(c.getStyler().getChartTitleFont().deriveFont(14f));
        for (int s = 0; s < names.length; s++) {
            List<Double> v = new ArrayList<>();
            for (double x : series[s]) v.add(x);
            c.addSeries(names[s], labels, v);
        }
        return c;
    }

    /** A line chart of (x, y) series. */
    public static XYChart lines(String title, String xLabel, String yLabel, boolean logX, boolean logY) {
        XYChart c = new XYChartBuilder()
                .width(960)
                .height(540)
                .title(title)
                .xAxisTitle(xLabel)
                .yAxisTitle(yLabel)
                .build();
        c.getStyler().setXAxisLogarithmic(logX);
        c.getStyler().setYAxisLogarithmic(logY);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        return c;
    }

    /**
     * Checks a plot's path before the work that fills it: an .svg or .png file that can be written (a long sweep
     * should not end in a refusal of its output).
     */
    public static void requireTarget(Path file) {
        if (file == null) return;
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!name.endsWith(".png") && !name.endsWith(".svg"))
            throw new IllegalArgumentException("plots are written as .svg or .png, not " + file.getFileName());
        FileChecks.requireWritableTarget(file, "the plot");
    }

    /** Writes {@code chart} to {@code file} (.svg or .png). */
    public static void save(Chart<?, ?> chart, Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        FileChecks.requireWritableTarget(file, "the plot");
        try {
            if (name.endsWith(".png")) BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            else if (name.endsWith(".svg"))
                VectorGraphicsEncoder.saveVectorGraphic(
                        chart, file.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            else throw new IllegalArgumentException("plots are written as .svg or .png, not " + file.getFileName());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + FileChecks.reason(e), e);
        }
    }

    /** {@code file} with {@code suffix} before its extension ("x.svg", "-pareto" → "x-pareto.svg"). */
    public static Path sibling(Path file, String suffix) {
        String n = file.getFileName().toString();
        int dot = n.lastIndexOf('.');
        String s = dot < 0 ? n + suffix : n.substring(0, dot) + suffix + n.substring(dot);
        return file.resolveSibling(s);
    }
}
