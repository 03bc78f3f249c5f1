package io.hoist.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** A small stacked-bar chart written as SVG (no plotting dependency needed for one figure). */
final class SvgBarChart {
    private SvgBarChart() {}

    /**
     * @param labels   x labels, one per bar
     * @param series   stacked values, series[s][bar]
     * @param names    series names for the legend
     */
    static void write(Path file, String title, String xLabel, String yLabel, List<String> labels, double[][] series, String[] names)
            throws IOException {
        String[] colors = {"#4C72B0", "#DD8452", "#55A868", "#C44E52"};
        int w = 960, h = 540, left = 80, right = 200, top = 50, bottom = 70;
        int plotW = w - left - right, plotH = h - top - bottom;
        int bars = labels.size();
        double max = 0;
        for (int b = 0; b < bars; b++) {
            double s = 0;
            for (double[] se : series) s += se[b];
            max = Math.max(max, s);
        }
        double step = niceStep(max / 6);
        double yMax = Math.ceil(max / step) * step;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n", w, h));
        sb.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", w, h));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"28\" font-size=\"16\" text-anchor=\"middle\">%s</text>%n", left + plotW / 2, esc(title)));
        for (double y = 0; y <= yMax + 1e-9; y += step) {
            double py = top + plotH - y / yMax * plotH;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", left, py, left + plotW, py));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left - 6, py + 4, trim(y)));
        }
        double bw = (double) plotW / bars;
        for (int b = 0; b < bars; b++) {
            double base = 0;
            for (int s = 0; s < series.length; s++) {
                double v = series[s][b];
                double y0 = top + plotH - (base + v) / yMax * plotH, hh = v / yMax * plotH;
                sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: %s = %.2f</title></rect>%n",
                        left + b * bw + bw * 0.1, y0, bw * 0.8, hh, colors[s % colors.length], esc(labels.get(b)), esc(names[s]), v));
                base += v;
            }
            if (bars <= 40 || b % 2 == 0) {
                sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", left + b * bw + bw / 2, top + plotH + 16, esc(labels.get(b))));
            }
        }
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", left, top + plotH, left + plotW, top + plotH));
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n", left, top, left, top + plotH));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", left + plotW / 2, h - 20, esc(xLabel)));
        sb.append(String.format(Locale.ROOT, "<text x=\"20\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 20 %d)\">%s</text>%n", top + plotH / 2, top + plotH / 2, esc(yLabel)));
        for (int s = 0; s < series.length; s++) {
            int ly = top + 20 + s * 22;
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\"/>%n", left + plotW + 20, ly - 11, colors[s % colors.length]));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", left + plotW + 40, ly, esc(names[s])));
        }
        sb.append("</svg>\n");
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
    }

    private static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) if (m * p >= raw) return m * p;
        return 10 * p;
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
