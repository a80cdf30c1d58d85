package org.ftlab.harness.analysis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.ftlab.os.AtomicFiles;

/**
 * {@code report/histograms/<block>.hlog}: each block's latency histograms in HdrHistogram's log format, so that
 * HdrHistogram's own tools (HistogramLogProcessor, the plotter) open them. One interval per histogram, tagged
 * {@code recorded} (as measured) and {@code corrected} (closed loop: coordinated omission corrected) or
 * {@code service} (open loop: receive − send). Values are µs; the interval max column is in ms
 * (maxValueUnitRatio 1000), so give HistogramLogProcessor {@code -outputValueUnitRatio 1000} for ms.
 */
final class HistogramLogs {
    /** µs per ms: the unit ratio of the logs' max column. */
    static final double MAX_VALUE_UNIT_RATIO = 1000.0;

    private HistogramLogs() {
    }

    static void write(Path dir, List<RunAnalysis.BlockHistograms> blocks) throws IOException {
        Files.createDirectories(dir);
        for (RunAnalysis.BlockHistograms b : blocks) {
            AtomicFiles.write(dir.resolve(b.block() + ".hlog"), text(b));
        }
    }

    static String text(RunAnalysis.BlockHistograms b) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, false, StandardCharsets.UTF_8)) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputComment("ftlab block " + b.block() + ": latency of every completed request in microseconds; "
                    + "Tag=recorded as measured, Tag=" + b.secondTag() + (b.secondTag().equals("corrected")
                            ? " with HdrHistogram's coordinated-omission correction (expected interval: think time "
                                    + "+ median latency)" : " = client receive - client send (open loop)"));
            w.outputLogFormatVersion();
            w.setBaseTime(b.startMs());
            w.outputBaseTime(b.startMs());
            w.outputStartTime(b.startMs());
            w.outputLegend();
            double seconds = Math.max(0, b.endMs() - b.startMs()) / 1000.0;
            interval(w, b.recorded(), "recorded", seconds);
            interval(w, b.second(), b.secondTag(), seconds);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static void interval(HistogramLogWriter w, Histogram h, String tag, double seconds) {
        Histogram copy = h.copy();
        copy.setTag(tag);
        w.outputIntervalHistogram(0, seconds, copy, MAX_VALUE_UNIT_RATIO);
    }
}
