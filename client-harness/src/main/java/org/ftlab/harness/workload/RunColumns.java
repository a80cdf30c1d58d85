package org.ftlab.harness.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns a workload adds to the side-by-side view of runs ({@code ftlab analyze RUN --compare OTHER...}), each
 * with the value it has for any run, a run of another workload included: labels (text), which follow the view's
 * {@code audit} column, and figures (numbers, each plotted), which follow its own figures.
 */
public record RunColumns(List<Label> labels, List<Figure> figures) {
    /** No columns. */
    public static final RunColumns NONE = new RunColumns(List.of(), List.of());

    public RunColumns {
        labels = List.copyOf(labels);
        figures = List.copyOf(figures);
    }

    /** What a column reads of a run directory. */
    @FunctionalInterface
    public interface Reading<T> {
        T of(Path runDir) throws IOException;
    }

    /** A text column: its key ({@code compare.csv}'s header), its heading, and its value for a run. */
    public record Label(String key, String heading, Reading<String> value) {
    }

    /**
     * A figure: its key ({@code compare.csv}'s header and the plot's data), its heading in the page's table and,
     * shorter, in the console's, the title of its plot, and its value for a run (null: the run has none).
     */
    public record Figure(String key, String heading, String brief, String title, Reading<Double> value) {
    }

    /** These columns, then {@code other}'s. */
    public RunColumns plus(RunColumns other) {
        List<Label> l = new ArrayList<>(labels);
        l.addAll(other.labels());
        List<Figure> f = new ArrayList<>(figures);
        f.addAll(other.figures());
        return new RunColumns(l, f);
    }
}
